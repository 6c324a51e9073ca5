package lab

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/mermaid"
	"leaselab/core/sandbox"
	"leaselab/lessons"
)

// SandboxControls are every control the player offers: free play allows
// them all.
var SandboxControls = []lessons.Control{
	lessons.CtlPause, lessons.CtlCrash, lessons.CtlPartition, lessons.CtlExpire, lessons.CtlFencing,
	lessons.CtlWrite, lessons.CtlSetTTL, lessons.CtlIdem, lessons.CtlDelay, lessons.CtlClockJump,
}

// SandboxPauseFor is how long the player's pause button freezes a process
// in the sandbox.
const SandboxPauseFor = 20 * time.Second

// SandboxLesson wraps a sandbox configuration as a lesson without goals,
// so the lab and the player run it like any lesson: its World writes the
// configured world (the seed passed to World replaces the config's).
func SandboxLesson(title string, cfg sandbox.Config) (*lessons.Lesson, error) {
	if errs := cfg.Validate(); len(errs) > 0 {
		_, err := cfg.Build()
		return nil, err
	}
	return &lessons.Lesson{
		ID:    "sandbox",
		Title: title,
		World: func(seed uint64, _ lessons.Knobs) (core.World, error) {
			c := cfg
			c.Seed = seed
			return c.World()
		},
		Duration: cfg.Duration,
		Controls: SandboxControls,
		PauseFor: SandboxPauseFor,
	}, nil
}

// NewSandbox starts a sandbox run of cfg at time zero.
func NewSandbox(title string, cfg sandbox.Config) (*Lab, error) {
	l, err := SandboxLesson(title, cfg)
	if err != nil {
		return nil, err
	}
	return New(l, cfg.Seed)
}

// LessonSandbox is lesson l opened in the sandbox: its own world, script
// and knobs, with no goals, every control, and twice the lesson's length
// (at least three minutes): room to play on past the lesson's story
// without squeezing it into the start of the timeline.
func LessonSandbox(l *lessons.Lesson) *lessons.Lesson {
	c := *l
	c.ID = "sandbox:" + l.ID
	c.Title = "Sandbox: " + l.Title
	c.Goals, c.Hints, c.Solution, c.SolutionKnobs = nil, nil, nil, nil
	c.Controls = SandboxControls
	c.Duration = min(max(2*l.Duration, 3*time.Minute), time.Hour)
	if c.PauseFor == 0 {
		c.PauseFor = SandboxPauseFor
	}
	return &c
}

// OpenInSandbox carries a lesson run over into the sandbox: the same
// seed, knobs and learner's log, with the play head where it was.
func (lb *Lab) OpenInSandbox() (*Lab, error) {
	nl, err := New(LessonSandbox(lb.Lesson), lb.Seed)
	if err != nil {
		return nil, err
	}
	if err := nl.Resume(lb.Knobs(), lb.Log()); err != nil {
		return nil, err
	}
	nl.Seek(lb.Now())
	return nl, nil
}

// Statuses are the invariants at the play head: which hold, and when
// each first broke. They are computed once per play-head position.
func (lb *Lab) Statuses() []core.InvariantStatus {
	if lb.stGen != lb.gen || lb.stLen != lb.world.Sim.Trace.Len() || lb.stAt != lb.Now() || lb.st == nil {
		lb.st = lb.world.Sim.Statuses(lb.Now())
		lb.stGen, lb.stLen, lb.stAt = lb.gen, lb.world.Sim.Trace.Len(), lb.Now()
	}
	return lb.st
}

// ExportJSONL is the run so far as JSON Lines, one trace event a line
// (the whole run at time zero: see ExportNote).
func (lb *Lab) ExportJSONL() []byte {
	var b bytes.Buffer
	tr, _ := lb.exportTrace()
	tr.WriteJSONL(&b)
	return b.Bytes()
}

// ExportMermaid is the run so far as a Mermaid sequence diagram (the
// whole run at time zero: see ExportNote).
func (lb *Lab) ExportMermaid() []byte {
	var b bytes.Buffer
	tr, until := lb.exportTrace()
	mermaid.Write(&b, tr, until)
	return b.Bytes()
}

// exportTrace is what an export holds: the trace up to the play head,
// or, with the play head at time zero (where nothing has happened yet
// and an export would hold only the setup), the whole run to its end.
func (lb *Lab) exportTrace() (*core.Trace, time.Duration) {
	if lb.Now() > 0 {
		return lb.world.Sim.Trace, lb.Now()
	}
	end := lb.world.Sim.Clone()
	end.RunUntil(lb.Length())
	return end.Trace, lb.Length()
}

// ExportNote says what an export holds when that is not the run so far:
// at time zero, the whole run ("" otherwise).
func (lb *Lab) ExportNote() string {
	if lb.Now() > 0 {
		return ""
	}
	return "The play head is at 0 s, where nothing has happened yet, so this is the whole run, to t = " + core.Seconds(lb.Length()) + "."
}

// ExportName is a file name for an export of this run: the lesson id,
// the seed and the play head, e.g. "sandbox-seed1-t42.5s.jsonl".
func (lb *Lab) ExportName(ext string) string {
	id := strings.Map(func(r rune) rune {
		if strings.ContainsRune(":/ ", r) {
			return '-'
		}
		return r
	}, lb.Lesson.ID)
	_, until := lb.exportTrace()
	return fmt.Sprintf("leaselab-%s-seed%d-t%s.%s", id, lb.Seed, core.FormatTime(until), ext)
}
