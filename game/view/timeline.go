package view

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// Timeline draws one lane per process: when it believed it led (upper
// bar) against when the coordinator said it held the lock (lower bar), its
// pauses and crashes, the belief overlap, and every store decision with its
// token. Clicking the lanes moves the play head there.
type Timeline struct {
	lab  *lab.Lab
	send func(lab.Command) // to the scene that applies it
	geom ui.TimelineGeom
	tl   lab.Timeline
	// showing names the actor whose lane stays shown however many there
	// are (the one selected in the world; nil or "": none).
	showing func() string
	// view is the part of the run shown (zoomed with the wheel, a pinch
	// or the keys; see ui.TimeWindow); head is the play head it last
	// followed, so the view moves with the head only when the head moves.
	view ui.TimeWindow
	head float64
	// pinch is the two fingers' positions as fractions of the lanes'
	// width at the last tick, while two are down on the lanes.
	pinch    [2]float64
	pinching bool
	// drawnLabels and drawnMarks are where the last Draw put the marks'
	// labels and the marks (with the spans' pills), for the tests.
	drawnLabels, drawnMarks []ui.Rect
	drawnTexts              []string
	// drawnWrites are the write marks as last drawn, a run of them
	// merged into one (writes).
	drawnWrites []ui.Rect
	// drawnHead is the play head's marker as last drawn (empty when out
	// of view).
	drawnHead ui.Rect
}

// NewTimeline is the timeline of lb's run; a click on it sends a seek.
func NewTimeline(lb *lab.Lab, send func(lab.Command)) *Timeline {
	return &Timeline{lab: lb, send: send}
}

// TimelineLaneMin is the least height, in units, of a lane shown whole:
// less, and the last lane sums up the rest ("+5 more").
const TimelineLaneMin = 16

// Layout implements View.
func (v *Timeline) Layout(area ui.Rect, s draw.Style) {
	name := ""
	if v.showing != nil {
		name = v.showing()
	}
	v.tl = v.lab.TimelineShowing(name)
	v.geom = ui.LayoutTimeline(area, s.Unit, len(v.tl.Lanes), v.tl.Length.Seconds())
	if fit := v.lanesThatFit(area, s); fit < len(v.tl.Lanes) {
		// Too many lanes to read: summarise the rest in the last one.
		v.tl.Lanes = lab.Showing(v.tl.Lanes, name, fit)
		v.tl = v.tl.Fit(fit)
		v.geom = ui.LayoutTimeline(area, s.Unit, len(v.tl.Lanes), v.tl.Length.Seconds())
	}
	// The play head stays in view: when it moves (playing, stepping,
	// seeking) the view follows it; a view scrolled away from a head that
	// stands still stays where the learner put it.
	v.view = v.view.Resize(v.tl.Length.Seconds())
	if now := v.tl.Now.Seconds(); now != v.head {
		v.head = now
		v.view = v.view.Follow(now)
	}
	v.geom = v.geom.WithView(v.view)
}

// lanesThatFit is how many lanes the timeline in area shows before it
// summarises the rest: each at least 16 units tall, and its row tall
// enough for its name in the small face (on a phone's canvas, whose
// small face is taller for its unit, 16 units were not), with the pixel
// of slack a glyph's box may overhang either side.
func (v *Timeline) lanesThatFit(area ui.Rect, s draw.Style) int {
	fit := int(v.geom.Lanes.H / (TimelineLaneMin * s.Unit))
	for fit > 2 && fit < len(v.tl.Lanes) && ui.LayoutTimeline(area, s.Unit, fit, v.tl.Length.Seconds()).Lane(0).H < draw.TextHeight(s.Small())-2 {
		fit--
	}
	return fit
}

