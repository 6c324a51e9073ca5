package draw

import (
	"strings"

	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/ui"
)

// Panel fills a region's background with a hairline border.
func (s Style) Panel(dst *ebiten.Image, r ui.Rect) {
	FillRoundRect(dst, r, s.U(8), s.Theme.Panel)
	StrokeRoundRect(dst, r, s.U(8), s.px(1), s.Theme.Border)
}

// Card draws a raised box with a border: an actor in the world (the
// coordinator, a store, a queue).
func (s Style) Card(dst *ebiten.Image, r ui.Rect) {
	FillRoundRect(dst, r, s.U(8), s.Theme.Raised)
	StrokeRoundRect(dst, r, s.U(8), s.U(1), s.Theme.Border)
}

// FocusRing draws the keyboard focus indicator just outside r.
func (s Style) FocusRing(dst *ebiten.Image, r ui.Rect, radius float64) {
	w := s.px(2)
	StrokeRoundRect(dst, r.Inset(-w-s.px(1)), radius+w, w, s.Theme.Focus)
	ring = r
}

// Button draws b: raised when idle, lighter under the pointer, sunk and
// tinted while held, flat with dim text when disabled, and ringed when it
// has visible keyboard focus.
func (s Style) Button(dst *ebiten.Image, b *ui.Button) {
	th := s.Theme
	bg, fg := th.Raised, th.Text
	switch {
	case b.Disabled:
		bg, fg = th.Panel, th.Disabled
	case b.Pressed():
		bg = th.Pressed
	case b.Hovered():
		bg = th.RaisedHover
	}
	r := b.Rect
	if b.Pressed() {
		r = r.Inset(s.px(1))
	}
	radius := s.U(6)
	FillRoundRect(dst, r, radius, bg)
	StrokeRoundRect(dst, r, radius, s.px(1), th.Border)
	if b.Focus() == ui.FocusVisible {
		s.FocusRing(dst, b.Rect, radius)
	}
	content := r.InsetXY(s.U(10), s.U(4))
	if b.Icon != ui.IconNone {
		side := math.Min(content.H, s.U(22))
		iconBox := ui.Rect{X: content.X, Y: content.Y + (content.H-side)/2, W: side, H: side}
		if b.Label == "" {
			iconBox.X = content.X + (content.W-side)/2
		}
		s.Icon(dst, b.Icon, iconBox, fg)
		if b.Label == "" {
			return
		}
		_, content = content.CutLeft(side, s.U(8))
		TextIn(dst, b.Label, s.Label(), content, AlignStart, fg)
		return
	}
	TextIn(dst, b.Label, s.Label(), content, AlignCenter, fg)
}

// Icon draws a button icon filling box.
func (s Style) Icon(dst *ebiten.Image, icon ui.Icon, box ui.Rect, clr color.Color) {
	c := box.Center()
	h := box.H / 2
	switch icon {
	case ui.IconPlay:
		Polygon(dst, clr, ui.Point{X: c.X - h*0.7, Y: c.Y - h}, ui.Point{X: c.X + h, Y: c.Y}, ui.Point{X: c.X - h*0.7, Y: c.Y + h})
	case ui.IconPause:
		w := h * 0.55
		FillRect(dst, ui.Rect{X: c.X - h*0.8, Y: c.Y - h, W: w, H: 2 * h}, clr)
		FillRect(dst, ui.Rect{X: c.X + h*0.8 - w, Y: c.Y - h, W: w, H: 2 * h}, clr)
	case ui.IconStep:
		Polygon(dst, clr, ui.Point{X: c.X - h, Y: c.Y - h}, ui.Point{X: c.X + h*0.45, Y: c.Y}, ui.Point{X: c.X - h, Y: c.Y + h})
		FillRect(dst, ui.Rect{X: c.X + h*0.5, Y: c.Y - h, W: h * 0.45, H: 2 * h}, clr)
	case ui.IconFork:
		w := s.px(2)
		root, mid := ui.Point{X: c.X - h, Y: c.Y}, ui.Point{X: c.X - h*0.1, Y: c.Y}
		Line(dst, root, mid, w, clr)
		Line(dst, mid, ui.Point{X: c.X + h, Y: c.Y - h*0.8}, w, clr)
		Line(dst, mid, ui.Point{X: c.X + h, Y: c.Y + h*0.8}, w, clr)
		FillCircle(dst, root, w*1.3, clr)
	case ui.IconHint:
		// A light bulb: a circle over a short base.
		StrokeCircle(dst, ui.Point{X: c.X, Y: c.Y - h*0.25}, h*0.6, s.px(2), clr)
		FillRect(dst, ui.Rect{X: c.X - h*0.3, Y: c.Y + h*0.5, W: h * 0.6, H: h * 0.35}, clr)
	}
}

