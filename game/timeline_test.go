package game

import (
	"image"
	"leaselab/game/lesson"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/sandbox"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// timelineRig draws a timeline of the test's making, with a real lesson's
// view and style, into an image it reads back.
type timelineRig struct {
	view  *view.Timeline
	lab   *lab.Lab
	style draw.Style
	area  ui.Rect
	geom  ui.TimelineGeom
}

func newTimelineRig(t *testing.T, length time.Duration, lanes int) *timelineRig {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	tr := &timelineRig{view: sc.Player.Timeline.(*view.Timeline), lab: sc.Lab, style: r.st.Style, area: ui.Rect{W: 900, H: 160}}
	tr.geom = ui.LayoutTimeline(tr.area, tr.style.Unit, lanes, length.Seconds())
	return tr
}

func (tr *timelineRig) render(tl lab.Timeline) *image.RGBA {
	tr.view.Show(tl, tr.geom)
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

// sandboxTimeline starts the sandbox's default ten-minute run, plays it
// to at, and returns its timeline.
func sandboxTimeline(t *testing.T, at time.Duration) (*appRig, *sandbox.Scene, *view.Timeline) {
	r := newAppRig(t)
	r.click("sandbox")
	r.click("start")
	sb, ok := r.a.top().(*sandbox.Scene)
	require.True(t, ok && sb.Run != nil, "the sandbox did not start")
	require.Equal(t, 10*time.Minute, sb.Run.Lab.Length())
	sb.Run.Lab.Apply(lab.SeekTo(at))
	r.tick(ui.Input{})
	tv, ok := sb.Run.Player.Timeline.(*view.Timeline)
	require.True(t, ok)
	return r, sb, tv
}

// The wheel over a ten-minute timeline zooms about the pointer (the time
// under it stays under it), a sideways wheel scrolls, and zooming all the
// way out shows the whole run again.
func TestTimelineZoomsAboutTheWheel(t *testing.T) {
	r, _, tv := sandboxTimeline(t, 30*time.Second)
	require.True(t, tv.Geom().View.Whole())
	lanes := tv.Geom().Lanes
	at := ui.Point{X: lanes.X + lanes.W*0.3, Y: lanes.Center().Y}
	under := tv.Geom().T(at.X)
	for range 4 {
		r.tick(ui.Input{Cursor: at, Wheel: ui.Point{Y: 1}})
	}
	assert.InDelta(t, 600/math.Pow(ui.ZoomStep, 4), tv.Geom().View.Span(), 1e-6)
	assert.InDelta(t, under, tv.Geom().T(at.X), 1e-6, "the time under the pointer moved")

	from := tv.Geom().View.From
	r.tick(ui.Input{Cursor: at, Wheel: ui.Point{X: -1}})
	assert.Greater(t, tv.Geom().View.From, from, "a wheel turned right shows later")

	for range 10 {
		r.tick(ui.Input{Cursor: at, Wheel: ui.Point{Y: -1}})
	}
	assert.True(t, tv.Geom().View.Whole())
	outside := ui.Point{X: lanes.X, Y: lanes.Y - 200}
	r.tick(ui.Input{Cursor: outside, Wheel: ui.Point{Y: 1}})
	assert.True(t, tv.Geom().View.Whole(), "the wheel away from the timeline does not zoom it")
}

// The keys zoom about the play head, keep it in view, move the view and
// show the whole run; the play head running off the view's edge moves the
// view on.
func TestTimelineZoomsWithTheKeysAndFollowsThePlayHead(t *testing.T) {
	r, sb, tv := sandboxTimeline(t, 400*time.Second)
	for range 5 {
		r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentZoomIn)})
	}
	v := tv.Geom().View
	assert.InDelta(t, 600/math.Pow(ui.ZoomStep, 5), v.Span(), 1e-6)
	assert.True(t, v.From < 400 && 400 < v.To, "the play head left the view: %+v", v)

	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentViewBack)})
	assert.InDelta(t, v.From-v.Span()/2, tv.Geom().View.From, 1e-6)
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentViewOn)})
	assert.InDelta(t, v.From, tv.Geom().View.From, 1e-6)

	sb.Run.Lab.Apply(lab.SeekTo(500 * time.Second))
	r.tick(ui.Input{})
	assert.True(t, tv.Geom().InView(500), "the view did not follow the play head: %+v", tv.Geom().View)
	assert.InDelta(t, v.Span(), tv.Geom().View.Span(), 1e-6, "following zoomed")

	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentZoomOut)})
	assert.InDelta(t, v.Span()*ui.ZoomStep, tv.Geom().View.Span(), 1e-6)
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentZoomAll)})
	assert.True(t, tv.Geom().View.Whole())
}

