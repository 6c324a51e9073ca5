package lab

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"leaselab/core"
	"leaselab/core/sandbox"
)

func TestSandboxRunsAPresetWithLearnerActions(t *testing.T) {
	p, err := sandbox.FindPreset("kubernetes")
	if err != nil {
		t.Fatal(err)
	}
	lb, err := NewSandbox(p.Title, p.Config)
	if err != nil {
		t.Fatal(err)
	}
	if lb.Length() != 10*time.Minute {
		t.Fatalf("length %s", lb.Length())
	}
	lb.Seek(5 * time.Second)
	if err := lb.Do(core.Pause("A", 20*time.Second)); err != nil {
		t.Fatal(err)
	}
	lb.Seek(30 * time.Second)
	var belief core.InvariantStatus
	for _, st := range lb.Statuses() {
		if st.Name == core.InvOneBeliever {
			belief = st
		}
	}
	if belief.Holds || belief.FirstBroke < 5*time.Second {
		t.Fatalf("a 20 s pause against a 15 s lease must overlap beliefs: %+v", belief)
	}
	// Seeking back to the first break re-simulates to that instant.
	lb.Seek(belief.FirstBroke)
	if lb.Now() != belief.FirstBroke {
		t.Fatalf("seek to %s landed at %s", belief.FirstBroke, lb.Now())
	}
	if !bytes.HasPrefix(lb.ExportJSONL(), []byte(`{"seq":0,`)) || !bytes.HasPrefix(lb.ExportMermaid(), []byte("sequenceDiagram\n")) {
		t.Fatal("exports are not JSON Lines / Mermaid")
	}
	if n := lb.ExportName("jsonl"); !strings.HasPrefix(n, "leaselab-sandbox-seed1-t") || !strings.HasSuffix(n, ".jsonl") {
		t.Fatalf("export name %q", n)
	}
	bad := p.Config
	bad.RenewEvery = bad.TTL
	if _, err := NewSandbox("bad", bad); err == nil || !strings.Contains(err.Error(), "renew") {
		t.Fatalf("an invalid configuration started: %v", err)
	}
}

func TestOpenLessonInSandboxCarriesTheRunOver(t *testing.T) {
	lb := fenced(t)
	l := lb.Lesson
	lb.Seek(3 * time.Second)
	if err := lb.Do(core.Pause("A", 20*time.Second)); err != nil {
		t.Fatal(err)
	}
	lb.Seek(12 * time.Second)
	sb, err := lb.OpenInSandbox()
	if err != nil {
		t.Fatal(err)
	}
	if sb.Now() != lb.Now() || len(sb.Log()) != 1 || sb.Sim().Trace.Hash() != lb.Sim().Trace.Hash() {
		t.Fatalf("the sandbox run differs: now %s vs %s, log %v", sb.Now(), lb.Now(), sb.Log())
	}
	if len(sb.Lesson.Goals) != 0 || sb.Length() != 3*time.Minute || sb.Lesson.Title != "Sandbox: "+l.Title {
		t.Fatalf("sandbox lesson: %+v", sb.Lesson)
	}
	if len(l.Goals) == 0 {
		t.Fatal("opening in the sandbox changed the lesson itself")
	}
}
