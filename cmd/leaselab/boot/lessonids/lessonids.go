// Package lessonids lists the ids of LeaseLab's lessons and exercises, as a
// [progress.Catalog], for code that runs before the lessons can be loaded.
//
// The desktop program exports and imports progress before Ebitengine starts
// (see package boot), and progress read for an id LeaseLab does not have is
// dropped, so it needs the list of ids. The lessons package holds them, but
// it imports packages that sort after Ebitengine and so are initialised
// after it; this package, in the early module boot.leaselab, has a copy in
// ids.go instead. The copy is written by a test of the lessons package,
// which fails when the copy and lessons.All and lessons.Exercises disagree;
// it says how to write it again:
//
//	go test ./lessons -run TestLessonIDsListEveryLessonAndExercise -write-lesson-ids
package lessonids

import (
	"slices"

	"boot.leaselab/progress"
)

// Catalog returns the lessons' and exercises' ids, in curriculum order.
func Catalog() *progress.Catalog {
	return &progress.Catalog{Lessons: slices.Clone(lessons), Exercises: slices.Clone(exercises)}
}
