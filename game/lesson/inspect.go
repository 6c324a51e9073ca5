package lesson

import (
	"leaselab/game/answer"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/player"
	"leaselab/game/ui"
	"leaselab/game/view"
	"leaselab/lessons"
)

// Read-only views of a lesson scene's state: for the App, which places
// and records the lesson under a comparison, and for the tests that check
// what the scene shows. Nothing here changes the scene.

// World is the world view the scene draws.
func (sc *Scene) World() *view.World { return sc.world }

// Complete reports whether every goal of the lesson has been met.
func (sc *Scene) Complete() bool { return sc.complete }

// Finder is the scene's "Find a break" search, or nil if it has none.
func (sc *Scene) Finder() *Finder { return sc.finder }

// RecapChain is the chain built for the recap question so far, in order.
func (sc *Scene) RecapChain() []int { return sc.recap.chain }

// RecapVerdict is the last check of the recap chain, or nil before one.
func (sc *Scene) RecapVerdict() *lessons.Feedback { return sc.recap.verdict }

// RecapControls are the recap's controls as the page declares them.
func (sc *Scene) RecapControls() []ui.Control { return sc.recapControls() }

// RecapShown reports whether the recap card is open on the canvas.
func (sc *Scene) RecapShown() bool { return sc.card.shown }

// RecapInvitation is the narration's line that says where the card opens.
func (sc *Scene) RecapInvitation() string { return sc.card.invitation() }

// RecapTexts are the texts laid out on the card, in content coordinates.
func (sc *Scene) RecapTexts() []answer.Text { return sc.card.geom.texts }

// RecapFooter is the card's footer line: the verdict or the chain's state.
func (sc *Scene) RecapFooter() string { return sc.card.footerText() }

// RecapStyle is the style the card was laid out in.
func (sc *Scene) RecapStyle() draw.Style { return sc.card.style }

// RecapRect is where the card is on the canvas.
func (sc *Scene) RecapRect() ui.Rect { return sc.card.card }

// RecapScroll is how far the card is scrolled, and how far it can be.
func (sc *Scene) RecapScroll() (at, end float64) { return sc.card.scroll, sc.card.maxScroll() }

// RecapButton is one of the card's event buttons: the host name it is
// declared under, its words and whether it is disabled.
type RecapButton struct {
	Name, Label string
	Disabled    bool
}

// RecapEventButtons are the card's buttons that add an event to the chain.
func (sc *Scene) RecapEventButtons() []RecapButton {
	var out []RecapButton
	for i := range sc.card.chain.Events {
		b := &sc.card.chain.Events[i]
		out = append(out, RecapButton{Name: sc.card.names[b], Label: b.Label, Disabled: b.Disabled})
	}
	return out
}

// Status is the search's last line: what it found, or why it stopped.
func (f *Finder) Status() string { return f.m.Status }

// Progress is how many schedules the search has tried, of about total.
func (f *Finder) Progress() (tried int, total float64) { return f.m.Progress() }

// Comparison is the side-by-side comparison on show, or nil.
func (f *Finder) Comparison() *Comparison { return f.compare }

// Button, Bar and CompareButton are where the search's button, its
// progress bar and the comparison's button were laid out.
func (f *Finder) Button() ui.Rect        { return f.btn.Rect }
func (f *Finder) Bar() ui.Rect           { return f.bar }
func (f *Finder) CompareButton() ui.Rect { return f.cmp.Rect }

// Lesson is the lesson scene whose run the comparison replays.
func (c *Comparison) Lesson() *Scene { return c.f.sc }

// Player is the player both runs are shown in.
func (c *Comparison) Player() *player.Player { return c.player }

// Runs are the two replays, protection off then on, with their
// timelines and verdicts.
func (c *Comparison) Runs() [2]*lab.Lab        { return c.runs }
func (c *Comparison) Lines() [2]*view.Timeline { return c.lines }
func (c *Comparison) Verdicts() [2]string      { return c.verdicts }
func (c *Comparison) Labels() [2]ui.Rect       { return c.labels }
func (c *Comparison) Header() ui.Rect          { return c.header }
func (c *Comparison) Back() ui.Button          { return c.back }
