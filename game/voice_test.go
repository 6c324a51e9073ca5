package game

import (
	"leaselab/game/lesson"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestTheDesktopVoiceSaysWhatThePageWould: a new screen is said by its
// title and not what it opens with; the control that takes the focus by
// its label; the narration's new lines, a key line at once.
func TestTheDesktopVoiceSaysWhatThePageWould(t *testing.T) {
	v := NewVoice()
	controls := []Control{{ID: lesson.RecapCheckName, Label: "Check my chain"}}
	v.Hear(SceneInfo{Mirror: Mirror{Title: "Fenced writes", Narration: []string{"opened"}, NarrationKey: []bool{true}}})
	assert.Equal(t, "Fenced writes", v.Say(0), "the screen, not what it opens with")
	v.Hear(SceneInfo{Focus: lesson.RecapCheckName, Mirror: Mirror{Title: "Fenced writes", Controls: controls, Narration: []string{"opened"}}})
	assert.Equal(t, "Check my chain", v.Say(time.Second), "the focused control by its label")
	v.Hear(SceneInfo{Focus: lesson.RecapCheckName, Mirror: Mirror{Title: "Fenced writes", Controls: controls,
		Narration: []string{"opened", "Recap: Your chain of events: right."}, NarrationKey: []bool{true, true}}})
	assert.Equal(t, "Recap: Your chain of events: right.", v.Say(3*time.Second), "a new key line")
	assert.Empty(t, v.Say(4*time.Second), "each said once")
}
