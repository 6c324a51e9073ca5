package lesson

import (
	"fmt"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/player"
	"leaselab/game/ui"
	"leaselab/game/view"
	"leaselab/lessons"
)

// frameBudget is how much of a frame a search may use: at 60 frames a
// second that leaves a third of each frame to draw, so the page stays
// responsive.
const frameBudget = 10 * time.Millisecond

// Finder is the player's "Find a break" button over a lab.Finder,
// a slice of the search per frame drawn, with a progress bar in the
// world's caption row, and the button that opens the comparison.
type Finder struct {
	sc   *Scene
	spec *lessons.Search
	m    *lab.Finder
	btn  ui.Button
	bar  ui.Rect
	// cmp opens the side-by-side comparison.
	cmp ui.Button
	// cmpShown is cmp's label as the canvas draws it: whole, or shorter
	// where the caption row is narrow.
	cmpShown string
	compare  *Comparison
	// slicedAt is the frame (State.Frame) the last search slice ran in: a
	// slice runs once per drawn frame (every update until the first draw):
	// when drawing is slow, the game loop runs several updates per frame
	// to catch up, and a slice in each would starve the page.
	slicedAt int64
}

// addFinder puts a "Find a break" search by spec, and the comparison of
// the run with its protection off and on, into the player being built.
func (sc *Scene) addFinder(ps *player.PlayerSpec, spec *lessons.Search) {
	f := &Finder{sc: sc, spec: spec, m: lab.NewFinder(sc.Lab, spec), btn: ui.Button{Label: "Find a break"}}
	f.cmp = ui.Button{Label: f.compareLabel()}
	sc.finder = f
	ps.Overlay = f
	ps.Widgets = append(ps.Widgets,
		player.Widget{Name: "explore", W: &f.btn, Tip: "Search pause timings for the simplest run that breaks the store (Enter when focused)", Do: f.toggleSearch},
		player.Widget{Name: "compare", W: &f.cmp, Tip: f.compareTip(), Do: func() {
			if !f.Searching() {
				f.openComparison()
			}
		}})
}

// cancel ends a search in progress (and the coroutine it runs on).
func (f *Finder) cancel() {
	f.m.Cancel()
	f.btn.Label = "Find a break"
}

// Searching reports a search in progress.
func (f *Finder) Searching() bool { return f.m.Searching() }

// narrate tells the lesson's narration lines, and hands the scene the
// run the search found, if it just found one.
func (f *Finder) narrate(lines []string) {
	if c, ok := f.m.TakeFound(); ok {
		f.sc.pending = append(f.sc.pending, c)
	}
	for _, l := range lines {
		f.sc.Player.Narrate(l)
	}
	if !f.m.Searching() {
		f.btn.Label = "Find a break"
	}
}

// Layout implements View: the buttons and the progress bar in the
// world's caption row.
func (f *Finder) Layout(area ui.Rect, s draw.Style) {
	caption, _, _ := ui.WorldFrame(area, s.Unit)
	px := func(v float64) float64 { return math.Round(s.U(v)) } // crisp edges
	w := px(150)
	f.btn.Rect = ui.Rect{X: caption.X + caption.W - px(118) - w, Y: caption.Y - px(4), W: w, H: caption.H + px(8)}
	f.cmp.Rect = f.btn.Rect
	left := caption.X + px(64) // right of the world's heading
	f.cmpShown = f.cmp.Label
	if f.btn.Rect.X-px(8)-math.Round(draw.Measure(s.Label())(f.cmpShown)+s.U(24)) < left {
		// Too wide to sit right of the heading (a phone's caption row):
		// the canvas's button says it shorter (the page's, whole).
		f.cmpShown = "Compare on/off"
	}
	f.cmp.Rect.W = math.Round(draw.Measure(s.Label())(f.cmpShown) + s.U(24))
	f.cmp.Rect.X = f.btn.Rect.X - px(8) - f.cmp.Rect.W
	f.bar = ui.Rect{X: left, Y: caption.Y, W: f.cmp.Rect.X - px(12) - left, H: caption.H}
}

// Update implements View: react to the buttons, run a slice.
func (f *Finder) Update(st *view.Env) error {
	if player.WorldMenuOpen(f.sc.Player.World) {
		// A process's action menu is open and may cover these buttons:
		// it has the mouse and the keys; the search goes on.
		f.stepIfDue(st.Frame)
		return nil
	}
	if f.cmp.Update(&st.Input) && !f.Searching() {
		f.sc.Player.Use(ui.HostAction{ID: "compare"}) // laid out before it is drawn
		return nil
	}
	f.cmp.Disabled = f.Searching()
	if f.btn.Update(&st.Input) {
		f.sc.Player.Use(ui.HostAction{ID: "explore"})
	}
	f.stepIfDue(st.Frame)
	return nil
}

// toggleSearch starts the search, or stops the one under way, as the
// Find a break button says.
func (f *Finder) toggleSearch() {
	if !f.Searching() {
		f.start()
	} else {
		f.narrate(f.m.Stop())
	}
}

// stepIfDue runs the next slice of the search, once per frame drawn.
func (f *Finder) stepIfDue(frame int64) {
	if f.Searching() && (frame == 0 || frame != f.slicedAt) {
		f.slicedAt = frame
		f.narrate(f.m.Slice(frameBudget))
	}
}

// start starts the search, pausing the run.
func (f *Finder) start() {
	lines := f.m.Start()
	if f.Searching() {
		f.sc.Player.SetPlaying(false)
		f.btn.Label = "Cancel search"
	}
	f.narrate(lines)
}

// openComparison replaces the normal view with the run replayed with the
// protection off and on.
func (f *Finder) openComparison() {
	c, err := newComparison(f)
	if err != nil {
		f.m.Status = "Cannot compare: " + err.Error()
		f.sc.Player.Narrate(f.m.Status)
		return
	}
	f.compare = c
	c.enter(f.sc.stack)
}

// Draw implements View: the progress bar or the last verdict, and the
// button, in the world's caption row.
func (f *Finder) Draw(dst *ebiten.Image, _ ui.Rect, s draw.Style) {
	th := s.Theme
	if f.Searching() {
		tried, total := f.m.Progress()
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
	} else if short := f.m.StatusShort(); f.m.Status != "" && (len(short) == 0 || draw.Measure(s.Small())(short[len(short)-1]) <= f.bar.W) {
		// (A caption row too narrow for even the shortest, a phone's,
		// leaves the verdict to the narration and the page.)
		draw.FirstFitInTip(dst, f.m.Status, short, s.Small(), f.bar, draw.AlignEnd, th.Text)
	}
	s.Button(dst, &f.btn)
	shown := f.cmp
	shown.Label = f.cmpShown
	s.Button(dst, &shown)
}