// Toggle draws t as a switch: the knob sits right and the track is filled
// when on, and the knob carries a ✓, so on/off never rests on colour alone.
func (s Style) Toggle(dst *ebiten.Image, t *ui.Toggle) {
	th := s.Theme
	trackW, trackH := s.U(40), s.U(22)
	track := ui.Rect{X: t.Rect.X, Y: t.Rect.Y + (t.Rect.H-trackH)/2, W: trackW, H: trackH}
	fill, knobClr, fg := th.Raised, th.TextDim, th.Text
	if t.On {
		fill, knobClr = th.Accent, th.Text
	}
	if t.Disabled {
		fill, knobClr, fg = th.Panel, th.Disabled, th.Disabled
	} else if t.Hovered() {
		StrokeRoundRect(dst, track.Inset(-s.px(2)), trackH/2+s.px(2), s.px(1), th.Border)
	}
	FillRoundRect(dst, track, trackH/2, fill)
	StrokeRoundRect(dst, track, trackH/2, s.px(1), th.Border)
	r := trackH/2 - s.px(3)
	knob := ui.Point{X: track.X + trackH/2, Y: track.Y + trackH/2}
	if t.On {
		knob.X = track.MaxX() - trackH/2
	}
	FillCircle(dst, knob, r, knobClr)
	if t.On {
		CheckMark(dst, knob, r*1.4, s.px(2), th.Accent)
	}
	if t.Focus() == ui.FocusVisible {
		s.FocusRing(dst, track, trackH/2)
	}
	label := t.Rect
	_, label = label.CutLeft(trackW, s.U(10))
	TextIn(dst, t.Label, s.Label(), label, AlignStart, fg)
}

// Slider draws sl: a track filled up to the thumb, tick marks for up to 20
// steps, and a round thumb that grows under the pointer or while dragged.
func (s Style) Slider(dst *ebiten.Image, sl *ui.Slider) {
	th := s.Theme
	x0, x1, y := sl.Track()
	w := s.px(4)
	fill, thumbClr := th.Accent, th.Text
	if sl.Disabled {
		fill, thumbClr = th.Disabled, th.Disabled
	}
	Line(dst, ui.Point{X: x0, Y: y}, ui.Point{X: x1, Y: y}, w, th.Raised)
	t := sl.Thumb()
	if t.X > x0 {
		Line(dst, ui.Point{X: x0, Y: y}, ui.Point{X: t.X, Y: y}, w, fill)
	}
	if sl.Step > 0 && sl.Max > sl.Min {
		if n := (sl.Max - sl.Min) / sl.Step; n <= 20 {
			for i := 0.0; i <= n+1e-9; i++ {
				x := x0 + (x1-x0)*i/n
				FillCircle(dst, ui.Point{X: x, Y: y + s.U(9)}, s.U(1.5), th.TextDim)
			}
		}
	}
	r := sl.ThumbRadius() * 0.8
	if !sl.Disabled && (sl.Hovered() || sl.Dragging()) {
		r = sl.ThumbRadius()
	}
	FillCircle(dst, t, r, thumbClr)
	StrokeCircle(dst, t, r, s.px(1), th.Border)
	if sl.Focus() == ui.FocusVisible {
		StrokeCircle(dst, t, sl.ThumbRadius()+s.px(3), s.px(2), th.Focus)
	}
}

