package player

import "leaselab/game/ui"

// What the scenes' tests read of a Player as last laid out: a scene holds
// its player, and its tests check what the player shows.

// Declared declares the player's controls anew and returns them.
func (p *Player) Declared() ui.Controls {
	p.declare()
	return p.decls
}

// Widgets are the scene's own widgets the player shows (PlayerSpec.Widgets).
func (p *Player) Widgets() []Widget { return p.spec.Widgets }

// WidgetNames names each widget on the focus ring.
func (p *Player) WidgetNames() map[ui.Focusable]string { return p.names }

// Noticed is the notice shown over the world ("" for none).
func (p *Player) Noticed() string { return p.notice }

// HelpShown reports the keys' help open.
func (p *Player) HelpShown() bool { return p.showHelp }

// GoalRows are where the goals were last laid out.
func (p *Player) GoalRows() []ui.Rect { return p.goalRows }

// TextPanel is the lesson panel's text.
func (p *Player) TextPanel() *ui.TextPanel { return &p.text }

// SetHintsSeen reveals the first n hints without a word, as a restored
// run has them.
func (p *Player) SetHintsSeen(n int) { p.hintsSeen = n }

// CardRow is one row of an open card (a prediction's or Why?'s) as laid
// out: the page's control it uses ("" for none), where, and its words.
type CardRow struct {
	ID    string
	Rect  ui.Rect
	Lines []string
}

// PredictRows are the open prediction card's rows (none when closed).
func (p *Player) PredictRows() []CardRow {
	if p.predict == nil {
		return nil
	}
	var out []CardRow
	for _, r := range p.predict.rows {
		out = append(out, CardRow{ID: r.id, Rect: r.r, Lines: r.lines})
	}
	return out
}

// WhyRows are the open Why? card's rows (none when closed).
func (p *Player) WhyRows() []CardRow {
	if p.why == nil {
		return nil
	}
	var out []CardRow
	for _, r := range p.why.rows {
		out = append(out, CardRow{ID: r.id, Rect: r.r, Lines: r.lines})
	}
	return out
}
