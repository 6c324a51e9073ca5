package lessons

import (
	"leaselab/core"
	"leaselab/core/explore"
)

// Search is how the player's "Find a break" looks for a break in a
// lesson's world: the invariant, the switch that protects it, and the
// fault space. The grids are coarser than labctl's defaults so a search
// takes seconds in a browser tab.
type Search struct {
	Invariant explore.Invariant
	// Protects is the switch the invariant depends on: core.VerbFencing
	// or core.VerbIdempotency.
	Protects core.Verb
	Bounds   explore.Bounds
	// Given says what plays besides the faults the search adds, for a
	// break found with none ("": the lesson's own script).
	Given string
}

// Switch is the protecting switch's name, for sentences: "fencing".
func (s *Search) Switch() string { return string(s.Protects) }

// Sweep is a lesson's chart of one knob over its whole range: failover
// time and false failovers at every whole step, under a pause model.
type Sweep struct {
	Knob   string // the swept knob's ID (in seconds)
	Pauses PauseModel
}
