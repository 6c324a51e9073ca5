package sandbox

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	sandboxcfg "leaselab/core/sandbox"
	"leaselab/game/draw"
	"leaselab/game/page"
	"leaselab/game/scene"
	"leaselab/game/setup"
	"leaselab/game/ui"
)

// The sandbox's setup side: the panel of fields, presets and the verdict,
// before a run starts.

// Layout implements Scene.
func (ss *setupScene) Layout(window ui.Rect, style draw.Style) {
	sc := (*Scene)(ss)
	sc.style = style
	sc.layout(window, style)
}

// Update implements Scene.
func (ss *setupScene) Update(st *scene.State) error {
	sc := (*Scene)(ss)
	in := &st.Input
	sc.ring.Wrap = st.WrapFocus
	if esc := sc.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	ss.update(in)
	return sc.startErr
}

// Draw implements Scene.
func (ss *setupScene) Draw(screen *ebiten.Image) {
	sc := (*Scene)(ss)
	draw.Background(screen, sc.style.Theme.Background)
	sc.drawSetupHeader(screen)
	sc.drawPolicyVerdict(screen)
	sc.drawPresets(screen)
	for i, f := range sc.m.Fields {
		if cell := sc.cells[i]; !cell.Empty() { // else hidden behind the field it shares its cell with
			sc.drawField(screen, f, cell)
		}
	}
}

// drawSetupHeader draws the header: back, the title, Start and Compare
// systems, and beside them why Start is refused, or the setup's title.
func (sc *Scene) drawSetupHeader(screen *ebiten.Image) {
	s, th := sc.style, sc.style.Theme
	s.Button(screen, &sc.back)
	draw.TextIn(screen, "Sandbox", s.Title(), sc.title, draw.AlignStart, th.Text)
	s.Button(screen, &sc.start)
	s.Button(screen, &sc.systems)
	if sc.note != "" {
		sc.drawReason(screen, sc.note, th.Reject)
	} else if len(sc.m.Errs) > 0 {
		msg := fmt.Sprintf("Cannot start: %s", sc.m.Errs[0])
		if len(sc.m.Errs) > 1 {
			msg = fmt.Sprintf("Cannot start (%d problems): %s", len(sc.m.Errs), sc.m.Errs[0])
		}
		sc.drawReason(screen, msg, th.Reject)
	} else {
		sc.drawReason(screen, sc.m.Title(), th.TextDim)
	}
}

// drawPolicyVerdict draws the live policy check: its mark, its word and
// its explanation.
func (sc *Scene) drawPolicyVerdict(screen *ebiten.Image) {
	s, th := sc.style, sc.style.Theme
	v := sc.m.Config.PolicyVerdict()
	s.Verdict(screen, sc.verdictMark(), s.U(20), v.OK)
	word, clr := verdictWord(v.OK), th.Accept
	if !v.OK {
		clr = th.Reject
	}
	r := sc.verdict
	r.X, r.W = r.X+s.U(28), r.W-s.U(28)
	ww := draw.Measure(s.Label())(word)
	first, _ := r.CutTop(draw.LineHeight(s.Small()), 0)
	draw.TextIn(screen, word, s.Label(), first, draw.AlignStart, clr)
	r.X, r.W = r.X+ww, r.W-ww
	draw.ParagraphFirstFitTip(screen, v.Explanation, v.Shorter, s.Small(), r, th.Text)
}

// drawPresets draws the presets' column, the one in use outlined.
func (sc *Scene) drawPresets(screen *ebiten.Image) {
	s, th := sc.style, sc.style.Theme
	draw.TextIn(screen, "Presets", s.Label(), sc.presetHead, draw.AlignStart, th.TextDim)
	for i, p := range sandboxcfg.Presets() {
		b := &sc.presets[i]
		s.Button(screen, b)
		if p.Name == sc.m.Preset {
			draw.StrokeRoundRect(screen, b.Rect.Inset(s.U(2)), s.U(5), s.U(2), th.Accent)
		}
	}
}

