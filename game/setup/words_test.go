package setup

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// The setup's one-line summary speaks the chosen system's words: its own
// recipe and token, not etcd's "etcd recipe, generation tokens".
func TestTheSummarySpeaksTheSystemsWords(t *testing.T) {
	c := sandbox.Default()
	assert.Contains(t, Summary(c), "etcd: 3 processes (A, B, C) on one lock, etcd recipe, generation tokens")
	for _, tc := range []struct {
		system core.System
		want   []string
	}{
		{core.SystemZooKeeper, []string{"ZooKeeper: ", "ZooKeeper's lock recipe", "czxid as the token"}},
		{core.SystemConsul, []string{"Consul: ", "one key per lock", "LockIndex as the token"}},
		{core.SystemKubernetes, []string{"Kubernetes: ", "a Lease object every candidate polls", "leaseTransitions as the token"}},
		{core.SystemRedlock, []string{"Redlock: ", "SET NX on every Redis node", "no fencing token"}},
	} {
		sum := Summary(c.OnSystem(tc.system))
		for _, w := range tc.want {
			assert.Contains(t, sum, w, tc.system.Title())
		}
		assert.NotContains(t, sum, "etcd recipe", tc.system.Title())
		assert.NotContains(t, sum, "generation tokens", tc.system.Title())
	}
}

// Every setup field has a one-line help of its own.
func TestEveryFieldHasAOneLineHelp(t *testing.T) {
	s := New()
	seen := map[string]string{}
	for _, f := range s.Fields {
		require.NotEmpty(t, f.Help, "%s (%s) has no help", f.Label, f.Name)
		assert.NotContains(t, f.Help, "\n", f.Name)
		assert.LessOrEqual(t, len(f.Help), 110, "%s: one line, not a paragraph", f.Name)
		assert.Empty(t, seen[f.Help], "%s says what %s says", f.Name, seen[f.Help])
		seen[f.Help] = f.Name
	}
	for _, name := range []string{"pause_alpha", "token_source", "lock_delay"} {
		assert.NotEmpty(t, field(t, s, name).Help, "the issue's examples: Tail alpha, Tokens, Lock-delay")
	}
	assert.Len(t, fieldHelp, len(s.Fields), "no help for a field that does not exist")
}

// Every field has a short help too, for a cell too narrow for the whole
// (issue 29: the setup's help was cut with an ellipsis at 1024x640): a
// phrase of its own, shorter than the whole, that ends as a sentence.
func TestEveryFieldHasAShortHelpForNarrowCells(t *testing.T) {
	s := New()
	for _, f := range s.Fields {
		require.NotEmpty(t, f.Short, "%s (%s) has no short help", f.Label, f.Name)
		assert.LessOrEqual(t, len(f.Short), 27, "%s: a few words", f.Name)
		assert.LessOrEqual(t, len(f.Short), len(f.Help), f.Name)
		assert.True(t, strings.HasSuffix(f.Short, "."), "%s: %q is a whole phrase", f.Name, f.Short)
	}
	assert.Len(t, fieldShort, len(s.Fields), "no short help for a field that does not exist")
	require.NoError(t, s.UsePreset("redlock"))
	for _, f := range s.Fields {
		if s.NotUsed(f) == "" {
			assert.Empty(t, s.NotUsedShort(f), f.Name)
			continue
		}
		assert.LessOrEqual(t, len(s.NotUsedShort(f)), 27, "%s: %q", f.Name, s.NotUsedShort(f))
	}
}

// fileName matches a repository file name in learner text.
var fileName = regexp.MustCompile(`\b[\w./-]+\.(md|go|txt|json|yaml)\b`)

// What the sandbox tells the learner names no repository file (such as
// "REFERENCE.md: client-go ..."): not the presets' sources, the intro,
// the notes under fields, the field help or the verdict, on any system.
func TestTheSandboxNamesNoRepositoryFile(t *testing.T) {
	for _, p := range sandbox.Presets() {
		s := New()
		require.NoError(t, s.UsePreset(p.Name))
		texts := append(s.Intro(), p.Source, s.Config.PolicyVerdict().Explanation)
		for _, f := range s.Fields {
			texts = append(texts, f.Label, f.Help, s.NotUsed(f))
		}
		for _, text := range texts {
			assert.False(t, fileName.MatchString(text), "%s: %q", p.Name, text)
		}
	}
	assert.True(t, fileName.MatchString("REFERENCE.md: client-go"), "the check can fail")
}