// Two fingers spread on the timeline zoom it in (a phone has no wheel),
// without seeking the play head.
func TestTimelinePinchesWithTwoFingers(t *testing.T) {
	r, sb, tv := sandboxTimeline(t, 100*time.Second)
	lanes := tv.Geom().Lanes
	y := lanes.Center().Y
	x := func(f float64) float64 { return lanes.X + lanes.W*f }
	fingers := func(a, b float64) []ui.Touch {
		return []ui.Touch{{ID: 1, Pos: ui.Point{X: x(a), Y: y}}, {ID: 2, Pos: ui.Point{X: x(b), Y: y}}}
	}
	start := fingers(0.4, 0.6)
	start[1].JustDown = true
	r.tick(ui.Input{Touches: start})
	mid := tv.Geom().T(x(0.5))
	r.tick(ui.Input{Touches: fingers(0.3, 0.7)})
	r.tick(ui.Input{Touches: fingers(0.2, 0.8)})
	assert.InDelta(t, 200.0, tv.Geom().View.Span(), 1e-6, "spread from 0.2 to 0.6 of the width: three times in")
	assert.InDelta(t, mid, tv.Geom().T(x(0.5)), 1e-6, "the time between the fingers stays between them")
	assert.Equal(t, 100*time.Second, sb.Run.Lab.Now(), "a pinch does not seek")
}

// busyTenMinutes plays the sandbox's default ten-minute run with the
// leader paused now and then (three times in quick succession, twice
// close together), fencing off for its second half: rejected and stale
// writes, each with a label, some crowded, squeezed 600 s to the
// timeline's width.
func busyTenMinutes(t *testing.T) (*appRig, *view.Timeline) {
	r, sb, tv := sandboxTimeline(t, 0)
	lb := sb.Run.Lab
	for _, sec := range []int{30, 45, 60, 150, 250, 330, 345, 440, 530} {
		at := time.Duration(sec) * time.Second
		lb.Apply(lab.SeekTo(at))
		if at >= 5*time.Minute {
			require.NoError(t, lb.Do(core.Fencing(false)))
		}
		for _, p := range lb.World().Procs {
			if p.Believes && !p.Paused {
				require.NoError(t, lb.Do(core.Pause(p.Name, 12*time.Second)))
			}
		}
	}
	lb.Apply(lab.SeekTo(10 * time.Minute))
	r.record("timeline-600s")
	return r, tv
}

