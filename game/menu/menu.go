package menu

import (
	"fmt"

	"leaselab/core"
	"leaselab/game/ui"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// Progress is what the menu needs to know about the learner's progress.
type Progress interface {
	// GoalsMet returns how many of lesson id's goals the learner has met
	// and whether the lesson is complete.
	GoalsMet(id string) (met int, complete bool)
	// Exercise returns the learner's standing in exercise id: attempts,
	// and whether a pass was earned or came after the answer was shown.
	Exercise(id string) progress.Exercise
}

// The menu's ids: "sandbox", "lesson:ID" and "exercise:ID", on the page,
// as the canvas's regions and focus, and in tests.
const SandboxID = "sandbox"

// LessonID is the id of lesson l's row.
func LessonID(l *lessons.Lesson) string { return "lesson:" + l.ID }

// ExerciseID is the id of exercise e's row.
func ExerciseID(e *lessons.Exercise) string { return "exercise:" + e.ID }

// The page's groups, which are the canvas's sections.
const (
	GroupSandbox   = "Sandbox"
	GroupLessons   = "Lessons"
	GroupExercises = "Exercises"
)

// Menu is the menu's rows and what opening each does.
type Menu struct {
	Lessons   []*lessons.Lesson
	Exercises []*lessons.Exercise
	Progress  Progress
	// Open starts a lesson, OpenExercise an exercise; OnSandbox, when
	// set, opens the sandbox (otherwise the menu offers none).
	Open         func(*lessons.Lesson)
	OpenExercise func(*lessons.Exercise)
	OnSandbox    func()

	// Deck holds the declarations and the canvas's buttons made from
	// them.
	Deck ui.Deck
}

// Declare declares the rows anew (the learner's progress may have moved)
// and reports whether their ids changed.
func (m *Menu) Declare() (changed bool) { return m.Deck.Declare(m.controls()) }

// controls are the rows: the sandbox, each lesson and each exercise, with
// what it is about, the learner's progress and about how long it takes.
func (m *Menu) controls() ui.Controls {
	var out ui.Controls
	if open := m.OnSandbox; open != nil {
		out = append(out, ui.Control{ID: SandboxID, Group: GroupSandbox, Label: "Sandbox: free play", Kind: ui.KindLink,
			Detail: "Any scenario, any coordinator, every control; no goals.",
			Do:     func(ui.HostAction) { open() }})
	}
	for i, l := range m.Lessons {
		out = append(out, ui.Control{ID: LessonID(l), Group: GroupLessons, Kind: ui.KindLink,
			Label:  fmt.Sprintf("%d. %s", i+1, l.Title),
			Detail: fmt.Sprintf("%s About %d min. %s.", l.Summary, l.Minutes, core.Capitalise(m.Status(l))),
			Do:     func(ui.HostAction) { m.Open(l) }})
	}
	for i, e := range m.Exercises {
		out = append(out, ui.Control{ID: ExerciseID(e), Group: GroupExercises, Kind: ui.KindLink,
			Label:  fmt.Sprintf("E%d. %s", i+1, e.Title),
			Detail: fmt.Sprintf("%s About %d min. %s.", e.Summary, e.Minutes, core.Capitalise(m.ExerciseStatus(e))),
			Do:     func(ui.HostAction) { m.OpenExercise(e) }})
	}
	return out
}

// Update passes this tick's uses of the rows through the deck's one door:
// the page's, a click or Enter on the canvas, and a digit key, which opens
// that lesson as a click on its row does. It reports whether a row was
// opened and returns the page's uses the menu has no row for.
func (m *Menu) Update(in *ui.Input) (opened bool, rest []ui.HostAction) {
	if in.Digit > 0 && in.Digit <= len(m.Lessons) {
		in.Host = append(in.Host[:len(in.Host):len(in.Host)], ui.HostAction{ID: LessonID(m.Lessons[in.Digit-1])})
	}
	opened, rest, _ = m.Deck.Update(in) // no row is ever disabled
	return opened, rest
}

// Status is lesson l's progress: complete, N of M goals, or not started.
func (m *Menu) Status(l *lessons.Lesson) string {
	met, done := m.Progress.GoalsMet(l.ID)
	switch {
	case done:
		return "complete"
	case met > 0:
		return fmt.Sprintf("%d of %d goals", met, len(l.Goals))
	}
	return "not started"
}

// ExerciseStatus is an exercise's progress: passed, tried N times, or not
// tried.
func (m *Menu) ExerciseStatus(e *lessons.Exercise) string {
	return m.Progress.Exercise(e.ID).Status()
}