// TextPanel draws the visible lines of p in face, clipped to its Rect, and a
// scroll bar in its gutter when the text does not fit. The panel's measure
// must be Measure(face) with line height LineHeight(face).
func (s Style) TextPanel(dst *ebiten.Image, p *ui.TextPanel, face *Face) {
	th := s.Theme
	clip := dst.SubImage(pixelRect(p.Rect.Intersect(rectOf(dst)))).(*ebiten.Image)
	lines := p.Lines()
	first, last := p.Visible()
	top := halfLeading(face)
	InScroller(func() {
		for i := first; i < last; i++ {
			Text(clip, lines[i], face, p.Rect.X, p.LineY(i)+top, th.Text)
		}
	})
	if bar, ok := p.ScrollBar(); ok {
		track := ui.Rect{X: bar.X + bar.W/2 - s.U(1), Y: p.Rect.Y, W: s.U(2), H: p.Rect.H}
		FillRect(dst, track, th.Border)
		FillRoundRect(dst, bar.InsetXY(bar.W*0.2, 0), bar.W*0.3, th.TextDim)
	}
	if p.Focus() == ui.FocusVisible {
		s.FocusRing(dst, p.Rect, s.U(4))
	}
}

// Tooltip draws tip if it is visible, inside window: on one line if it
// fits in tooltipWidth units, wrapped to that width otherwise.
func (s Style) Tooltip(dst *ebiten.Image, tip *ui.Tooltip, window ui.Rect) {
	if !tip.Visible() {
		return
	}
	face := s.Small()
	pad := s.U(8)
	maxW := math.Min(s.U(tooltipWidth), window.W) - 2*pad
	lines := Wrap(tip.Text, maxW, face)
	w := 0.0
	for _, l := range lines {
		w = math.Max(w, Measure(face)(l))
	}
	lh := LineHeight(face)
	r := tip.Place(w+2*pad, float64(len(lines))*lh+pad, s.U(6), window)
	FillRoundRect(dst, r, s.U(5), s.Theme.Raised)
	StrokeRoundRect(dst, r, s.U(5), s.px(1), s.Theme.Focus)
	Paragraph(dst, tip.Text, face, r.InsetXY(pad, pad/2), s.Theme.Text)
}

// tooltipWidth is the widest a tooltip grows, in units, before it wraps.
const tooltipWidth = 460

// Goal is one line of a goal checklist.
type Goal struct {
	Text string `json:"text"`
	Met  bool   `json:"met"`
	// Note says when it was met and what the play head shows ("met at
	// 24.0 s"), drawn before the text; Later marks a goal met after the
	// play head, whose ✓ is drawn hollow until the play head gets there.
	Note  string `json:"note,omitempty"`
	Later bool   `json:"later,omitempty"`
}

// Line is the goal as its row says it: its note, then its text.
func (g Goal) Line() string {
	if g.Note == "" {
		return g.Text
	}
	return g.Note + ": " + g.Text
}

