package game

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The setup screen draws each field's one-line help under it (where no
// problem or "not used" note is), and the verdict beside the presets in
// the system's words, counting the preset's own scripted pause.
func TestTheSetupScreenExplainsEveryField(t *testing.T) {
	r := newAppRig(t)
	r.click("sandbox")
	sb := r.a.top().(*SandboxScene)
	r.click("preset:kubernetes")
	s := r.record("sandbox-help")
	text := ""
	for _, d := range s.drawn {
		text += d.Full + "\n"
	}
	shown := 0
	for _, f := range sb.m.Fields {
		if sb.m.NotUsed(f) == "" && f.Err == "" {
			first := strings.Fields(f.Help)[0] + " " + strings.Fields(f.Help)[1]
			assert.Contains(t, text, first, "%s's help is drawn", f.Label)
			shown++
		}
	}
	assert.Positive(t, shown)
	// The verdict wraps: read its words across the lines they fall on.
	words := strings.Join(strings.Fields(text), " ")
	assert.Contains(t, words, "another candidate will take the Lease", "the verdict in Kubernetes' words")
	assert.NotContains(t, text, "even after the worst pause", "the preset's own 20 s pause breaks it")
	assert.Contains(t, r.a.Inspect().Mirror.Text, "Tail alpha: ", "the mirror lists the fields")
	assert.Contains(t, r.a.Inspect().Mirror.Text, "How heavy the tail is", "with their help")
	assert.Empty(t, s.offenders())
}

// A break the sandbox's own script makes, with no fault added, is named
// as the setup's, not "the lesson's own script": there is no lesson.
func TestABreakInTheSandboxIsNotTheLessons(t *testing.T) {
	r := newAppRig(t)
	r.click("sandbox")
	sb := r.a.top().(*SandboxScene)
	r.click("preset:kubernetes") // fencing off, A frozen for 20 s at 60 s
	r.click("start")
	require.NotNil(t, sb.Run)
	require.NotNil(t, sb.Run.finder)
	searchRun(t, r, sb.Run.finder)
	status := sb.Run.finder.m.Status
	require.True(t, strings.HasPrefix(status, "Break: "), status)
	assert.NotContains(t, status, "lesson")
	assert.NotContains(t, strings.Join(r.a.Inspect().Mirror.Narration, "\n"), "the lesson's own script")
}