// drawField draws field f in its cell: its name and value, its slider or
// choice button, and under them its error, why it is not used, or its
// help.
func (sc *Scene) drawField(screen *ebiten.Image, f *setup.Field, cell ui.Rect) {
	s, th := sc.style, sc.style.Theme
	head, below := cell.CutTop(s.U(20), 0)
	_, errR := below.CutTop(s.U(28), s.U(2))
	na := !f.Applies(&sc.m.Config)
	value := f.Value(&sc.m.Config)
	labelClr, valueClr := th.TextDim, th.Text
	if na {
		value, labelClr, valueClr = "not used", th.Disabled, th.Disabled
	}
	if f.Choices != nil {
		s.Button(screen, &f.Button)
		value = ""
	}
	vw := math.Min(draw.Measure(s.Mono())(value)+s.U(4), head.W*0.5)
	valR, nameR := head.CutRight(vw, s.U(6))
	// "Shards (0: one lock)" without its aside where the whole does
	// not fit.
	short, _, _ := strings.Cut(f.Label, " (")
	draw.ShortInTip(screen, f.Label, fitOr(f.Label, short, nameR.W, s.Label()), s.Label(), nameR, draw.AlignStart, labelClr)
	draw.TextIn(screen, value, s.Mono(), valR, draw.AlignEnd, valueClr)
	if f.Choices == nil {
		s.Slider(screen, &f.Slider)
	}
	if f.Err != "" {
		sc.drawUnder(screen, f.Err, "", errR, th.Reject)
	} else if why := sc.m.NotUsed(f); why != "" {
		sc.drawUnder(screen, why, sc.m.NotUsedShort(f), errR, th.TextDim)
	} else {
		sc.drawUnder(screen, f.Help, f.Short, errR, th.TextDim)
	}
}

// verdictMark is the centre of the policy verdict's tick or cross: beside
// the verdict's first line, where its word is, however many lines the
// explanation takes (centred on the verdict's box, it hung below a
// one-line verdict).
func (sc *Scene) verdictMark() ui.Point {
	s := sc.style
	return ui.Point{X: sc.verdict.X + s.U(10), Y: sc.verdict.Y + draw.LineHeight(s.Small())/2}
}

// verdictWord leads the policy verdict.
func verdictWord(ok bool) string {
	if ok {
		return "Policy OK: "
	}
	return "Policy not OK: "
}

// Inspect implements Inspector.
func (ss *setupScene) Inspect() page.SceneInfo {
	sc := (*Scene)(ss)
	info := page.SceneInfo{Name: "sandbox-setup", Page: true, Regions: map[string]ui.Rect{"back": sc.back.Rect, "start": sc.start.Rect, "compareSystems": sc.systems.Rect, "verdict": sc.verdict}}
	var b strings.Builder
	for i, p := range sandboxcfg.Presets() {
		info.Regions["preset:"+p.Name] = sc.presets[i].Rect
	}
	for _, f := range sc.m.Fields {
		info.Regions["field:"+f.Name] = f.Widget().Bounds()
		fmt.Fprintf(&b, "%s: %s", f.Label, f.Value(&sc.m.Config))
		if !f.Applies(&sc.m.Config) {
			b.WriteString(" (not used)")
			if why := sc.m.NotUsed(f); why != "" {
				b.WriteString(". " + why)
			}
		}
		if f.Err != "" {
			b.WriteString(" - problem: " + f.Err)
		}
		if f.Help != "" {
			sep := ". "
			if strings.HasSuffix(b.String(), ".") {
				sep = " "
			}
			b.WriteString(sep + f.Help)
		}
		b.WriteString("\n\n") // one paragraph per field in the HTML mirror
	}
	v := sc.m.Config.PolicyVerdict()
	word := verdictWord(v.OK)
	info.Mirror = page.Mirror{Title: "LeaseLab: sandbox setup (" + sc.m.Title() + ")", Text: word + v.Explanation + "\n\n" + b.String(),
		Controls: ss.controls()}
	if len(sc.m.Errs) > 0 {
		info.Mirror.Text = fmt.Sprintf("Cannot start: %s\n\n", sc.m.Errs[0]) + info.Mirror.Text
	}
	if c := sc.ring.Current(); c != nil {
		info.Focus = sc.names[c]
	}
	return info
}

