package game

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"

	"leaselab/game/ui"
)

// Every key the table names is a key Ebitengine knows, and each letter
// gives one intent only.
func TestTheKeymapIsTheIntentTable(t *testing.T) {
	seen := map[ebiten.Key]ui.Intent{}
	for _, b := range keymap {
		if other, ok := seen[b.key]; ok {
			t.Errorf("%s gives both %s and %s", b.key, other, b.intent)
		}
		seen[b.key] = b.intent
	}
	assert.Equal(t, ui.IntentPauseProc, seen[ebiten.KeyZ])
	assert.Equal(t, ui.IntentHelp, seen[ebiten.KeyF1])
	assert.Equal(t, ui.IntentPlayPause, seen[ebiten.KeySpace], "Space is always play/pause")
	assert.Equal(t, ui.IntentActivate, seen[ebiten.KeyEnter], "Enter presses the focused widget")
}
