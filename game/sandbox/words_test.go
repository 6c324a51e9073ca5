package sandbox

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/ui"
)

// The setup screen draws each field's one-line help under it (where no
// problem or "not used" note is), and the verdict beside the presets in
// the system's words, counting the preset's own scripted pause.
func TestTheSetupScreenExplainsEveryField(t *testing.T) {
	r := newRig(t, "", 1280, 800)
	sb := r.sb
	r.Click("preset:kubernetes")
	s := r.Record("sandbox-help")
	text := ""
	for _, d := range s.Drawn {
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
	assert.Contains(t, r.Info().Mirror.Text, "Tail alpha: ", "the mirror lists the fields")
	assert.Contains(t, r.Info().Mirror.Text, "How heavy the tail is", "with their help")
	assert.Empty(t, s.Offenders())
}

// A break the sandbox's own script makes, with no fault added, is named
// as the setup's, not "the lesson's own script": there is no lesson.
func TestABreakInTheSandboxIsNotTheLessons(t *testing.T) {
	r := newRig(t, "", 1280, 800)
	sb := r.sb
	r.Click("preset:kubernetes") // fencing off, A frozen for 20 s at 60 s
	r.Click("start")
	require.NotNil(t, sb.Run)
	require.NotNil(t, sb.Run.Finder())
	r.search(sb.Run.Finder())
	status := sb.Run.Finder().Status()
	require.True(t, strings.HasPrefix(status, "Break: "), status)
	assert.NotContains(t, status, "lesson")
	assert.NotContains(t, strings.Join(r.Info().Mirror.Narration, "\n"), "the lesson's own script")
}

// The policy verdict's tick or cross stands beside its word ("Policy OK:",
// "Policy not OK:") on the verdict's first line, whether the explanation
// takes one line (redlock's at 1024x640) or two (the first setup's, the
// leases preset): centred on the
// verdict's box, it hung below a one-line verdict.
func TestTheSandboxVerdictMarkStandsBesideItsWord(t *testing.T) {
	for _, preset := range []string{"redlock", ""} {
		r := newRig(t, preset, 1024, 640)
		shot := r.Record("sandbox-setup-" + preset)
		word := verdictWord(r.sb.m.Config.PolicyVerdict().OK)
		var ink ui.Rect
		for _, d := range shot.Drawn {
			if d.Text == word {
				ink = d.Ink
			}
		}
		require.NotZero(t, ink.H, "%s: the verdict's word %q is drawn", preset, word)
		mark := r.sb.verdictMark()
		assert.True(t, mark.Y >= ink.Y && mark.Y <= ink.Y+ink.H,
			"%s: the mark's centre (y = %.0f) is level with %q (y %.0f to %.0f)", preset, mark.Y, word, ink.Y, ink.Y+ink.H)
	}
}
