package game

import (
	"fmt"
	"leaselab/game/lesson"
	"math"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/game/view"
	"leaselab/lessons"
)

// clickAt presses and releases the mouse at p.
func (r *appRig) clickAt(p ui.Point) {
	r.t.Helper()
	r.tick(ui.Input{Cursor: p, MouseDown: true, MouseJustDown: true})
	r.tick(ui.Input{Cursor: p, MouseJustUp: true})
}

func (r *appRig) key(i ui.Intent) { r.t.Helper(); r.tick(ui.Input{Keys: ui.KeysOf(i)}) }

// setKnob drags knob id's slider to v with the mouse.
func (r *appRig) setKnob(sc *lesson.Scene, id string, v float64) {
	r.t.Helper()
	rect := r.region("knob:" + id)
	var k lessons.Knob
	for _, x := range sc.Lab.Lesson.Knobs {
		if x.ID == id {
			k = x
		}
	}
	sl := ui.Slider{Rect: rect, Min: k.Min, Max: k.Max, Step: k.Step}
	x0, x1, y := sl.Track()
	r.clickAt(ui.Point{X: x0 + (x1-x0)*(v-k.Min)/(k.Max-k.Min), Y: y})
	if got := sc.Lab.Knobs()[id]; math.Abs(got-v) > 1e-9 {
		r.t.Fatalf("knob %s: clicked for %v, got %v", id, v, got)
	}
}

// menuItem finds the menu entry that performs a.
func menuItem(menu []lab.Choice, a core.Action) int {
	for i, m := range menu {
		b := m.Action
		// A member's menu cuts it off from its peers or its clients, and
		// reads serializable or linearizable (On): Peer and On tell apart.
		if !m.NextToken && b.Do == a.Do && b.Key == a.Key && b.TTL == a.TTL && b.Token == a.Token && b.Peer == a.Peer && b.On == a.On &&
			(a.Do != "pause" && a.Do != core.VerbSlowDisk || b.For == a.For) && (a.Do != core.VerbFix || b.Value == a.Value) {
			return i
		}
	}
	return -1
}

// perform does one solution action through the player: with the mouse
// (click the actor, then its menu entry, or the switch) or the keyboard
// (digits and N to select, Up/Down and Enter in the menu, T and I).
func (r *appRig) perform(sc *lesson.Scene, a core.Action, keys bool) {
	r.t.Helper()
	w := sc.World()
	switch a.Do {
	case "fencing", "idempotency":
		on := false
		v := sc.Lab.World()
		switch {
		case a.Do == "idempotency":
			on = v.Queue.Idempotency
		case v.Store != nil:
			on = v.Store.Fencing
		default:
			on = v.Offsets.Fencing
		}
		if on == a.On {
			return
		}
		switch {
		case !keys:
			r.click(string(a.Do))
		case a.Do == "fencing":
			r.key(ui.IntentFencing)
		default:
			r.key(ui.IntentIdem)
		}
		return
	}
	idx := -1
	for i, ac := range w.Actors() {
		if ac.Name == a.Proc {
			idx = i
		}
	}
	if idx < 0 {
		r.t.Fatalf("no actor %s on screen", a.Proc)
	}
	if keys {
		if idx < 9 {
			r.tick(ui.Input{Digit: idx + 1})
		} else {
			r.tick(ui.Input{Digit: 9})
			for range idx - 8 {
				r.key(ui.IntentNextActor)
			}
		}
	} else {
		r.click("proc:" + a.Proc)
	}
	if w.Selected() != idx {
		r.t.Fatalf("%s not selected (selected %d)", a.Proc, w.Selected())
	}
	i := menuItem(w.Menu(), a)
	if i < 0 {
		r.t.Fatalf("%s's menu has no entry for %s: %+v", a.Proc, a, w.Menu())
	}
	if keys {
		for w.Highlighted() != i {
			r.key(ui.IntentDown)
		}
		r.key(ui.IntentActivate)
	} else {
		r.click(view.ActID(a.Proc, w.Menu()[i].ID))
	}
}

// TestEveryLessonSolvedThroughThePlayer opens every lesson from the menu,
// sets the solution's knobs with the sliders, plays the solution's
// actions with the mouse and again with the keyboard at their times, and
// checks that every goal ticks.
func TestEveryLessonSolvedThroughThePlayer(t *testing.T) {
	for _, l := range lessons.All() {
		for _, keys := range []bool{false, true} {
			how := map[bool]string{false: "mouse", true: "keys"}[keys]
			t.Run(l.ID+"/"+how, func(t *testing.T) {
				start := time.Now()
				r := newAppRig(t)
				r.click("lesson:" + l.ID)
				sc, ok := r.a.top().(*lesson.Scene)
				if !ok {
					t.Fatal("the lesson did not open")
				}
				r.tick(ui.Input{})
				for id, v := range l.SolutionKnobs {
					r.setKnob(sc, id, v)
				}
				for _, ta := range l.Solution.Sorted() {
					sc.Lab.Seek(ta.At.D())
					r.tick(ui.Input{})
					r.perform(sc, ta.Action, keys)
				}
				if got, want := len(sc.Lab.Log()), len(l.Solution); got != want {
					t.Fatalf("log has %d actions, want %d: %v", got, want, sc.Lab.Log())
				}
				for sc.Lab.Now() < sc.Lab.Length() {
					sc.Lab.Advance(time.Second)
					r.tick(ui.Input{})
				}
				t.Logf("now %v knobs %v", sc.Lab.Now(), sc.Lab.Knobs())
				for i, g := range r.a.Inspect().Mirror.Goals {
					if !g.Met {
						t.Errorf("goal %d (%s) not met; log %v", i+1, l.Goals[i].ID, sc.Lab.Log())
					}
				}
				if !r.a.Inspect().Run.Complete {
					t.Error("lesson not complete")
				}
				t.Logf("%s by %s in %v", l.ID, how, time.Since(start).Round(time.Millisecond))
			})
		}
	}
}

// TestEveryLessonDrawsAtSmallAndLargeSizes draws each lesson's solution
// mid-run at 1024x640 and 3840x2160 (nothing may panic), and checks the
// world's clickable regions stay inside the world and apart.
func TestEveryLessonDrawsAtSmallAndLargeSizes(t *testing.T) {
	for _, l := range lessons.All() {
		for _, sz := range [][2]float64{{1024, 640}, {3840, 2160}} {
			t.Run(fmt.Sprintf("%s/%vx%v", l.ID, sz[0], sz[1]), func(t *testing.T) {
				r := newAppRig(t)
				r.resize(sz[0], sz[1])
				r.click("lesson:" + l.ID)
				sc := r.a.top().(*lesson.Scene)
				sc.ShowSolution()
				sc.Play(false)
				sc.Seek(l.Duration * 2 / 3)
				r.tick(ui.Input{})
				info := r.a.Inspect()
				world := info.Regions["world"]
				checkApart(t, info.Regions, "proc:", world)
				if k, ok := info.Regions["knobs"]; ok && (k.Overlaps(world) || k.Overlaps(info.Regions["timeline"])) {
					t.Errorf("knob strip %v overlaps the world or timeline", k)
				}
				screen := ebiten.NewImage(int(sz[0]), int(sz[1]))
				r.a.Draw(screen)
				screen.Deallocate()
			})
		}
	}
}
