package lesson

import "leaselab/core/permalink"

// Link returns the permalink of the run in the scene: lesson, seed, knobs
// and the learner's log. Opening it reproduces the run exactly.
func (sc *Scene) Link() permalink.RunLink {
	return permalink.LessonLink(sc.Lab.Lesson.ID, sc.Lab.Seed, sc.Lab.Knobs(), sc.Lab.Log())
}
