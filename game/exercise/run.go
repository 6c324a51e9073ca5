package exercise

import (
	"fmt"
	"leaselab/game/lesson"
	"leaselab/game/page"
	"leaselab/game/scene"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/player"
	"leaselab/game/ui"
)

// The players an exercise shows over its answer: the simulator, the
// ordinary lesson player on the exercise's Lab, whose back button returns
// to the answer and carries the run's action log into it; and the worst
// run of a checked design.

// runScreen is a player shown over the answer (the simulator, or the
// worst run of a checked design), which keeps the exercise's check going
// and reports the exercise with the run.
type runScreen struct {
	ex  *Scene
	run *lesson.Scene
}

// Update implements scene.Scene.
func (r *runScreen) Update(st *scene.State) error {
	err := r.run.Update(st)
	r.ex.work(st.Frame)
	return err
}

// Layout implements scene.Scene.
func (r *runScreen) Layout(window ui.Rect, style draw.Style) { r.run.Layout(window, style) }

// Draw implements scene.Scene.
func (r *runScreen) Draw(screen *ebiten.Image) { r.run.Draw(screen) }

// Inspect implements scene.Inspector.
func (r *runScreen) Inspect() page.SceneInfo {
	info := r.run.Inspect()
	info.Exercise = r.ex.info()
	return info
}

// Simulator is the exercise's simulator scene, nil until first opened.
func (s *Scene) Simulator() *lesson.Scene { return s.lab }

// OpenSimulator shows the simulator, built on first use and resumed with the
// answer's run, so the learner carries on where the answer stands.
func (s *Scene) OpenSimulator() error {
	if s.lab == nil {
		// The lab's solution is the model answer's run: offered only once
		// the model answer itself has been shown, and it never replaces
		// the learner's own run in the answer.
		sc, err := lesson.New(s.Ex.Lab, lesson.Spec{
			Back:            player.BackButton{Label: "< Answer", Tip: "Back to the answer, with this run as its schedule (Esc)", Do: s.CloseSimulator},
			Solution:        s.showModelRun,
			SolutionOffered: func() bool { return s.shown },
		})
		if err != nil {
			return err
		}
		if log := s.Form.Schedule(); len(log) > 0 {
			if err := sc.Lab.Resume(nil, log); err != nil {
				sc.Player.Narrate("Your answer's run could not be replayed (" + err.Error() + "); starting afresh.")
			} else {
				// Show the whole run, not one cut at its last action: the
				// evidence (a handover, a stale write) comes after it.
				sc.Lab.Seek(sc.Lab.Length())
			}
		}
		s.lab = sc
	}
	s.scenes.Push(&runScreen{ex: s, run: s.lab})
	s.Narrate("Opened the simulator. Its back button returns to the answer with your run.")
	return nil
}

// showModelRun plays the model answer's run in the simulator, keeping
// the learner's own run for the answer.
func (s *Scene) showModelRun() {
	if !s.solutionShown {
		s.ownRun = append(core.ActionLog(nil), s.Form.Schedule()...)
	}
	s.solutionShown = true
	s.lab.ShowSolution()
	s.lab.Player.Narrate("This is the model run. Your own run stays your answer unless you change this one.")
}

// CloseSimulator returns from the simulator, carrying its action log into the
// answer.
func (s *Scene) CloseSimulator() {
	s.scenes.Pop()
	s.lab.Play(false)
	s.TakeRun()
	s.Narrate("Back to the answer. " + form.RunText(s.Form.Schedule()))
	s.save()
}

// InSimulator reports that the simulator is on show.
func (s *Scene) InSimulator() bool {
	r, ok := s.scenes.Top().(*runScreen)
	return ok && r.run == s.lab
}

// TakeRun makes the simulator's run the answer's schedule (the model run,
// untouched, leaves the learner's own in place).
func (s *Scene) TakeRun() {
	log := s.lab.Lab.Log()
	if s.solutionShown && slices.Equal(log, s.Ex.Lab.Solution) {
		// The model run, untouched: the learner's answer keeps theirs.
		log = s.ownRun
	}
	if err := s.Form.SetSchedule(log); err != nil {
		s.notice = "Your run could not be used as the answer's schedule: " + err.Error()
	} else {
		s.notice = ""
	}
}

// shows reports whether sc is the player on show.
func (s *Scene) shows(sc *lesson.Scene) bool {
	r, ok := s.scenes.Top().(*runScreen)
	return ok && sc != nil && r.run == sc
}

// watchWorstRun opens the last checked design's worst run in the player,
// as the "Worst run" tab does.
func (s *Scene) watchWorstRun() error {
	if s.result == nil || s.result.Replay == nil {
		return fmt.Errorf("no checked run to watch")
	}
	var sc *lesson.Scene
	sc, err := lesson.New(s.result.Replay, lesson.Spec{
		Back: player.BackButton{Label: "< Answer", Do: func() {
			sc.Play(false)
			s.watch = nil
			s.scenes.Pop()
			s.Narrate("Back to the answer.")
		}},
		NoSolution: true, // a recorded run has none
	})
	if err != nil {
		return err
	}
	s.watch = sc
	s.scenes.Push(&runScreen{ex: s, run: sc})
	s.Narrate("Watching " + s.result.Replay.Title + ". Its back button returns to the answer.")
	return nil
}
