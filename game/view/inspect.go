package view

import (
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// What the scenes' tests read of a view as last laid out and drawn: a
// scene holds its views, and its tests check what they show.

// Geom is the lock world's geometry as last laid out.
func (w *World) Geom() ui.WorldGeom { return w.geom }

// ShardGeom is the shard pane's geometry as last laid out (zero without
// shard workers).
func (w *World) ShardGeom() ui.ShardGeom {
	if w.shard == nil {
		return ui.ShardGeom{}
	}
	return w.shard.geom
}

// Snapshot is the run at the play head as last laid out.
func (w *World) Snapshot() lab.WorldView { return w.view }

// Unit is the layout unit the world was last laid out with.
func (w *World) Unit() float64 { return w.unit }

// Actors are the processes then the shard workers, as drawn.
func (w *World) Actors() []lab.Actor {
	out := make([]lab.Actor, len(w.actors))
	for i, a := range w.actors {
		out[i] = a.Actor
	}
	return out
}

// Selected is the index in Actors of the selected actor, -1 for none.
func (w *World) Selected() int { return w.selected }

// Menu is the selected actor's choices while its menu is open.
func (w *World) Menu() []lab.Choice { return w.menu }

// Buttons are the open menu's items as laid out.
func (w *World) Buttons() []ui.Button { return w.buttons }

// Highlighted is the menu item the keyboard points at.
func (w *World) Highlighted() int { return w.hl }

// Choices are each actor's choices as of the last layout.
func (w *World) Choices() [][]lab.Choice { return w.choices }

// Token is the token "write with token" sends.
func (w *World) Token() int64 { return w.token }

// Later is how many of the learner's actions lie after the play head.
func (w *World) Later() int { return w.later }

// Geom is the timeline's geometry as last laid out.
func (v *Timeline) Geom() ui.TimelineGeom { return v.geom }

// Run is the timeline of the run as last laid out.
func (v *Timeline) Run() lab.Timeline { return v.tl }

// Show draws tl in g until the next layout: a timeline of the caller's
// making, for tests of how one is drawn.
func (v *Timeline) Show(tl lab.Timeline, g ui.TimelineGeom) { v.tl, v.geom = tl, g }

// DrawnLabels and DrawnTexts are where the last Draw put the marks'
// labels and what they say; DrawnMarks the marks with the spans' pills.
func (v *Timeline) DrawnLabels() []ui.Rect { return v.drawnLabels }

// DrawnTexts are the texts of DrawnLabels, in their order.
func (v *Timeline) DrawnTexts() []string { return v.drawnTexts }

// DrawnMarks are where the last Draw put the marks with the spans' pills.
func (v *Timeline) DrawnMarks() []ui.Rect { return v.drawnMarks }

// DrawnWrites are the write marks as last drawn, a run of them merged
// into one.
func (v *Timeline) DrawnWrites() []ui.Rect { return v.drawnWrites }

// DrawnHead is the play head's marker as last drawn (empty when out of
// view).
func (v *Timeline) DrawnHead() ui.Rect { return v.drawnHead }
