package game

import (
	"image"
	"leaselab/game/lesson"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// benchLesson opens a lesson with its solution playing at 4x, as a learner
// watching it would, at 1280x800.
func benchLesson(b *testing.B, id string) (*App, *State) {
	b.Helper()
	a := NewApp(nil)
	sc, err := a.OpenID(id)
	if err != nil {
		b.Fatal(err)
	}
	sc.ShowSolution()
	sc.Play(true)
	st := &State{Env: view.Env{Window: ui.Rect{W: 1280, H: 800}, Style: draw.NewStyle(ui.UnitFor(1280, 800, 1))}}
	st.Input = ui.Input{Cursor: ui.Point{X: -1, Y: -1}, WindowW: 1280, WindowH: 800, Scale: 1}
	for range 4 { // 4x
		st.Input.Keys = ui.KeysOf(ui.IntentFaster)
		if err := Step(a, st); err != nil {
			b.Fatal(err)
		}
	}
	st.Input.Keys = 0
	return a, st
}

// BenchmarkLessonFrame measures the CPU side of one frame of the lesson
// player: Update (simulation, goals, narration, widgets) plus Draw (vertex
// and text layout; the GPU work is not in it). Targets (issue 18):
// fenced-writes <= 1.5 ms, shards <= 3 ms.
func BenchmarkLessonFrame(b *testing.B) {
	for _, id := range []string{"fenced-writes", "shards", "scheduler"} {
		b.Run(id, func(b *testing.B) {
			a, st := benchLesson(b, id)
			sc := a.top().(*lesson.Scene)
			benchFrames(b, a, st, func() {
				if sc.Lab.Now() >= sc.Lab.Length() {
					sc.ShowSolution()
				}
			})
		})
	}
}

// benchFrames times b.N frames of a at 1280x800: Update and Draw, with
// between run outside the timer after each.
func benchFrames(b *testing.B, a *App, st *State, between func()) {
	b.Helper()
	screen := ebiten.NewImage(1280, 800)
	pixel := make([]byte, 4)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.Tick++
		if err := Step(a, st); err != nil {
			b.Fatal(err)
		}
		a.Draw(screen)
		draw.EndFrame()
		// Run the queued GPU work outside the timer, as the end of a
		// real frame would; otherwise commands pile up.
		b.StopTimer()
		screen.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image).ReadPixels(pixel)
		between()
		b.StartTimer()
	}
}

// BenchmarkLessonUpdate is a tick without drawing: Update and Layout.
func BenchmarkLessonUpdate(b *testing.B) {
	a, st := benchLesson(b, "fenced-writes")
	sc := a.top().(*lesson.Scene)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if sc.Lab.Now() >= sc.Lab.Length() {
			b.StopTimer()
			sc.ShowSolution()
			b.StartTimer()
		}
		st.Tick++
		if err := Step(a, st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExerciseFrame measures the CPU side of one frame of an exercise
// screen with a checked answer on show: Update (form layout, widgets) plus
// Draw. Target: 4 ms, like the player.
func BenchmarkExerciseFrame(b *testing.B) {
	for _, id := range []string{"renew-ttl-pause", "token-logs"} {
		b.Run(id, func(b *testing.B) {
			a := NewApp(nil)
			sc, err := a.OpenExerciseID(id)
			if err != nil {
				b.Fatal(err)
			}
			if err := sc.LoadModelAnswer(); err != nil {
				b.Fatal(err)
			}
			st := &State{Env: view.Env{Window: ui.Rect{W: 1280, H: 800}, Style: draw.NewStyle(ui.UnitFor(1280, 800, 1))}}
			st.Input = ui.Input{Cursor: ui.Point{X: -1, Y: -1}, WindowW: 1280, WindowH: 800, Scale: 1}
			sc.StartCheck()
			for sc.Checking() {
				if err := Step(a, st); err != nil {
					b.Fatal(err)
				}
			}
			benchFrames(b, a, st, func() {})
		})
	}
}