// At a 600 s timeline no mark's label runs into another label, a mark
// or a span's pill, on its lane or the next (issue 29: at 600 s they
// overlapped); the labels dropped for room show once zoomed in.
func TestTimelineLabelsNeverOverlapOverTenMinutes(t *testing.T) {
	r, tv := busyTenMinutes(t)
	labelled := 0
	for _, m := range tv.Run().Writes {
		if m.Label != "" {
			labelled++
		}
	}
	require.GreaterOrEqual(t, labelled, 6, "the run gives the timeline a label for most pauses")
	require.NotEmpty(t, tv.DrawnLabels())
	for i, a := range tv.DrawnLabels() {
		for j, b := range tv.DrawnLabels()[i+1:] {
			assert.False(t, a.Overlaps(b), "labels %q and %q overlap", tv.DrawnTexts()[i], tv.DrawnTexts()[i+1+j])
		}
		for _, m := range tv.DrawnMarks() {
			assert.False(t, a.Overlaps(m), "label %q runs into a mark or pill at %v", tv.DrawnTexts()[i], m)
		}
		assert.True(t, a.Within(tv.Geom().Lanes.InsetXY(0, -tv.Geom().LaneH)), "label %q leaves the lanes", tv.DrawnTexts()[i])
	}
	whole := len(tv.DrawnLabels())
	require.Less(t, whole, labelled, "some labels were dropped for room")

	// Zoomed in about the middle, more labels have room than the whole
	// run's width gave them.
	lanes := tv.Geom().Lanes
	for range 6 {
		r.tick(ui.Input{Cursor: ui.Point{X: lanes.X + lanes.W*0.6, Y: lanes.Center().Y}, Wheel: ui.Point{Y: 1}})
	}
	r.record("timeline-600s-zoomed")
	inView := 0
	for _, m := range tv.Run().Writes {
		if m.Label != "" && tv.Geom().InView(m.At.Seconds()) {
			inView++
		}
	}
	assert.GreaterOrEqual(t, float64(len(tv.DrawnLabels()))/float64(inView), float64(whole)/float64(labelled),
		"zoomed in, a larger share of the labels in view shows (%d of %d; whole run %d of %d)", len(tv.DrawnLabels()), inView, whole, labelled)
}

// A label beside a mark sits on a plate of the lanes' background, so the
// lane's bars never cross its letters: "STALE offset 1" and "term 2" were
// drawn in white across the purple and teal bars in the troubleshooting,
// shards and cluster lessons. The label looks the same with bars under it
// as with none.
func TestTimelineLabelsAreNotCrossedByTheBars(t *testing.T) {
	const length = 20 * time.Second
	const text = "offset rejected 1"
	tr := newTimelineRig(t, length, 2)
	bare := lab.Timeline{Now: length, Length: length,
		Lanes:   []lab.Lane{{Name: "A", Lock: "lock", Members: []string{"A"}}, {Name: "B", Lock: "lock", Members: []string{"B"}}},
		Writes:  []lab.WriteMark{{At: 5 * time.Second, From: "A", Accepted: false, Kind: lab.MarkJob, Label: text}},
		Leaders: []lab.LeaderMark{{At: 12 * time.Second, Member: "B", Term: 2}}}
	barred := bare
	barred.Lanes = []lab.Lane{
		{Name: "A", Lock: "lock", Members: []string{"A"}, Belief: []lab.Span{{From: 0, To: length}}, Truth: []lab.Span{{From: 0, To: length}}},
		{Name: "B", Lock: "lock", Members: []string{"B"}, Belief: []lab.Span{{From: 0, To: length}}, Truth: []lab.Span{{From: 0, To: length}}},
	}
	row := tr.geom.Lane(0)
	mark := math.Min(tr.style.U(20), row.H)
	label := tr.textBox(text, tr.geom.X(5)+mark/2+tr.style.U(4), row.Y+row.H/2)
	term := tr.textBox("term 2", tr.geom.X(12)+tr.style.U(3), row.Y+draw.TextHeight(tr.style.Small())/2)
	plain, withBars := tr.render(bare), tr.render(barred)
	require.NotZero(t, differ(plain, withBars, image.Rect(0, int(row.Y), int(tr.area.W), int(row.MaxY()))), "the bars were not drawn")
	assert.Zero(t, differ(plain, withBars, label), "the bars cross the write's label %q", text)
	assert.Zero(t, differ(plain, withBars, term), "the bars cross the leader line's label")
}

