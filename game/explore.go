package game

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// frameBudget is how much of a frame a search may use: at 60 frames a
// second that leaves a third of each frame to draw, so the page stays
// responsive.
const frameBudget = 10 * time.Millisecond

// breakFinder is the player's "Find a break" button and the search it
// runs, a slice per frame, with a progress bar in the world's caption
// row. The counterexample it finds becomes the lesson's log, ready to
// play; a clean search says what it covered.
type breakFinder struct {
	sc      *LessonScene
	spec    *lessons.Search
	btn     ui.Button
	x       *core.Explorer
	problem core.Problem
	knobs   lessons.Knobs
	status  string
	bar     ui.Rect
	clock   func() time.Time
	// cmp opens (and, in it, leaves) the side-by-side comparison.
	cmp     ui.Button
	compare *comparison
	// slicedAt is the frame (State.Frame) the last search slice ran in: a
	// slice runs once per drawn frame (every update until the first draw):
	// when drawing is slow, the game loop runs several updates per frame
	// to catch up, and a slice in each would starve the page.
	slicedAt int64
}

// addFinder puts a "Find a break" search by spec, and the comparison of
// the run with its protection off and on, into the player being built.
func (sc *LessonScene) addFinder(ps *PlayerSpec, spec *lessons.Search) {
	f := &breakFinder{sc: sc, spec: spec, btn: ui.Button{Label: "Find a break"}, clock: time.Now}
	f.cmp = ui.Button{Label: f.compareLabel()}
	sc.finder = f
	ps.Overlay = f
	ps.Widgets = append(ps.Widgets,
		Widget{"explore", &f.btn, "Search pause timings for the simplest run that breaks the store (Enter when focused)"},
		Widget{"compare", &f.cmp, f.compareTip()})
}

// cancel ends a search in progress (and the coroutine it runs on).
func (f *breakFinder) cancel() {
	if f.x != nil {
		f.x.Cancel()
		f.x = nil
		f.btn.Label = "Find a break"
	}
}

// Searching reports a search in progress.
func (f *breakFinder) Searching() bool { return f.x != nil }

// Layout implements View: the buttons and the progress bar in the
// world's caption row.
func (f *breakFinder) Layout(area ui.Rect, s draw.Style) {
	caption, _, _ := ui.WorldFrame(area, s.Unit)
	px := func(v float64) float64 { return math.Round(s.U(v)) } // crisp edges
	w := px(150)
	f.btn.Rect = ui.Rect{X: caption.X + caption.W - px(118) - w, Y: caption.Y - px(4), W: w, H: caption.H + px(8)}
	f.cmp.Rect = f.btn.Rect
	f.cmp.Rect.W = math.Round(draw.Measure(s.Label())(f.cmp.Label) + s.U(24))
	f.cmp.Rect.X = f.btn.Rect.X - px(8) - f.cmp.Rect.W
	left := caption.X + px(64)
	f.bar = ui.Rect{X: left, Y: caption.Y, W: f.cmp.Rect.X - px(12) - left, H: caption.H}
}

// Update implements View: react to the buttons, run a slice.
func (f *breakFinder) Update(st *State) error {
	if worldMenuOpen(f.sc.Player.World) {
		// A process's action menu is open and may cover these buttons:
		// it has the mouse and the keys; the search goes on.
		f.stepIfDue(st.Frame)
		return nil
	}
	if f.cmp.Update(&st.Input) && f.x == nil {
		f.openComparison(st.stack) // laid out before it is drawn
		return nil
	}
	f.cmp.Disabled = f.x != nil
	if f.btn.Update(&st.Input) {
		if f.x == nil {
			f.start()
		} else {
			f.x.Cancel()
			f.finish()
		}
	}
	f.stepIfDue(st.Frame)
	return nil
}

// stepIfDue runs the next slice of the search, once per frame drawn.
func (f *breakFinder) stepIfDue(frame int64) {
	if f.x != nil && (frame == 0 || frame != f.slicedAt) {
		f.slicedAt = frame
		f.step()
	}
}

// start builds the search for the world as the learner has it now: the
// lesson's knobs, and its protection as it stands at the play head.
func (f *breakFinder) start() {
	lb := f.sc.Lab
	// Actions due at the play head (a switch at 0 in a link just opened)
	// may not have fired yet: read the protection from a copy that ran
	// them, leaving the lab as it is.
	now := lb.Sim().Clone()
	now.RunUntil(now.Now())
	on := protectionOn(now, f.spec.Protects)
	f.knobs = lb.Knobs()
	f.problem = f.problemFor(core.ActionLog{core.At(0, core.Action{Do: f.spec.Protects, On: on})})
	x, err := core.NewExplorer(f.problem, f.clock)
	if err != nil {
		f.status = "Cannot search: " + err.Error()
		f.sc.Player.Narrate(f.status)
		return
	}
	f.x = x
	f.sc.Player.setPlaying(false)
	f.btn.Label = "Cancel search"
	f.status = ""
	f.sc.Player.Narrate(fmt.Sprintf("Searching for the simplest run that breaks %q with %s %s: %.0f schedules",
		f.spec.Invariant.Name, f.spec.Switch(), onOff(on), f.spec.Bounds.Count()))
}

