package game

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/place"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// SharedScene is a shared answer graded again, on a screen of its own:
// whoever opens a learner's link (an instructor, the learner) sees the
// verdict the answer gets now, from scratch, whether it is the verdict
// the share holds, and what the learner's lab recorded about the model
// answer. The grading runs a frame's budget at a time, as an answer's
// check does. A share that cannot be read or graded says why, and
// nothing else changes.
type SharedScene struct {
	// Share is the share read (zero when it could not be); Ex its
	// exercise and Number its place in the curriculum (nil, 0 when not
	// known).
	Share  lessons.Share
	Ex     *lessons.Exercise
	Number int
	// problem says why the share cannot be graded ("" when it can).
	problem  string
	check    *form.Check
	verified *lessons.Verified
	// workedAt is the frame the check's last slice ran in.
	workedAt int64
	// body is the text under the verdict line.
	body string

	// OnBack returns to the menu; OnOpen opens the shared answer's
	// exercise for the one reading it to try.
	OnBack, OnOpen func()
	Now            func() time.Time

	narration  Narration
	style      draw.Style
	title      ui.Rect
	back, open ui.Button
	text       ui.TextPanel
	ring       *ui.FocusRing
	unit       float64
}

// NewSharedScene reads text (a link with #share=, its code, or a share's
// JSON) and starts grading it again.
func NewSharedScene(text string) *SharedScene {
	s := &SharedScene{Now: time.Now, back: ui.Button{Label: "< Lessons"}, ring: ui.NewFocusRing(false)}
	sh, err := lessons.ParseShare(text)
	if err == nil {
		s.Share = sh
		for i, e := range lessons.Exercises() {
			if e.ID == sh.Exercise {
				s.Ex, s.Number = e, i+1
			}
		}
		var job lessons.Job
		if job, err = sh.Start(); err == nil {
			s.check = form.NewCheck(job, func() time.Time { return s.Now() })
		}
	}
	if err != nil {
		// Said as the screen's first line when it opens.
		s.problem = "This shared answer cannot be graded: " + err.Error() +
			". A link cut short, or changed by hand, no longer reads as a share: ask for the link again, whole."
	} else {
		s.Narrate("Grading the shared answer again, from scratch…")
	}
	s.open = ui.Button{Label: "Try this exercise"}
	s.setText()
	s.ring.Set(s.focusables()...)
	return s
}

func (s *SharedScene) focusables() []ui.Focusable {
	items := []ui.Focusable{&s.back, &s.text}
	if s.Ex != nil {
		items = append(items, &s.open)
	}
	return items
}

// Narrate adds a line to the narration mirrored for screen readers.
func (s *SharedScene) Narrate(line string) { s.narration.Add(line) }

// Problem says why the share cannot be graded ("" when it can).
func (s *SharedScene) Problem() string { return s.problem }

// Verified is the share graded again, once the grading is done (nil
// before, and for a share that cannot be graded).
func (s *SharedScene) Verified() *lessons.Verified { return s.verified }

// Heading names the screen: the exercise the answer is to.
func (s *SharedScene) Heading() string {
	if s.Ex == nil {
		return "A shared answer that cannot be read"
	}
	return fmt.Sprintf("Shared answer to exercise %d: %s", s.Number, s.Ex.Title)
}

// verdictLine is the verdict in one sentence, or where the grading is.
func (s *SharedScene) verdictLine() string {
	switch {
	case s.problem != "":
		return s.problem
	case s.verified == nil:
		return fmt.Sprintf("Grading the answer again, from scratch: %.0f%% done.", 100*s.check.Progress())
	}
	v := s.verified
	now := map[bool]string{true: "it passes", false: "it does not pass"}[v.Result.Pass]
	claim := map[bool]string{true: "passed", false: "did not pass"}[s.Share.Pass]
	line := "Graded again here, from scratch: " + now + "."
	if v.Agrees {
		return line + " The share holds that verdict too (it says the answer " + claim + ")."
	}
	return line + " The share says it " + claim + ": that is not the verdict its answer gets, so the share was changed or made by another version of LeaseLab."
}

// setText writes the screen's text: the verdict, then the body (the
// record of help and the grading part by part), which the page shows
// under the verdict it keeps as the screen's first line.
func (s *SharedScene) setText() {
	var b strings.Builder
	if v := s.verified; v != nil {
		b.WriteString(v.Help())
		b.WriteString("\n\nThe grading, part by part:")
		for _, p := range v.Result.Parts {
			b.WriteString("\n\n" + form.PartText(p))
		}
		if len(v.Result.Figures) > 0 {
			b.WriteString("\n\n" + strings.Join(v.Result.Figures, "\n"))
		}
		if s.Ex != nil && s.Ex.Lab != nil {
			if a, err := s.Ex.ParseAnswer(s.Share.Answer); err == nil {
				b.WriteString("\n\n" + strings.Replace(form.RunText(a.Schedule), "Your run", "The shared run", 1))
			}
		}
	}
	s.body = b.String()
	s.text.SetText(draw.Drawable(strings.TrimSpace(s.verdictLine() + "\n\n" + s.body)))
}