// layout places the setup panel: a header (back, title, why Start is
// refused, Start), the policy verdict, the presets on the left and the
// fields in a grid.
func (sc *Scene) layout(window ui.Rect, s draw.Style) {
	px := func(v float64) float64 { return math.Round(s.U(v)) }
	in := window.Inset(px(12))
	// Past about 1300 units wide the fields would only drift apart.
	if w := px(1300); in.W > w {
		in.X, in.W = in.X+math.Floor((in.W-w)/2), w
	}
	header, in := in.CutTop(px(40), px(8))
	sc.back.Rect, _ = header.CutLeft(px(120), 0)
	_, rest := header.CutLeft(px(120), px(12))
	sc.start.Rect, rest = rest.CutRight(px(130), px(12))
	sc.systems.Rect, rest = rest.CutRight(px(170), px(12))
	sc.title, sc.reason = rest.CutLeft(px(110), px(12))
	// The verdict takes the lines it needs beside its mark and word, as
	// long as every field keeps a line for its note below (the rest shows
	// on hover).
	cols := 4
	if in.W-px(190)-px(12) < px(4*180) {
		cols = 3
	}
	slots := 0
	for _, f := range sc.m.Fields {
		if !f.SharesCell {
			slots++
		}
	}
	rows := float64((slots + cols - 1) / cols)
	v := sc.m.Config.PolicyVerdict()
	textW := in.W - s.U(28) - draw.Measure(s.Label())(verdictWord(v.OK))
	spare := in.H - px(44) - px(8) - rows*(px(50)+math.Ceil(draw.LineHeight(s.Small()))) - (rows-1)*px(4)
	grow := math.Min(math.Max(0, math.Ceil(draw.ParagraphHeight(v.Explanation, s.Small(), textW))-px(44)), math.Max(0, spare))
	sc.verdict, in = in.CutTop(px(44)+grow, px(8))
	col, grid := in.CutLeft(px(190), px(12))
	sc.presetHead, col = col.CutTop(px(22), px(4))
	n := float64(len(sc.presets))
	h := math.Min(px(34), math.Floor((col.H-(n-1)*px(4))/n))
	for i := range sc.presets {
		sc.presets[i].Rect, col = col.CutTop(h, px(4))
	}
	gap := px(12)
	w := math.Floor((grid.W - float64(cols-1)*gap) / float64(cols))
	cellH := math.Min(px(96), math.Floor((grid.H-(rows-1)*px(4))/rows))
	sc.cells = make([]ui.Rect, len(sc.m.Fields))
	slot := -1
	for i, f := range sc.m.Fields {
		if !f.SharesCell {
			slot++
		}
		c := ui.Rect{X: grid.X + float64(slot%cols)*(w+gap), Y: grid.Y + float64(slot/cols)*(cellH+px(4)), W: w, H: cellH}
		if sc.m.Hidden(i) {
			c = ui.Rect{} // its cell shows the field it shares it with
		}
		sc.cells[i] = c
		_, below := c.CutTop(px(20), 0)
		widget, _ := below.CutTop(px(28), 0)
		if f.Choices != nil {
			f.Button.Rect = widget
		} else {
			f.Slider.Rect = widget
		}
	}
}

// drawUnder writes msg under a field, wrapped to r. Where msg does not
// fit, short (a few words saying the same, if there are) takes its place
// on one line, with the whole of msg on hover; otherwise what does not
// fit shows on hover.
func (sc *Scene) drawUnder(screen *ebiten.Image, msg, short string, r ui.Rect, clr color.Color) {
	face := sc.style.Small()
	if short == "" || draw.ParagraphHeight(msg, face, r.W) <= r.H+0.5 {
		draw.ParagraphTip(screen, msg, face, r, clr)
		return
	}
	line, _ := r.CutTop(draw.LineHeight(face), 0)
	draw.ShortInTip(screen, msg, short, face, line, draw.AlignStart, clr)
}

// fitOr is whole if it fits width w in face, and short otherwise.
func fitOr(whole, short string, w float64, face *draw.Face) string {
	if draw.Measure(face)(whole) <= w {
		return whole
	}
	return short
}

// drawReason writes msg beside Start: one line centred on the button,
// or a paragraph from the top when it needs more.
func (sc *Scene) drawReason(screen *ebiten.Image, msg string, clr color.Color) {
	s := sc.style
	if draw.Measure(s.Small())(msg) <= sc.reason.W {
		draw.TextIn(screen, msg, s.Small(), sc.reason, draw.AlignStart, clr)
		return
	}
	draw.Paragraph(screen, msg, s.Small(), sc.reason, clr)
}
