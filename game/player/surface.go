package player

import (
	"leaselab/game/draw"
	"leaselab/game/ui"
)

// What the scenes that hold a Player use of it beyond a Scene's methods.

// SetPlaying starts or stops playback.
func (p *Player) SetPlaying(on bool) { p.setPlaying(on) }

// Use does what the page's control h.ID does (see use).
func (p *Player) Use(h ui.HostAction) bool { return p.use(h) }

// ClockText is the play head's time as the clock shows it.
func (p *Player) ClockText() string { return p.clockText() }

// HintsSeen is how many hints the learner has revealed.
func (p *Player) HintsSeen() int { return p.hintsSeen }

// NoticeLeft is how many more ticks the notice stays shown.
func (p *Player) NoticeLeft() int { return p.noticeLeft }

// Narration is the story so far, which the scene tells on.
func (p *Player) Narration() *Narration { return p.narration }

// Placed is the player as last laid out.
func (p *Player) Placed() ui.PlayerLayout { return p.layout }

// Style is the style the player was last laid out with.
func (p *Player) Style() draw.Style { return p.style }

// TextGutter is the lesson text's scroll bar's width.
func (p *Player) TextGutter() float64 { return p.text.Gutter }

// Ring is the player's focus ring.
func (p *Player) Ring() *ui.FocusRing { return p.ring }

// GoalRow is where goal i was last laid out.
func (p *Player) GoalRow(i int) ui.Rect { return p.goalRow(i) }

// RunButtonRects are where the run row's buttons were last laid out
// (empty for one not shown).
func (p *Player) RunButtonRects() []ui.Rect {
	if p.run == nil {
		return nil
	}
	out := make([]ui.Rect, len(p.run.buttons))
	for i := range p.run.buttons {
		out[i] = p.run.buttons[i].Rect
	}
	return out
}
