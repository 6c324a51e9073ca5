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

// timelineRig draws a timeline of the test's making, with a real lesson's
// view and style, into an image it reads back.
type timelineRig struct {
	view  *timelineView
	style draw.Style
	area  ui.Rect
	geom  ui.TimelineGeom
}

func newTimelineRig(t *testing.T, length time.Duration, lanes int) *timelineRig {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	tr := &timelineRig{view: r.a.top().(*LessonScene).Player.Timeline.(*timelineView), style: r.st.Style, area: ui.Rect{W: 900, H: 160}}
	tr.geom = ui.LayoutTimeline(tr.area, tr.style.Unit, lanes, length.Seconds())
	return tr
}

func (tr *timelineRig) render(tl lab.Timeline) *image.RGBA {
	tr.view.tl, tr.view.geom = tl, tr.geom
	w, h := int(tr.area.W), int(tr.area.H)
	img := ebiten.NewImage(w, h)
	defer img.Deallocate()
	img.Fill(tr.style.Theme.Background)
	tr.view.Draw(img, tr.area, tr.style)
	draw.EndFrame()
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	img.ReadPixels(out.Pix)
	return out
}

// textBox is where a string of the small face, starting at x and centred
// on y, is drawn.
func (tr *timelineRig) textBox(text string, x, y float64) image.Rectangle {
	w, h := draw.Measure(tr.style.Small())(text), draw.TextHeight(tr.style.Small())
	return image.Rect(int(math.Floor(x)), int(math.Floor(y-h/2)), int(math.Ceil(x+w)), int(math.Ceil(y+h/2)))
}

// differ counts the pixels of r that are not the same in a and b.
func differ(a, b *image.RGBA, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.RGBAAt(x, y) != b.RGBAAt(x, y) {
				n++
			}
		}
	}
	return n
}

// A span's name stays whole where the orange "both believe they lead" box
// begins inside the span: the names are drawn over the outlines. (The box's
// edge used to cut through the word, "ɔaused", when a pause began before
// the overlap it caused.) Wherever the box's edge falls across the pill,
// the word looks as it does with no box at all.
func TestTimelineSpanNamesAreDrawnOverTheOverlapBox(t *testing.T) {
	const length = 20 * time.Second
	tr := newTimelineRig(t, length, 2)
	base := lab.Timeline{Now: length, Length: length, Lanes: []lab.Lane{
		{Name: "A", Lock: "lock", Paused: []lab.Span{{From: 2 * time.Second, To: 18 * time.Second}}},
		{Name: "B", Lock: "lock"},
	}}
	// The word in the pill's middle (its rounded corners may show what is
	// behind them).
	row := tr.geom.Lane(0)
	word := tr.textBox("paused", tr.geom.X(10)-draw.Measure(tr.style.Small())("paused")/2, row.Y+row.H/2)
	require.False(t, word.Empty())

	plain := tr.render(base)
	for x := word.Min.X; x < word.Max.X; x += 2 {
		boxed := base
		boxed.Overlaps = []lab.Overlap{{Span: lab.Span{From: time.Duration(tr.geom.T(float64(x)) * float64(time.Second)), To: 19 * time.Second}, Lock: "lock"}}
		assert.Zero(t, differ(plain, tr.render(boxed), word), "pixels of the word changed by a box beginning at x=%d", x)
	}
}

// A mark's label stays whole when the play head runs across it, as it does
// just after the latest mark: the head passes under the label. (Its line
// through the first letter made "duplicate ignored" read "|uplicate
// ignored" in the scheduler lesson's screenshot.)
func TestTimelineLabelsAreDrawnOverThePlayHead(t *testing.T) {
	const length = 20 * time.Second
	const text = "duplicate ignored"
	tr := newTimelineRig(t, length, 2)
	base := lab.Timeline{Now: length, Length: length,
		Lanes:  []lab.Lane{{Name: "A", Lock: "lock", Members: []string{"A"}}, {Name: "B", Lock: "lock", Members: []string{"B"}}},
		Writes: []lab.WriteMark{{At: 5 * time.Second, From: "A", Accepted: false, Kind: lab.MarkJob, Label: text}}}
	// Where the view puts the label: beside the rejected mark, whose size
	// is the lane's height at most.
	row := tr.geom.Lane(0)
	mark := math.Min(tr.style.U(20), row.H)
	label := tr.textBox(text, tr.geom.X(5)+mark/2+tr.style.U(4), row.Y+row.H/2)
	require.False(t, label.Empty())

	away := tr.render(base) // the play head at the far right
	for x := label.Min.X; x < label.Max.X; x += 3 {
		crossed := base
		crossed.Now = time.Duration(tr.geom.T(float64(x)) * float64(time.Second))
		assert.Zero(t, differ(away, tr.render(crossed), label), "pixels of the label changed by the play head at x=%d", x)
	}
}
