package ui

import (
	"math"
)

// The smallest window the lesson player is designed for, in pixels at a
// device scale of 1. Every size in the player layout is a multiple of a
// unit that is 1 at this size.
const (
	RefWidth  = 1024
	RefHeight = 640
)

// MaxGoals is how many goal rows the checklist area has room for.
const MaxGoals = 5

// Player layout sizes in units (see [UnitFor]).
const (
	pad         = 12  // window margin and panel padding
	gap         = 10  // between regions
	innerGap    = 8   // between widgets in a panel
	controlsH   = 56  // the time-control bar
	timelineMin = 120 // the timeline strip's height range
	timelineMax = 320
	lessonMin   = 320 // the lesson column's width range
	lessonMax   = 620
	navH        = 34
	titleH      = 34
	goalHeaderH = 28
	goalRowH    = 40 // two lines of small text
	hintButtonH = 44
	runRowH     = 34 // the run's own buttons: Restart, Undo, Next lesson
	hintTextH   = 22 // one line: a revealed hint goes to the end of the text
	iconButtonW = 44 // play/pause and step: square, a comfortable touch target
	clockW      = 112
	speedLabelW = 56
	speedW      = 128
	forkW       = 84
	// The knob strip: one cell per knob (a label row over a slider), at
	// most knobCols to a row, and a row for the live verdict.
	knobCols     = 3
	knobLabelH   = 20
	knobSliderH  = 30
	knobVerdictH = 22
	// A timeline lane wants this much height; the caption, axis and
	// padding take laneChrome.
	laneWant   = 24
	laneChrome = 66
)

// Minimum sizes, in units, that [LayoutPlayer] guarantees for any window of
// at least RefWidth × RefHeight pixels.
const (
	MinWorldW      = 400
	MinWorldH      = 220
	MinLessonW     = 280
	MinLessonTextH = 120
	MinTimelineH   = timelineMin
	MinScrubW      = 120
	MinControlH    = 44
)

// UnitFor returns the layout unit for a w×h pixel window on a display with
// the given device scale factor. It starts at the device scale (so a HiDPI
// screen gets crisp text of the same apparent size), grows a little on very
// large windows so text stays readable from a distance, and never exceeds
// what lets the reference layout fit, so nothing overlaps on a small window.
func UnitFor(w, h, scale float64) float64 {
	if scale <= 0 || math.IsNaN(scale) {
		scale = 1
	}
	fit := math.Min(w/RefWidth, h/RefHeight)
	return math.Max(0, math.Min(fit, math.Max(scale, 0.6*fit)))
}

// PortraitRefWidth is the width, in units, a world needs without the
// lesson panel beside it: an upright window (a phone) without the panel
// is laid out for it, so its text is not shrunk to fit a panel that is
// elsewhere.
const PortraitRefWidth = 560

// BareRefWidth is the width, in units, of a window without the lesson
// panel that is laid out as the reference window's world column: the
// reference width less the panel and the gap before it.
const BareRefWidth = RefWidth - lessonMin - gap

// UnitForBare is UnitFor for a window that shows no lesson panel (the
// page shows it): it is fitted to the room the world has beside the
// panel in the reference window (BareRefWidth), not to a panel that is
// elsewhere (fitted to the whole RefWidth, the browser's canvas at
// 1024x640 drew its small text at 8.5 px); an upright one (a phone) to
// PortraitRefWidth.
func UnitForBare(w, h, scale float64) float64 {
	if scale <= 0 || math.IsNaN(scale) {
		scale = 1
	}
	ref := float64(BareRefWidth)
	if h > w {
		ref = PortraitRefWidth
	}
	fit := math.Min(w/ref, h/RefHeight)
	return math.Max(0, math.Min(fit, math.Max(scale, 0.6*fit)))
}

// PlayerLayout is where everything on the lesson player screen goes.
//
//	+---------------------------+-------------+
//	| World                     | Lesson      |
//	|                           |  Title      |
//	|                           |  Text       |
//	+---------------------------+  Goals      |
//	| Timeline                  |  Hints      |
//	+---------------------------+             |
//	| Controls                  |             |
//	+---------------------------+-------------+
//
// The scrub slider sits directly under the timeline it scrubs, and the
// lesson column takes the full height because text needs it most.
type PlayerLayout struct {
	Window Rect
	Unit   float64

	World, Timeline, Controls, Lesson Rect
	// Knobs is the strip of parameter sliders between the world and the
	// timeline; empty when the lesson has none. KnobCount is how many
	// cells it holds (see KnobLabel, KnobSlider, KnobVerdict).
	Knobs     Rect
	KnobCount int

	// Inside Lesson: a navigation row (back to the menu, keyboard help),
	// the title, the text, the goals, the hints.
	Nav, MenuButton, HelpButton           Rect
	LessonTitle, LessonText, Goals, Hints Rect
	// Inside Hints: the hint button's row, the run row (the run's own
	// buttons: Restart, Undo, Next lesson), a line for the hint.
	HintButton, RunRow, HintText Rect

	// Inside Controls, left to right.
	Play, Step, Scrub, Clock, SpeedLabel, Speed, Fork Rect
}

