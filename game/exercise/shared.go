package exercise

import (
	"fmt"
	"leaselab/game/page"
	"leaselab/game/scene"
	"math"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/place"
	"leaselab/game/player"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// Shared is a shared answer graded again, on a screen of its own:
// whoever opens a learner's link (an instructor, the learner) sees the
// verdict the answer gets now, from scratch, whether it is the verdict
// the share holds, and what the learner's lab recorded about the model
// answer. The grading runs a frame's budget at a time, as an answer's
// check does. A share that cannot be read or graded says why, and
// nothing else changes.
type Shared struct {
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

	narration player.Narration
	style     draw.Style
	title     ui.Rect
	// deck is the screen's controls, back and open, declared once: the
	// page lists them, the canvas draws its buttons from them, and a use
	// of either passes the deck's one door.
	deck ui.Deck
	text ui.TextPanel
	ring *ui.FocusRing
	unit float64
}

// The shared-answer screen's controls' ids.
const (
	sharedBack = "back"
	sharedOpen = "open"
)

// controls declares the way back and, for a known exercise, the way to
// try it, with what each does.
func (s *Shared) controls() ui.Controls {
	out := ui.Controls{{ID: sharedBack, Group: "Shared answer", Label: "Back to the lessons", Kind: ui.KindLink,
		Do: func(ui.HostAction) {
			if s.OnBack != nil {
				s.OnBack()
			}
		}}}
	if s.Ex != nil {
		out = append(out, ui.Control{ID: sharedOpen, Group: "Shared answer", Label: fmt.Sprintf("Try exercise %d yourself", s.Number),
			Do: func(ui.HostAction) {
				if s.OnOpen != nil {
					s.OnOpen()
				}
			}})
	}
	return out
}

// declare declares the controls anew and sets the focus ring over them
// and the text when their ids change.
func (s *Shared) declare() {
	if s.deck.Declare(s.controls()) {
		items := []ui.Focusable{s.deck.Button(sharedBack), &s.text}
		if b := s.deck.Button(sharedOpen); b != nil {
			items = append(items, b)
		}
		s.ring.Set(items...)
	}
}

// NewShared reads text (a link with #share=, its code, or a share's
// JSON) and starts grading it again.
func NewShared(text string) *Shared {
	s := &Shared{Now: time.Now, ring: ui.NewFocusRing(false)}
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
	s.setText()
	s.declare()
	return s
}

// Narrate adds a line to the narration mirrored for screen readers.
func (s *Shared) Narrate(line string) { s.narration.Add(line) }

// Verified is the share graded again, once the grading is done (nil
// before, and for a share that cannot be graded).
func (s *Shared) Verified() *lessons.Verified { return s.verified }

// heading names the screen: the exercise the answer is to.
func (s *Shared) heading() string {
	if s.Ex == nil {
		return "A shared answer that cannot be read"
	}
	return fmt.Sprintf("Shared answer to exercise %d: %s", s.Number, s.Ex.Title)
}

// verdictLine is the verdict in one sentence, or where the grading is.
func (s *Shared) verdictLine() string {
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
func (s *Shared) setText() {
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

// Update implements scene.Scene: the page's uses and the canvas's clicks pass
// the deck's one door (Esc is Back), then the text scrolls and the
// grading goes on.
func (s *Shared) Update(st *scene.State) error {
	in := &st.Input
	s.ring.Wrap = st.WrapFocus
	s.declare()
	if esc := s.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	if in.Keys.Has(ui.IntentBack) {
		in.Host = append(in.Host[:len(in.Host):len(in.Host)], ui.HostAction{ID: sharedBack})
	}
	used, rest, _ := s.deck.Update(in) // neither is ever disabled
	in.Host = rest
	if used {
		return nil // it left for the menu or the exercise
	}
	s.text.Update(in)
	s.work(st.Frame)
	return nil
}

// work grades for this frame and takes in the verdict when done.
func (s *Shared) work(frame int64) {
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
}

// Layout implements scene.Scene.
func (s *Shared) Layout(window ui.Rect, style draw.Style) {
	s.style = style
	px := func(v float64) float64 { return math.Round(style.U(v)) }
	body := window.Inset(px(14))
	header, body := body.CutTop(px(40), px(12))
	// Each button as wide as its words need (the declaration's).
	fits := func(id string, least float64) float64 {
		return max(px(least), math.Ceil(draw.Measure(style.Label())(s.deck.Button(id).Label))+px(28))
	}
	backR, rest := header.CutLeft(fits(sharedBack, 132), px(14))
	s.deck.Button(sharedBack).Rect = backR.InsetXY(0, px(2))
	s.title = rest
	footer, body := body.CutBottom(px(40), px(12))
	if b := s.deck.Button(sharedOpen); b != nil {
		b.Rect, _ = footer.CutLeft(fits(sharedOpen, 190), 0)
	}
	if s.unit != style.Unit {
		s.unit = style.Unit
		s.text.SetMeasure(draw.Measure(style.Body()), draw.LineHeight(style.Body()))
	}
	s.text.Rect = body.Inset(px(12))
	s.text.Gutter = px(12)
}

// Draw implements scene.Scene.
func (s *Shared) Draw(screen *ebiten.Image) {
	st, th := s.style, s.style.Theme
	draw.Background(screen, th.Background)
	st.Button(screen, s.deck.Button(sharedBack))
	face := st.Title()
	if draw.Measure(face)(s.heading()) > s.title.W {
		face = st.Label()
	}
	draw.TextIn(screen, s.heading(), face, s.title, draw.AlignStart, th.Text)
	st.Panel(screen, s.text.Rect.Inset(-math.Round(st.U(12))))
	st.TextPanel(screen, &s.text, st.Body())
	if b := s.deck.Button(sharedOpen); b != nil {
		st.Button(screen, b)
	}
}

// Inspect implements scene.Inspector.
func (s *Shared) Inspect() page.SceneInfo {
	si := &page.SharedInfo{Problem: s.problem, Grading: s.check != nil, Claimed: s.Share.Pass, Verdict: s.verdictLine()}
	if s.Ex != nil {
		si.Exercise = s.Ex.ID
	}
	if s.check != nil {
		si.Progress = s.check.Progress()
	}
	if v := s.verified; v != nil {
		si.Done, si.Pass, si.Agrees, si.Help = true, v.Result.Pass, v.Agrees, v.Help()
	}
	info := page.SceneInfo{Name: "shared-answer", Page: true, Shared: si,
		Regions: map[string]ui.Rect{"text": s.text.Rect}}
	s.deck.Regions(info.Regions)
	if c := s.ring.Current(); c == ui.Focusable(&s.text) {
		info.Focus = "text"
	} else if c != nil {
		info.Focus = s.deck.Name(c)
	}
	info.Mirror = page.Mirror{Title: s.heading(), Objective: s.verdictLine(), Text: s.body,
		Narration: s.narration.Lines(), Controls: s.deck.Controls()}
	return info
}

// Place is where the shared-answer screen is.
func (s *Shared) Place() place.Place {
	p := place.Place{Kind: place.Shared}
	if s.Ex != nil {
		p.ID = s.Ex.ID
	}
	return p
}
