package game

import (
	"fmt"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/ui"
)

// The sandbox's setup side: the panel of fields, presets and the verdict,
// before a run starts.

// Layout implements Scene.
func (ss *sandboxSetup) Layout(window ui.Rect, style draw.Style) {
	sc := (*SandboxScene)(ss)
	sc.style = style
	sc.layout(window, style)
}

// Update implements Scene.
func (ss *sandboxSetup) Update(st *State) error {
	sc := (*SandboxScene)(ss)
	in := &st.Input
	sc.ring.Wrap = st.WrapFocus
	ss.host(in)
	if esc := sc.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	if sc.back.Update(in) || in.Keys.Has(ui.IntentBack) {
		sc.onMenu()
		return nil
	}
	for i, p := range core.Presets() {
		if sc.presets[i].Update(in) {
			sc.UsePreset(p.Name)
		}
	}
	for _, f := range sc.m.Fields {
		if f.Choices != nil {
			if f.Button.Update(in) {
				sc.m.Next(f)
			}
		} else if f.Slider.Update(in) {
			sc.m.Set(f, f.Slider.Value)
		}
	}
	sc.check()
	if sc.systems.Update(in) {
		sc.CompareSystems()
	}
	if sc.start.Update(in) {
		return sc.Start()
	}
	return nil
}

// Draw implements Scene.
func (ss *sandboxSetup) Draw(screen *ebiten.Image) {
	sc := (*SandboxScene)(ss)
	s, th := sc.style, sc.style.Theme
	draw.Background(screen, th.Background)
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

	// The live policy check.
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

	draw.TextIn(screen, "Presets", s.Label(), sc.presetHead, draw.AlignStart, th.TextDim)
	for i, p := range core.Presets() {
		b := &sc.presets[i]
		s.Button(screen, b)
		if p.Name == sc.m.Preset {
			draw.StrokeRoundRect(screen, b.Rect.Inset(s.U(2)), s.U(5), s.U(2), th.Accent)
		}
	}

	for i, f := range sc.m.Fields {
		cell := sc.cells[i]
		if cell.Empty() {
			continue // hidden behind the field it shares its cell with
		}
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
}

// verdictMark is the centre of the policy verdict's tick or cross: beside
// the verdict's first line, where its word is, however many lines the
// explanation takes (centred on the verdict's box, it hung below a
// one-line verdict).
func (sc *SandboxScene) verdictMark() ui.Point {
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
func (ss *sandboxSetup) Inspect() SceneInfo {
	sc := (*SandboxScene)(ss)
	info := SceneInfo{Name: "sandbox-setup", Regions: map[string]ui.Rect{"back": sc.back.Rect, "start": sc.start.Rect, "compareSystems": sc.systems.Rect, "verdict": sc.verdict}}
	var b strings.Builder
	for i, p := range core.Presets() {
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
	info.Mirror = Mirror{Title: "LeaseLab: sandbox setup (" + sc.m.Title() + ")", Text: word + v.Explanation + "\n\n" + b.String(),
		Controls: ss.controls()}
	if len(sc.m.Errs) > 0 {
		info.Mirror.Text = fmt.Sprintf("Cannot start: %s\n\n", sc.m.Errs[0]) + info.Mirror.Text
	}
	if c := sc.ring.Current(); c != nil {
		info.Focus = sc.names[c]
	}
	return info
}