// Update implements Scene.
func (s *SharedScene) Update(st *State) error {
	in := &st.Input
	s.ring.Wrap = st.WrapFocus
	var rest []ui.HostAction
	for _, h := range in.Host {
		switch h.ID {
		case "back":
			s.back.Press()
		case "open":
			s.open.Press()
		default:
			rest = append(rest, h)
		}
	}
	in.Host = rest
	if esc := s.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	if s.back.Update(in) || in.Keys.Has(ui.IntentBack) {
		if s.OnBack != nil {
			s.OnBack()
		}
		return nil
	}
	s.open.Disabled = s.Ex == nil
	if s.open.Update(in) && s.OnOpen != nil {
		s.OnOpen()
		return nil
	}
	s.text.Update(in)
	s.work(st.Frame)
	return nil
}

// work grades for this frame and takes in the verdict when done.
func (s *SharedScene) work(frame int64) {
	if s.check == nil || frame != 0 && frame == s.workedAt {
		return
	}
	s.workedAt = frame
	if !s.check.Frame() {
		s.setText()
		return
	}
	v := s.Share.Verdict(s.check.Result())
	s.check, s.verified = nil, &v
	s.setText()
	s.Narrate(s.verdictLine())
	s.ring.Set(s.focusables()...)
}

// Layout implements Scene.
func (s *SharedScene) Layout(window ui.Rect, style draw.Style) {
	s.style = style
	px := func(v float64) float64 { return math.Round(style.U(v)) }
	body := window.Inset(px(14))
	header, body := body.CutTop(px(40), px(12))
	backR, rest := header.CutLeft(px(132), px(14))
	s.back.Rect = backR.InsetXY(0, px(2))
	s.title = rest
	footer, body := body.CutBottom(px(40), px(12))
	s.open.Rect, _ = footer.CutLeft(px(190), 0)
	if s.unit != style.Unit {
		s.unit = style.Unit
		s.text.SetMeasure(draw.Measure(style.Body()), draw.LineHeight(style.Body()))
	}
	s.text.Rect = body.Inset(px(12))
	s.text.Gutter = px(12)
}

// Draw implements Scene.
func (s *SharedScene) Draw(screen *ebiten.Image) {
	st, th := s.style, s.style.Theme
	draw.Background(screen, th.Background)
	st.Button(screen, &s.back)
	face := st.Title()
	if draw.Measure(face)(s.Heading()) > s.title.W {
		face = st.Label()
	}
	draw.TextIn(screen, s.Heading(), face, s.title, draw.AlignStart, th.Text)
	st.Panel(screen, s.text.Rect.Inset(-math.Round(st.U(12))))
	st.TextPanel(screen, &s.text, st.Body())
	if s.Ex != nil {
		st.Button(screen, &s.open)
	}
}

// SharedInfo is the shared-answer screen's state for the browser bridge
// and tests.
type SharedInfo struct {
	Exercise string  `json:"exercise,omitempty"`
	Problem  string  `json:"problem,omitempty"`
	Grading  bool    `json:"grading,omitempty"`
	Progress float64 `json:"progress,omitempty"`
	// Done: graded; Pass the verdict now, Claimed the share's, Agrees
	// whether they are one; Help the record of help taken.
	Done    bool   `json:"done,omitempty"`
	Pass    bool   `json:"pass,omitempty"`
	Claimed bool   `json:"claimed,omitempty"`
	Agrees  bool   `json:"agrees,omitempty"`
	Help    string `json:"help,omitempty"`
	Verdict string `json:"verdict"`
}

// Inspect implements Inspector.
func (s *SharedScene) Inspect() SceneInfo {
	si := &SharedInfo{Problem: s.problem, Grading: s.check != nil, Claimed: s.Share.Pass, Verdict: s.verdictLine()}
	if s.Ex != nil {
		si.Exercise = s.Ex.ID
	}
	if s.check != nil {
		si.Progress = s.check.Progress()
	}
	if v := s.verified; v != nil {
		si.Done, si.Pass, si.Agrees, si.Help = true, v.Result.Pass, v.Agrees, v.Help()
	}
	info := SceneInfo{Name: "shared-answer", Page: true, Shared: si,
		Regions: map[string]ui.Rect{"back": s.back.Rect, "text": s.text.Rect}}
	controls := []Control{{ID: "back", Group: "Shared answer", Label: "Back to the lessons", Kind: KindLink}}
	if s.Ex != nil {
		info.Regions["open"] = s.open.Rect
		controls = append(controls, Control{ID: "open", Group: "Shared answer", Label: fmt.Sprintf("Try exercise %d yourself", s.Number)})
	}
	if c := s.ring.Current(); c != nil {
		info.Focus = map[ui.Focusable]string{&s.back: "back", &s.text: "text", &s.open: "open"}[c]
	}
	info.Mirror = Mirror{Title: s.Heading(), Objective: s.verdictLine(), Text: s.body,
		Narration: s.narration.Lines(), Controls: controls}
	return info
}

// OpenShare opens a shared answer (a link with #share=, its code, or a
// share's JSON) on its own screen and grades it again there. A share
// that cannot be read opens the screen with why, never anything else.
func (a *App) OpenShare(text string) *SharedScene {
	a.leave()
	sc := NewSharedScene(text)
	sc.OnBack = a.scenes.Home
	if ex := sc.Ex; ex != nil {
		sc.OnOpen = func() { a.OpenExercise(ex) }
	}
	a.show(sc)
	return sc
}

// sharedPlace is where the shared-answer screen is.
func (s *SharedScene) sharedPlace() place.Place {
	p := place.Place{Kind: place.Shared}
	if s.Ex != nil {
		p.ID = s.Ex.ID
	}
	return p
}