func protectionOn(s *core.Sim, protects core.Verb) bool {
	switch {
	case protects == core.VerbIdempotency && s.Queue != nil:
		return s.Queue.Idempotency
	case s.Register != nil:
		return s.Register.Fencing
	case s.Offsets != nil:
		return s.Offsets.Fencing
	}
	return true
}

// step runs schedules for at most frameBudget of wall time.
func (f *breakFinder) step() {
	deadline := f.clock().Add(frameBudget)
	for f.clock().Before(deadline) {
		if f.x.Step(20) {
			f.finish()
			return
		}
	}
}

// finish reports the verdict; a counterexample becomes the lesson's run.
func (f *breakFinder) finish() {
	r := f.x.Result()
	err := f.x.Err()
	f.x = nil
	f.btn.Label = "Find a break"
	p := f.sc.Player
	switch {
	case err != nil:
		f.status = "The search failed: " + err.Error()
	case r.Found:
		if err := f.sc.Lab.Resume(f.knobs, r.Log); err != nil {
			f.status = "Found a break but could not load it: " + err.Error()
			break
		}
		what := "the lesson's own script"
		if len(r.Faults) > 0 {
			fs := make([]string, len(r.Faults))
			for i, fl := range r.Faults {
				fs[i] = fl.String()
			}
			what = strings.Join(fs, ", then ")
		}
		f.status = "Break: " + what
		defer p.Narrate("Compare " + f.spec.Switch() + " on/off replays this schedule both ways, side by side.")
		p.Narrate(fmt.Sprintf("Found the simplest break after %d schedules: %s. At %s: %s. Loaded as your run: press Play to watch it.",
			r.Tried, what, core.FormatTime(r.Violation.At), lab.Narrate(&r.Violation)))
		if line := f.withProtection(r.Faults); line != "" {
			p.Narrate(line)
		}
		return
	case !r.Complete:
		f.status = fmt.Sprintf("Cancelled after %d of %.0f schedules", r.Tried, r.Total)
	default:
		f.status = fmt.Sprintf("No break in %d schedules", r.Tried)
		p.Narrate("No break within bounds. " + r.Summary())
		return
	}
	p.Narrate(f.status)
}

// problemFor is the search problem on the lesson's world as the learner
// set its knobs (f.knobs), with base (the protection switch) at time zero.
func (f *breakFinder) problemFor(base core.ActionLog) core.Problem {
	l, seed, knobs := f.sc.Lab.Lesson, f.sc.Lab.Seed, f.knobs
	return core.Problem{
		Build: func() (*core.Sim, error) {
			w, err := l.StartWith(seed, knobs, base)
			if err != nil {
				return nil, err
			}
			return w.Sim, nil
		},
		Base: base, Invariant: f.spec.Invariant, Bounds: f.spec.Bounds,
	}
}

// withProtection replays the counterexample with the protection switched
// on (when the search ran with it off) and says what changed: the same
// schedule, side by side with its fix.
func (f *breakFinder) withProtection(faults []core.Fault) string {
	on := f.problem.Base[0]
	if on.On {
		return ""
	}
	on.On = true
	s, bad, err := f.problemFor(core.ActionLog{on}).Replay(faults)
	if err != nil || bad != nil {
		return ""
	}
	return fmt.Sprintf("The same schedule with %s on keeps %q: %s.", f.spec.Switch(), f.spec.Invariant.Name, core.Refusals(s.Trace))
}

// openComparison replaces the normal view with the run replayed with the
// protection off and on.
func (f *breakFinder) openComparison(stack *Stack) {
	c, err := newComparison(f)
	if err != nil {
		f.status = "Cannot compare: " + err.Error()
		f.sc.Player.Narrate(f.status)
		return
	}
	f.compare = c
	c.enter(stack)
}

// Draw implements View: the progress bar or the last verdict, and the
// button, in the world's caption row.
func (f *breakFinder) Draw(dst *ebiten.Image, _ ui.Rect, s draw.Style) {
	th := s.Theme
	if f.x != nil {
		tried, total := f.x.Progress()
		frac := 0.0
		if total > 0 {
			frac = min(1, float64(tried)/total)
		}
		radius := s.U(4)
		draw.FillRoundRect(dst, f.bar, radius, th.Panel)
		fill := f.bar
		fill.W = max(radius*2, f.bar.W*frac)
		draw.FillRoundRect(dst, fill, radius, th.Accent)
		draw.StrokeRoundRect(dst, f.bar, radius, 1, th.Border)
		label := fmt.Sprintf("searching %d of %.0f", tried, total)
		draw.TextIn(dst, label, s.Small(), f.bar, draw.AlignCenter, th.Text)
	} else if f.status != "" {
		draw.TextIn(dst, ui.Ellipsize(f.status, f.bar.W, draw.Measure(s.Small())), s.Small(), f.bar, draw.AlignEnd, th.Text)
	}
	s.Button(dst, &f.btn)
	s.Button(dst, &f.cmp)
}