// Update implements View: a press or drag on the lanes seeks there; the
// wheel (and a trackpad's pinch, which browsers send as a wheel with
// Ctrl) zooms about the pointer and a sideways wheel scrolls; two fingers
// pinch and scroll; the zoom keys zoom about the play head.
func (v *Timeline) Update(st *Env) error {
	in := &st.Input
	ptr := in.Pointer()
	lanes := v.geom.Lanes
	lanes.H = v.geom.Axis.MaxY() - lanes.Y
	view := v.view
	if in.Wheel != (ui.Point{}) && !ptr.Touch && lanes.Contains(ptr.Pos) {
		if in.Wheel.Y != 0 {
			view = view.ZoomAt(math.Pow(ui.ZoomStep, in.Wheel.Y), v.geom.FractionAt(ptr.Pos.X))
		}
		// Ebitengine's X is the wheel's turn to the left: earlier.
		view = view.Pan(-in.Wheel.X * view.Span() / 10)
	}
	if f, ok := v.twoFingers(in, lanes); ok {
		if v.pinching {
			view = view.Pinch(v.pinch[0], v.pinch[1], f[0], f[1])
		}
		v.pinch, v.pinching = f, true
	} else {
		v.pinching = v.pinching && len(in.Touches) > 1
		if !v.pinching && ptr.Down && ptr.Present && lanes.Contains(ptr.Pos) {
			v.send(lab.SeekTo(time.Duration(v.geom.T(ptr.Pos.X) * float64(time.Second))))
		}
	}
	now := v.tl.Now.Seconds()
	switch {
	case in.Keys.Has(ui.IntentZoomIn):
		view = view.ZoomAround(ui.ZoomStep, now)
	case in.Keys.Has(ui.IntentZoomOut):
		view = view.ZoomAround(1/ui.ZoomStep, now)
	case in.Keys.Has(ui.IntentZoomAll):
		view = ui.WholeRun(view.Length)
	case in.Keys.Has(ui.IntentViewBack):
		view = view.Pan(-view.Span() / 2)
	case in.Keys.Has(ui.IntentViewOn):
		view = view.Pan(view.Span() / 2)
	}
	v.view = view
	v.geom = v.geom.WithView(view)
	return nil
}

// twoFingers is where the first two fingers are, as fractions of the
// lanes' width, while both are down and the first began on the lanes.
func (v *Timeline) twoFingers(in *ui.Input, lanes ui.Rect) ([2]float64, bool) {
	if len(in.Touches) < 2 || in.Touches[0].JustUp || in.Touches[1].JustUp {
		return [2]float64{}, false
	}
	if !v.pinching && !lanes.Contains(in.Touches[0].Pos) {
		return [2]float64{}, false
	}
	return [2]float64{v.geom.FractionAt(in.Touches[0].Pos.X), v.geom.FractionAt(in.Touches[1].Pos.X)}, true
}

// secs is a time on the timeline's caption: "95 s".
func secs(t float64) string { return fmt.Sprintf("%.0f s", t) }

// hatch draws diagonal stripes inside r.
func hatch(dst *ebiten.Image, r ui.Rect, gap, width float64, clr color.Color) {
	for x := r.X - r.H; x < r.MaxX(); x += gap {
		a := ui.Point{X: x, Y: r.MaxY()}
		b := ui.Point{X: x + r.H, Y: r.Y}
		// Clip to r horizontally.
		if a.X < r.X {
			a = ui.Point{X: r.X, Y: r.MaxY() - (r.X - a.X)}
		}
		if b.X > r.MaxX() {
			b = ui.Point{X: r.MaxX(), Y: r.Y + (b.X - r.MaxX())}
		}
		if a.X < b.X {
			draw.Line(dst, a, b, width, clr)
		}
	}
}

// clearOf finds where along span a label box r (centred at at) overlaps
// none of marks: at itself if it does not, else the nearest place that
// keeps r inside span, stepping a pixel at a time; ok is false where no
// place does.
func clearOf(at ui.Point, span, r ui.Rect, marks []ui.Rect) (ui.Point, bool) {
	free := func(dx float64) bool {
		moved := r
		moved.X += dx
		if moved.X < span.X || moved.MaxX() > span.MaxX() {
			return false
		}
		for _, m := range marks {
			if moved.Overlaps(m) {
				return false
			}
		}
		return true
	}
	for d := 0.0; d <= span.W/2; d++ {
		for _, dx := range []float64{-d, d} {
			if free(dx) {
				return ui.Point{X: at.X + dx, Y: at.Y}, true
			}
		}
	}
	return at, false
}

// Lanes is where the lanes were last laid out: a click there seeks.
func (v *Timeline) Lanes() ui.Rect { return v.geom.Lanes }

// KeepShown names, each layout, the actor whose lane is never summed up
// however many lanes there are (a selected worker's).
func (v *Timeline) KeepShown(name func() string) { v.showing = name }
