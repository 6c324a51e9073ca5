package ui

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

var layoutSizes = [][2]float64{
	{1024, 640}, {1024, 768}, {1280, 720}, {1280, 800}, {1366, 768}, {1440, 900},
	{1536, 864}, {1600, 900}, {1680, 1050}, {1920, 1080}, {1920, 1200}, {2048, 1280},
	{2560, 1080}, {2560, 1440}, {2560, 1600}, {2880, 1800}, {3440, 1440}, {3840, 1600},
	{3840, 2160}, {3840, 640}, {1024, 2160}, {1025, 641}, {1111, 999}, {1999, 701},
}

var layoutScales = []float64{1, 1.25, 1.5, 1.75, 2, 2.5, 3}

func TestLayoutPlayerFitsEverySize(t *testing.T) {
	for _, sz := range layoutSizes {
		for _, scale := range layoutScales {
			t.Run(fmt.Sprintf("%vx%v@%v", sz[0], sz[1], scale), func(t *testing.T) {
				win := Rect{0, 0, sz[0], sz[1]}
				l := LayoutPlayer(win, scale)
				checkLayout(t, l)
			})
		}
	}
}

func checkLayout(t *testing.T, l PlayerLayout) {
	t.Helper()
	u := l.Unit
	if u < 1 {
		t.Fatalf("unit %v < 1 on a window of at least the reference size", u)
	}
	for name, r := range l.Regions() {
		if r.Empty() {
			t.Errorf("%s is empty: %v", name, r)
		}
		if !r.Within(l.Window) {
			t.Errorf("%s %v leaves the window %v", name, r, l.Window)
		}
		for _, v := range []float64{r.X, r.Y, r.W, r.H} {
			if v != math.Round(v) {
				t.Errorf("%s %v is not on whole pixels", name, r)
				break
			}
		}
	}
	groups := []struct {
		parent string
		parts  []string
	}{
		{"", []string{"world", "timeline", "controls", "lesson"}},
		{"lesson", []string{"lessonTitle", "lessonText", "goals", "hints"}},
		{"hints", []string{"hint", "runRow", "hintText"}},
		{"controls", []string{"play", "step", "scrub", "clock", "speedLabel", "speed", "fork"}},
	}
	reg := l.Regions()
	for _, g := range groups {
		for i, a := range g.parts {
			if g.parent != "" && !reg[a].Within(reg[g.parent]) {
				t.Errorf("%s %v is not inside %s %v", a, reg[a], g.parent, reg[g.parent])
			}
			for _, b := range g.parts[i+1:] {
				if reg[a].Overlaps(reg[b]) {
					t.Errorf("%s %v overlaps %s %v", a, reg[a], b, reg[b])
				}
			}
		}
	}
	atLeast := func(name string, got, minUnits float64) {
		// One pixel of slack for rounding.
		if got < minUnits*u-1 {
			t.Errorf("%s is %v px, want at least %v units (%v px)", name, got, minUnits, minUnits*u)
		}
	}
	atLeast("world width", l.World.W, MinWorldW)
	atLeast("world height", l.World.H, MinWorldH)
	atLeast("lesson width", l.Lesson.W, MinLessonW)
	atLeast("lesson text height", l.LessonText.H, MinLessonTextH)
	atLeast("timeline height", l.Timeline.H, MinTimelineH)
	atLeast("scrub width", l.Scrub.W, MinScrubW)
	for _, name := range []string{"play", "step", "fork", "speed", "hint"} {
		atLeast(name+" height", reg[name].H, MinControlH)
	}
	atLeast("play width", l.Play.W, MinControlH)
	for i := range MaxGoals {
		if row := l.GoalRow(i); !row.Within(l.Goals) || row.Overlaps(l.GoalHeader()) {
			t.Errorf("goal row %d %v outside goals %v or over the header", i, row, l.Goals)
		}
	}
	// The scrub slider lines up under the timeline.
	if l.Scrub.X < l.Timeline.X || l.Scrub.MaxX() > l.Timeline.MaxX() {
		t.Errorf("scrub %v is not under the timeline %v", l.Scrub, l.Timeline)
	}
}

func TestLayoutPlayerOffsetWindow(t *testing.T) {
	checkLayout(t, LayoutPlayer(Rect{100, 50, 1280, 800}, 1))
}

func TestLayoutPlayerSmallWindowStillDoesNotOverlap(t *testing.T) {
	for _, sz := range [][2]float64{{800, 600}, {640, 400}, {320, 200}, {1024, 300}} {
		l := LayoutPlayer(Rect{0, 0, sz[0], sz[1]}, 2)
		reg := l.Regions()
		names := []string{"world", "timeline", "controls", "lesson"}
		for i, a := range names {
			if !reg[a].Within(l.Window) {
				t.Errorf("%v: %s leaves the window", sz, a)
			}
			for _, b := range names[i+1:] {
				if reg[a].Overlaps(reg[b]) {
					t.Errorf("%v: %s overlaps %s", sz, a, b)
				}
			}
		}
	}
}

