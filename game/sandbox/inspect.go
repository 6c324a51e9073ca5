package sandbox

import (
	"leaselab/game/lab"
	"leaselab/game/player"
	"leaselab/game/setup"
	"leaselab/game/ui"
)

// Read-only views of the sandbox's state, for the App and the tests that
// check what it shows, and Edit, the one way to change its setup from
// outside the panel.

// Setup is the setup the panel shows. Change it with Edit.
func (sc *Scene) Setup() *setup.Setup { return sc.m }

// Edit changes the setup as change does and checks it again, as a use of
// the panel's fields does.
func (sc *Scene) Edit(change func(*setup.Setup)) {
	change(sc.m)
	sc.check()
}

// Systems is the comparison of systems on show over the setup or the
// run, or nil.
func (sc *Scene) Systems() *Systems {
	v, _ := sc.scenes.Top().(*Systems)
	return v
}

// Comparison is the runs compared, one per system, with their stories.
func (v *Systems) Comparison() *lab.SystemsComparison { return v.m }

// Player is the player the comparison is shown in.
func (v *Systems) Player() *player.Player { return v.player }

// Chips are the header's names that choose the systems shown (empty
// rectangles where the header has none).
func (v *Systems) Chips() []ui.Button { return v.chips }