// The play head's marker never sits on the timeline's legend: near the
// run's end its triangle covered "upper bar: believes it leads" at the
// top right. Wherever the head is, the legend's text and the marker do
// not meet.
func TestThePlayHeadMarkerKeepsOffTheLegend(t *testing.T) {
	const length = 20 * time.Second
	tr := newTimelineRig(t, length, 2)
	tl := lab.Timeline{Length: length, Lanes: []lab.Lane{{Name: "A", Lock: "lock"}, {Name: "B", Lock: "lock"}}}
	legend := view.TimelineLegend(tr.lab.World())[0]
	for now := time.Duration(0); now <= length; now += time.Second {
		tl.Now = now
		stop := draw.Record()
		tr.render(tl)
		drawn := stop()
		i := slices.IndexFunc(drawn, func(d draw.Drawn) bool { return d.Text == legend })
		require.GreaterOrEqual(t, i, 0, "the legend was not drawn")
		require.NotZero(t, tr.view.DrawnHead().W, "no play head marker at %v", now)
		assert.False(t, drawn[i].Ink.Overlaps(tr.view.DrawnHead()), "the play head's marker at %v (%v) lies on the legend (%v)", now, tr.view.DrawnHead(), drawn[i].Ink)
	}
}

// Writes a second apart on a two-minute timeline, too close for their
// ticks to be told apart, are drawn as one run with their count ("12
// writes"): no two write marks' ink meet (issue 29: a blob of ticks on
// the phone). The refused write among them keeps its own mark and label.
func TestCrowdedWriteMarksMergeIntoOneWithACount(t *testing.T) {
	const length = 120 * time.Second
	tr := newTimelineRig(t, length, 2)
	tl := lab.Timeline{Length: length, Now: length, Lanes: []lab.Lane{{Name: "A", Lock: "lock", Members: []string{"A"}}, {Name: "B", Lock: "lock", Members: []string{"B"}}}}
	for i := range 12 {
		tl.Writes = append(tl.Writes, lab.WriteMark{At: time.Duration(10+i) * time.Second, From: "A", Accepted: true, Kind: lab.MarkWrite})
	}
	tl.Writes = append(tl.Writes, lab.WriteMark{At: 60 * time.Second, From: "A", Kind: lab.MarkWrite, Label: "rejected 3"})
	tl.Writes = append(tl.Writes, lab.WriteMark{At: 90 * time.Second, From: "B", Accepted: true, Kind: lab.MarkWrite})
	stop := draw.Record()
	tr.render(tl)
	drawn := stop()

	require.Len(t, tr.view.DrawnWrites(), 3, "the run of twelve, the refusal and B's lone write")
	for i, a := range tr.view.DrawnWrites() {
		for _, b := range tr.view.DrawnWrites()[i+1:] {
			assert.False(t, a.Overlaps(b), "write marks %v and %v run together", a, b)
		}
	}
	said := func(text string) bool {
		return slices.ContainsFunc(drawn, func(d draw.Drawn) bool { return d.Text == text })
	}
	assert.True(t, said("12 writes"), "the run says how many writes it holds")
	assert.True(t, said("rejected 3"), "the refusal keeps its label")
}

// Orange on the timeline means two processes believe they lead, as its
// legend says ("orange: two leaders"): a pause is hatched in another
// colour, so a paused holder with no rival yet never reads as two leaders
// (on a phone its "paused" pill often has no room). With an overlap, the
// orange box is there.
func TestOnlyTwoLeadersAreOrangeOnTheTimeline(t *testing.T) {
	const length = 20 * time.Second
	tr := newTimelineRig(t, length, 2)
	paused := lab.Timeline{Now: length, Length: length, Lanes: []lab.Lane{
		{Name: "A", Lock: "lock", Paused: []lab.Span{{From: 2 * time.Second, To: 18 * time.Second}}},
		{Name: "B", Lock: "lock"},
	}}
	orange := func(img *image.RGBA) int {
		n, want := 0, tr.style.Theme.Warning
		top, bottom := tr.geom.Lane(0), tr.geom.Lane(1)
		for y := int(top.Y); y < int(bottom.MaxY()); y++ {
			for x := int(top.X); x < int(top.MaxX()); x++ {
				if c := img.RGBAAt(x, y); c == want {
					n++
				}
			}
		}
		return n
	}
	assert.Zero(t, orange(tr.render(paused)), "a pause alone draws no orange")
	overlap := paused
	overlap.Overlaps = []lab.Overlap{{Span: lab.Span{From: 10 * time.Second, To: 18 * time.Second}, Lock: "lock"}}
	assert.Positive(t, orange(tr.render(overlap)), "two leaders are boxed in orange")
}
