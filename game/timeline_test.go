package game

import (
	"image"
	"math"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// A span's name stays whole where the orange "both believe they lead" box
// begins inside the span: the names are drawn over the outlines. (The box's
// edge used to cut through the word, "ɔaused", when a pause began before
// the overlap it caused.) Wherever the box's edge falls across the pill,
// the word looks as it does with no box at all.
func TestTimelineSpanNamesAreDrawnOverTheOverlapBox(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	tv := r.a.top().(*LessonScene).Player.Timeline.(*timelineView)
	s := r.st.Style
	area := ui.Rect{W: 900, H: 160}
	const length = 20 * time.Second
	base := lab.Timeline{Now: length, Length: length, Lanes: []lab.Lane{
		{Name: "A", Lock: "lock", Paused: []lab.Span{{From: 2 * time.Second, To: 18 * time.Second}}},
		{Name: "B", Lock: "lock"},
	}}
	geom := ui.LayoutTimeline(area, s.Unit, len(base.Lanes), length.Seconds())
	render := func(overlaps []lab.Overlap) *image.RGBA {
		tv.tl, tv.geom = base, geom
		tv.tl.Overlaps = overlaps
		img := ebiten.NewImage(int(area.W), int(area.H))
		defer img.Deallocate()
		img.Fill(s.Theme.Background)
		tv.Draw(img, area, s)
		draw.EndFrame()
		out := image.NewRGBA(image.Rect(0, 0, int(area.W), int(area.H)))
		img.ReadPixels(out.Pix)
		return out
	}
	row := geom.Lane(0)
	center := ui.Point{X: geom.X(10), Y: row.Y + row.H/2}
	// The word itself, in the pill's middle (its rounded corners may show
	// what is behind them).
	w, h := draw.Measure(s.Small())("paused"), draw.TextHeight(s.Small())
	pill := image.Rect(int(math.Floor(center.X-w/2)), int(math.Floor(center.Y-h/2)), int(math.Ceil(center.X+w/2)), int(math.Ceil(center.Y+h/2)))
	require.False(t, pill.Empty())

	plain := render(nil)
	for x := pill.Min.X; x < pill.Max.X; x += 2 {
		from := time.Duration(geom.T(float64(x)) * float64(time.Second))
		boxed := render([]lab.Overlap{{Span: lab.Span{From: from, To: 19 * time.Second}, Lock: "lock"}})
		differ := 0
		for y := pill.Min.Y; y < pill.Max.Y; y++ {
			for px := pill.Min.X; px < pill.Max.X; px++ {
				if plain.RGBAAt(px, y) != boxed.RGBAAt(px, y) {
					differ++
				}
			}
		}
		assert.Zero(t, differ, "pixels of the word changed by a box beginning at x=%d", x)
	}
}

// A mark's label stays whole when the play head runs across it, as it does
// just after the latest mark: the head passes under the label. (Its line
// through the first letter made "duplicate ignored" read "|uplicate
// ignored" in the scheduler lesson's screenshot.)
func TestTimelineLabelsAreDrawnOverThePlayHead(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	tv := r.a.top().(*LessonScene).Player.Timeline.(*timelineView)
	s := r.st.Style
	area := ui.Rect{W: 900, H: 160}
	const length = 20 * time.Second
	const text = "duplicate ignored"
	base := lab.Timeline{Length: length, Lanes: []lab.Lane{{Name: "A", Lock: "lock", Members: []string{"A"}}, {Name: "B", Lock: "lock", Members: []string{"B"}}},
		Writes: []lab.WriteMark{{At: 5 * time.Second, From: "A", Accepted: false, Kind: lab.MarkJob, Label: text}}}
	geom := ui.LayoutTimeline(area, s.Unit, len(base.Lanes), length.Seconds())
	render := func(now time.Duration) *image.RGBA {
		tv.tl, tv.geom = base, geom
		tv.tl.Now = now
		img := ebiten.NewImage(int(area.W), int(area.H))
		defer img.Deallocate()
		img.Fill(s.Theme.Background)
		tv.Draw(img, area, s)
		draw.EndFrame()
		out := image.NewRGBA(image.Rect(0, 0, int(area.W), int(area.H)))
		img.ReadPixels(out.Pix)
		return out
	}
	// Where the view puts the label: beside the rejected mark, whose size
	// is the lane's height at most.
	row := geom.Lane(0)
	mark := math.Min(s.U(20), row.H)
	x0 := geom.X(5) + mark/2 + s.U(4)
	w, h := draw.Measure(s.Small())(text), draw.TextHeight(s.Small())
	cy := row.Y + row.H/2
	word := image.Rect(int(math.Floor(x0)), int(math.Floor(cy-h/2)), int(math.Ceil(x0+w)), int(math.Ceil(cy+h/2)))
	require.False(t, word.Empty())

	away := render(length) // the play head at the far right
	for x := word.Min.X; x < word.Max.X; x += 3 {
		crossed := render(time.Duration(geom.T(float64(x)) * float64(time.Second)))
		differ := 0
		for y := word.Min.Y; y < word.Max.Y; y++ {
			for px := word.Min.X; px < word.Max.X; px++ {
				if away.RGBAAt(px, y) != crossed.RGBAAt(px, y) {
					differ++
				}
			}
		}
		assert.Zero(t, differ, "pixels of the label changed by the play head at x=%d", x)
	}
}