// Checklist draws a heading in header and one goal per row: a box that is
// empty while the goal is open and holds a ✓ once it is met (hollow while
// the play head is before the moment), with the text's colour changing
// too. The goal's note leads its text in the note's colour. Goal text
// wraps, every goal in one face (the small one if the body face needs
// more than a line for any); rows ChecklistRowHeights tall show it whole.
func (s Style) Checklist(dst *ebiten.Image, heading string, header ui.Rect, rows []ui.Rect, goals []Goal) {
	th := s.Theme
	TextIn(dst, heading, s.Label(), header, AlignStart, th.TextDim)
	var face *Face
	if len(rows) > 0 {
		texts := make([]string, len(goals))
		for i, g := range goals {
			texts[i] = g.Line()
		}
		face = s.checklistFace(texts, rows[0].W-s.U(18)-s.U(10))
	}
	for i, g := range goals {
		if i >= len(rows) {
			break
		}
		row := rows[i]
		side := math.Min(row.H-s.U(8), s.U(18))
		box := ui.Rect{X: row.X, Y: row.Y + s.U(4), W: side, H: side}
		fg, noteClr := th.Text, th.TextDim
		switch {
		case g.Met && g.Later:
			StrokeRoundRect(dst, box, s.U(3), s.px(2), th.Accept)
			CheckMark(dst, box.Center(), side*0.8, s.px(2.5), th.Accept)
			noteClr = th.Warning
		case g.Met:
			FillRoundRect(dst, box, s.U(3), th.Accept)
			CheckMark(dst, box.Center(), side*0.8, s.px(2.5), th.Background)
			fg = th.Accept
		default:
			StrokeRoundRect(dst, box, s.U(3), s.px(2), th.TextDim)
		}
		_, label := row.CutLeft(side, s.U(10))
		text, note := g.Line(), ""
		if g.Note != "" {
			note = g.Note + ":"
		}
		lines := Wrap(text, label.W, face)
		lh := LineHeight(face)
		if float64(len(lines))*lh > label.H+0.5 {
			// Rows too short for the goal (ChecklistRowHeights say how
			// tall they should be): as many lines as fit, the whole on
			// hover.
			ParagraphTip(dst, text, face, label, fg)
			continue
		}
		for k, line := range lines {
			r := ui.Rect{X: label.X, Y: label.Y + float64(k)*lh, W: label.W, H: lh}
			if k == 0 && note != "" && strings.HasPrefix(line, note) {
				TextIn(dst, note, face, r, AlignStart, noteClr)
				_, r = r.CutLeft(Measure(face)(note+" "), 0)
				line = strings.TrimPrefix(line[len(note):], " ")
			}
			TextIn(dst, line, face, r, AlignStart, fg)
		}
	}
}

// ChecklistRowHeights are the heights Checklist rows w wide need to show
// texts whole, in the one face the list is drawn in, each at least minH.
func (s Style) ChecklistRowHeights(texts []string, w, minH float64) []float64 {
	tw := w - s.U(18) - s.U(10)
	face := s.checklistFace(texts, tw)
	out := make([]float64, len(texts))
	for i, text := range texts {
		out[i] = math.Max(minH, math.Ceil(float64(len(Wrap(text, tw, face)))*LineHeight(face)))
	}
	return out
}

// checklistFace is the one face a checklist's texts are drawn in, w wide:
// the body face if every text fits a line in it, else the small one (a
// list of goals in two sizes read as two kinds of goal).
func (s Style) checklistFace(texts []string, w float64) *Face {
	for _, text := range texts {
		if len(Wrap(text, w, s.Body())) > 1 {
			return s.Small()
		}
	}
	return s.Body()
}

// Verdict draws a store's answer to a write at c: a ✓ on a green disc when
// accepted, a ✗ on a red disc when rejected.
func (s Style) Verdict(dst *ebiten.Image, c ui.Point, size float64, accepted bool) {
	clr := s.Theme.Reject
	if accepted {
		clr = s.Theme.Accept
	}
	FillCircle(dst, c, size/2, clr)
	if accepted {
		CheckMark(dst, c, size*0.7, s.px(2.5), s.Theme.Background)
	} else {
		CrossMark(dst, c, size*0.8, s.px(2.5), s.Theme.Background)
	}
}

// Danger draws the mark of something accepted that should not have been
// (a stale write taken, a job run twice): a warning disc with an
// exclamation mark, never the green tick of a sound decision.
func (s Style) Danger(dst *ebiten.Image, c ui.Point, size float64) {
	FillCircle(dst, c, size/2, s.Theme.Warning)
	w := s.px(2.5)
	Line(dst, ui.Point{X: c.X, Y: c.Y - size*0.28}, ui.Point{X: c.X, Y: c.Y + size*0.06}, w, s.Theme.Background)
	FillCircle(dst, ui.Point{X: c.X, Y: c.Y + size*0.24}, w*0.7, s.Theme.Background)
}

func rectOf(img *ebiten.Image) ui.Rect {
	b := img.Bounds()
	return ui.Rect{X: float64(b.Min.X), Y: float64(b.Min.Y), W: float64(b.Dx()), H: float64(b.Dy())}
}

// pixelRect is the smallest whole-pixel rectangle covering r.
func pixelRect(r ui.Rect) image.Rectangle {
	return image.Rect(int(math.Floor(r.X)), int(math.Floor(r.Y)), int(math.Ceil(r.MaxX())), int(math.Ceil(r.MaxY())))
}