// TimelineWant is the height, in pixels at unit u, a timeline of lanes
// lanes wants: each lane its room to read, and the caption and the axis.
func TimelineWant(lanes int, u float64) float64 {
	return math.Round(u*laneChrome) + float64(lanes)*math.Round(u*laneWant)
}

// LayoutPlayer lays out the lesson player in window for a device scale
// factor. Every size is rounded to whole pixels so edges stay crisp.
func LayoutPlayer(window Rect, scale float64) PlayerLayout {
	return LayoutPlayerFor(window, scale, 0, 0)
}

// LayoutPlayerKnobs is LayoutPlayer with a strip for knobs sliders, cut
// from the bottom of the world so the sliders sit next to what they change.
func LayoutPlayerKnobs(window Rect, scale float64, knobs int) PlayerLayout {
	return LayoutPlayerFor(window, scale, knobs, 0)
}

// LayoutPlayerFor lays out the player for a lesson with the given number
// of knobs and timeline lanes: the timeline grows to give each lane room
// to read, as long as the world keeps its minimum height.
func LayoutPlayerFor(window Rect, scale float64, knobs, lanes int) PlayerLayout {
	return LayoutPlayerAt(window, UnitFor(window.W, window.H, scale), knobs, lanes)
}

// LayoutPlayerAt is LayoutPlayerFor with the layout unit u already worked
// out (draw.Style.Unit).
func LayoutPlayerAt(window Rect, u float64, knobs, lanes int) PlayerLayout {
	return LayoutPlayerWith(window, u, PlayerNeeds{Knobs: knobs, Lanes: lanes}, true)
}

// LayoutPlayerBare is LayoutPlayerAt without the lesson panel, for a page
// that shows the panel itself: the world, the timeline and the time
// controls get the whole window, and the panel's rectangles are empty.
func LayoutPlayerBare(window Rect, u float64, knobs, lanes int) PlayerLayout {
	return LayoutPlayerWith(window, u, PlayerNeeds{Knobs: knobs, Lanes: lanes}, false)
}

// PlayerNeeds is what a lesson's player makes room for: its knob
// sliders, its timeline's lanes (the timeline grows for them) and the
// least height of its world (0: any), to which the timeline's growth
// gives way, down to the timeline's usual height.
type PlayerNeeds struct {
	Knobs, Lanes int
	WorldH       float64
}

// LayoutPlayerWith is LayoutPlayerAt (panel) or LayoutPlayerBare (no
// panel) for a player with needs n.
func LayoutPlayerWith(window Rect, u float64, n PlayerNeeds, panel bool) PlayerLayout {
	px := func(v float64) float64 { return math.Round(v * u) }
	knobs, lanes := n.Knobs, n.Lanes
	l := PlayerLayout{Window: window, Unit: u}

	content := window.Inset(px(pad))
	if panel {
		lessonW := clamp(math.Round(window.W*0.30), px(lessonMin), px(lessonMax))
		l.Lesson, content = content.CutRight(lessonW, px(gap))
	}
	l.Controls, content = content.CutBottom(px(controlsH), px(gap))
	knobsH := 0.0
	if knobs > 0 {
		rows := (knobs + knobCols - 1) / knobCols
		knobsH = 2*px(innerGap) + float64(rows)*(px(knobLabelH)+px(knobSliderH)) + px(knobVerdictH)
	}
	// The usual height, grown for many lanes while the world keeps its
	// minimum (never below the usual height).
	base := clamp(math.Round(window.H*0.22), px(timelineMin), px(timelineMax))
	want := clamp(TimelineWant(lanes, u), base, px(timelineMax))
	// The world keeps more than half of what the timeline and it share.
	avail := content.H - 2*px(gap) - knobsH
	limit := avail - math.Max(px(MinWorldH), math.Round(avail*0.55))
	if n.WorldH > 0 {
		// A world that needs more room takes it from the lanes' growth.
		room := content.H - px(gap) - knobsH
		if knobs > 0 {
			room -= px(gap)
		}
		limit = math.Min(limit, room-n.WorldH)
	}
	floor := base
	if n.WorldH > 0 {
		// ... and from the usual height, down to what its lanes want.
		floor = math.Max(px(timelineMin), math.Min(base, TimelineWant(lanes, u)))
	}
	timelineH := math.Max(floor, math.Min(want, limit))
	l.Timeline, l.World = content.CutBottom(timelineH, px(gap))
	if knobs > 0 {
		l.Knobs, l.World = l.World.CutBottom(knobsH, px(gap))
		l.KnobCount = knobs
	}

	if panel {
		l.placePanel()
	}

	// Centre a row of MinControlH-tall widgets; rounding goes to the margins.
	bar := l.Controls.InsetXY(px(innerGap), math.Floor((l.Controls.H-px(MinControlH))/2))
	g := px(innerGap)
	l.Play, bar = bar.CutLeft(px(iconButtonW), g)
	l.Step, bar = bar.CutLeft(px(iconButtonW), g)
	l.Fork, bar = bar.CutRight(px(forkW), g)
	if !panel && bar.W-px(speedW+speedLabelW+clockW)-3*g < px(minScrubW) {
		// Too narrow for both (an upright phone): the play head keeps
		// its room, and the speed is set with [ and ] or the page's menu.
		l.Clock, l.Scrub = bar.CutRight(px(clockW), g)
		return l
	}
	l.Speed, bar = bar.CutRight(px(speedW), g)
	l.SpeedLabel, bar = bar.CutRight(px(speedLabelW), g)
	l.Clock, l.Scrub = bar.CutRight(px(clockW), g)
	return l
}

