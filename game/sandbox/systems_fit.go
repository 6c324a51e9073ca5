package sandbox

import (
	"math"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// panes are the worlds' panes in in, each under its story storyH tall:
// both as tall as the longer story needs (at least two lines, at most
// five: a longer one shows whole on hover), so the worlds line up.
func (p *systemsPanes) panes(in ui.Rect, s draw.Style) (panes []ui.Rect, storyH float64) {
	v := (*Systems)(p)
	panes = ui.SplitPanes(in, s.Unit, 1, 1)
	if len(v.drawn()) == 1 {
		panes = []ui.Rect{in}
	}
	lines := 2
	for k, pane := range panes {
		n := len(ui.Wrap(v.m.Stories[v.drawn()[k]].Line(), pane.W-math.Round(s.U(16)), draw.Measure(s.Small())))
		lines = max(lines, min(n, 5))
	}
	return panes, math.Ceil(float64(lines)*draw.LineHeight(s.Small()) + math.Round(s.U(8)))
}

// MinHeight implements worldSizer: the height, width wide, at which each
// world shown keeps its state badges clear of its store's card under its
// story (issue 29: at 1024x640 they lay on the card's top border, while
// the timeline under them had room to spare).
func (p *systemsPanes) MinHeight(width float64, s draw.Style) float64 {
	v := (*Systems)(p)
	px := func(x float64) float64 { return math.Round(s.U(x)) }
	in := ui.Rect{W: width, H: 1e4}.Inset(px(10))
	panes, storyH := p.panes(in, s)
	need := 0.0
	for k, pane := range panes {
		need = math.Max(need, v.worlds[v.drawn()[k]].ClearHeight(pane.W, s))
	}
	return 2*px(10) + px(30) + px(8) + storyH + px(2) + need
}
