package main

import (
	"fmt"
	"io"

	"boot.leaselab/lessonids"
	"boot.leaselab/progress"
)

// The learner's progress, kept in the same file as the desktop program's
// (leaselab --progress, or <user config dir>/leaselab/progress.json): an
// exercise's attempts checked here open its model answer and last hint on
// the desktop too, and the other way round. labctl never replaces what the
// file holds: what it records is merged in under the file's lock
// (progress.Sync), so a desktop window saving at the same time loses
// nothing either.

// progressFlag is the --progress flag's help, the same for every command
// that reads progress.
const progressFlag = `--progress FILE  the progress file (default: the desktop's,
               <user config dir>/leaselab/progress.json)`

// learner is the progress file a command reads and records into.
type learner struct {
	store progress.Store
	p     progress.Progress
}

// openProgress opens the progress file at path ("" for the desktop's). A
// notice about it (data set aside, ids left out) goes to stderr.
func openProgress(path string, stderr io.Writer) (*learner, error) {
	if path == "" {
		p, err := progress.DefaultPath()
		if err != nil {
			return nil, fmt.Errorf("no folder to keep progress in (%v); give --progress FILE", err)
		}
		path = p
	}
	s := progress.NewFileStore(path)
	p, notice := progress.Open(s, lessonids.Catalog())
	if notice != "" {
		fmt.Fprintln(stderr, "labctl: "+notice)
	}
	return &learner{store: s, p: p}, nil
}

// exercise returns the progress in exercise id.
func (l *learner) exercise(id string) progress.Exercise { return l.p.Exercise(id) }

// recordExercise changes exercise id's progress with change and saves it,
// merged into what the file holds now. The entry keeps its change stamp:
// an answer saved meanwhile by the desktop is newer and stays.
func (l *learner) recordExercise(id string, change func(p *progress.Progress)) error {
	was := l.p.Exercise(id)
	q := progress.New()
	q.Exercises[id] = was
	change(&q)
	e := q.Exercises[id]
	e.Updated = was.Updated
	q.Exercises[id] = e
	return l.sync(q)
}

// recordLessonHints records that n hint rungs of lesson id were shown.
func (l *learner) recordLessonHints(id string, n int) error {
	was := l.p.Lesson(id)
	was.HintsSeen = max(was.HintsSeen, n)
	q := progress.New()
	q.Lessons[id] = was
	return l.sync(q)
}

func (l *learner) sync(q progress.Progress) error {
	merged, _, err := progress.Sync(l.store, q, lessonids.Catalog())
	if err != nil {
		return err
	}
	l.p = merged
	return nil
}

// recordGoals records that the goals met were met in lesson id.
func (l *learner) recordGoals(id string, met []string) error {
	q := progress.New()
	q.Lessons[id] = l.p.Lesson(id)
	for _, g := range met {
		q.MeetGoal(id, g)
	}
	return l.sync(q)
}