// minScrubW is the least width, in units, of a scrub slider beside the
// speed slider.
const minScrubW = 100

// placePanel divides the lesson panel: navigation, title, text, goals and
// hints.
func (l *PlayerLayout) placePanel() {
	px := func(v float64) float64 { return math.Round(v * l.Unit) }
	in := l.Lesson.Inset(px(pad))
	l.Nav, in = in.CutTop(px(navH), px(innerGap))
	l.MenuButton, _ = l.Nav.CutLeft(px(120), 0)
	l.HelpButton, _ = l.Nav.CutRight(px(96), 0)
	l.LessonTitle, in = in.CutTop(px(titleH), px(innerGap))
	l.Hints, in = in.CutBottom(px(hintButtonH+innerGap+runRowH+innerGap+hintTextH), px(innerGap))
	// Sum rounded rows, as GoalRow does, so the last row stays inside.
	l.Goals, l.LessonText = in.CutBottom(px(goalHeaderH)+MaxGoals*px(goalRowH), px(innerGap))
	l.HintButton, l.HintText = l.Hints.CutTop(px(hintButtonH), px(innerGap))
	l.RunRow, l.HintText = l.HintText.CutTop(px(runRowH), px(innerGap))
	l.HintButton, _ = l.HintButton.CutLeft(px(132), 0)
}

// knobCell is the cell of knob i inside the knob strip.
func (l PlayerLayout) knobCell(i int) Rect {
	px := func(v float64) float64 { return math.Round(v * l.Unit) }
	cols := min(l.KnobCount, knobCols)
	in := l.Knobs.InsetXY(px(pad), px(innerGap))
	w := math.Floor((in.W - float64(cols-1)*px(2*gap)) / float64(cols))
	rowH := px(knobLabelH) + px(knobSliderH)
	return Rect{X: in.X + float64(i%cols)*(w+px(2*gap)), Y: in.Y + float64(i/cols)*rowH, W: w, H: rowH}
}

// KnobLabel is the row naming knob i and its value.
func (l PlayerLayout) KnobLabel(i int) Rect {
	r, _ := l.knobCell(i).CutTop(math.Round(knobLabelH*l.Unit), 0)
	return r
}

// KnobSlider is knob i's slider.
func (l PlayerLayout) KnobSlider(i int) Rect {
	_, r := l.knobCell(i).CutTop(math.Round(knobLabelH*l.Unit), 0)
	return r
}

// KnobVerdict is the row under the sliders for the lesson's live check.
func (l PlayerLayout) KnobVerdict() Rect {
	px := func(v float64) float64 { return math.Round(v * l.Unit) }
	in := l.Knobs.InsetXY(px(pad), px(innerGap))
	r, _ := in.CutBottom(px(knobVerdictH), 0)
	return r
}

// GoalHeader is the row holding the checklist's heading.
func (l PlayerLayout) GoalHeader() Rect {
	r, _ := l.Goals.CutTop(math.Round(goalHeaderH*l.Unit), 0)
	return r
}

// GoalRow is the row for goal i (0-based, below [MaxGoals]).
func (l PlayerLayout) GoalRow(i int) Rect {
	h := math.Round(goalRowH * l.Unit)
	return Rect{l.Goals.X, l.Goals.Y + math.Round(goalHeaderH*l.Unit) + float64(i)*h, l.Goals.W, h}
}

// Regions names every rectangle, for tests and the browser bridge.
func (l PlayerLayout) Regions() map[string]Rect {
	m := l.regions()
	if l.RunRow.Empty() {
		delete(m, "runRow") // a player without one
	}
	if l.KnobCount > 0 {
		m["knobs"], m["knobVerdict"] = l.Knobs, l.KnobVerdict()
	}
	return m
}

func (l PlayerLayout) regions() map[string]Rect {
	return map[string]Rect{
		"world": l.World, "timeline": l.Timeline, "controls": l.Controls, "lesson": l.Lesson,
		"nav": l.Nav, "menu": l.MenuButton, "help": l.HelpButton, "lessonTitle": l.LessonTitle, "lessonText": l.LessonText, "goals": l.Goals, "runRow": l.RunRow, "hints": l.Hints,
		"hint": l.HintButton, "hintText": l.HintText,
		"play": l.Play, "step": l.Step, "scrub": l.Scrub, "clock": l.Clock,
		"speedLabel": l.SpeedLabel, "speed": l.Speed, "fork": l.Fork,
	}
}