func TestUnitFor(t *testing.T) {
	tests := []struct {
		w, h, scale, want float64
	}{
		{1024, 640, 1, 1},
		{1024, 640, 2, 1},       // cannot fit a 2x layout: shrink to fit
		{2048, 1280, 2, 2},      // HiDPI reference size
		{1920, 1080, 1, 1.0125}, // grows a little on big windows
		{3840, 2160, 1, 2.025},  // 4K at scale 1: readable from a distance
		{3840, 2160, 2, 2.025},  // 4K at scale 2
		{3840, 640, 1, 1},       // height-limited
		{512, 320, 1, 0.5},      // too small: everything shrinks together
		{1024, 640, 0, 1},       // unknown scale means 1
		{1024, 640, math.NaN(), 1},
	}
	for _, tt := range tests {
		if got := UnitFor(tt.w, tt.h, tt.scale); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("UnitFor(%v, %v, %v) = %v, want %v", tt.w, tt.h, tt.scale, got, tt.want)
		}
	}
}

func TestLayoutPlayerKnobsFitWithoutOverlap(t *testing.T) {
	for _, sz := range layoutSizes {
		for _, scale := range []float64{1, 2} {
			for n := 1; n <= 4; n++ {
				l := LayoutPlayerKnobs(Rect{0, 0, sz[0], sz[1]}, scale, n)
				t.Run(fmt.Sprintf("%vx%v@%v/%d", sz[0], sz[1], scale, n), func(t *testing.T) {
					checkLayout(t, l)
					if l.Knobs.Empty() || !l.Knobs.Within(l.Window) {
						t.Fatalf("knob strip %v", l.Knobs)
					}
					for _, other := range []Rect{l.World, l.Timeline, l.Controls, l.Lesson} {
						if l.Knobs.Overlaps(other) {
							t.Fatalf("knob strip %v overlaps %v", l.Knobs, other)
						}
					}
					v := l.KnobVerdict()
					for i := range n {
						a, b := l.KnobLabel(i), l.KnobSlider(i)
						if !a.Within(l.Knobs) || !b.Within(l.Knobs) || a.Overlaps(b) || b.Overlaps(v) || a.Overlaps(v) {
							t.Fatalf("knob %d: label %v slider %v verdict %v strip %v", i, a, b, v, l.Knobs)
						}
						if b.W < 150*l.Unit {
							t.Fatalf("knob %d slider only %v px wide", i, b.W)
						}
						for j := range i {
							if b.Overlaps(l.KnobSlider(j)) || a.Overlaps(l.KnobLabel(j)) {
								t.Fatalf("knobs %d and %d overlap", i, j)
							}
						}
					}
				})
			}
		}
	}
	if l := LayoutPlayer(Rect{W: 1280, H: 800}, 1); !l.Knobs.Empty() {
		t.Fatal("a lesson without knobs has no knob strip")
	}
}

func TestLayoutPlayerGrowsTheTimelineForLanes(t *testing.T) {
	for _, sz := range layoutSizes {
		for _, knobs := range []int{0, 1, 3} {
			for _, lanes := range []int{2, 6, 8} {
				l := LayoutPlayerFor(Rect{0, 0, sz[0], sz[1]}, 1, knobs, lanes)
				checkLayout(t, l)
				few := LayoutPlayerFor(Rect{0, 0, sz[0], sz[1]}, 1, knobs, 1)
				if l.Timeline.H < few.Timeline.H {
					t.Errorf("%v: %d lanes got a shorter timeline than 1", sz, lanes)
				}
			}
		}
	}
	l := LayoutPlayerFor(Rect{0, 0, 1920, 1080}, 1, 0, 8)
	if lane := (l.Timeline.H - laneChrome*l.Unit) / 8; lane < 20*l.Unit {
		t.Errorf("8 lanes at 1920x1080 get %v px each", lane)
	}
}

// The browser's canvas beside the page's panel (22 rem of the window) is
// laid out as the reference window's world column, so its smallest text
// (13 units) reads at 11 CSS px or more at 1024x640 and 1280x800 (issue
// 29: 8.5 px, fitted to a panel that was not there), and its regions keep
// the sizes LayoutPlayer promises a world.
func TestTheBrowsersCanvasKeepsItsSmallTextReadable(t *testing.T) {
	for _, win := range [][2]float64{{1024, 640}, {1280, 800}} {
		w, h := win[0]-22*16, win[1]
		u := UnitForBare(w, h, 1)
		assert.GreaterOrEqual(t, 13*u, 11.0, "%vx%v: small text at %.1f px", win[0], win[1], 13*u)
		l := LayoutPlayerBare(Rect{W: w, H: h}, u, 3, 2)
		assert.GreaterOrEqual(t, l.World.W/u, float64(MinWorldW), "%v: the world's width, in units", win)
		assert.GreaterOrEqual(t, l.World.H/u, float64(MinWorldH)-30, "%v: the world's height, in units", win)
		assert.GreaterOrEqual(t, l.Scrub.W/u, float64(MinScrubW), "%v: the play head's slider", win)
	}
}
