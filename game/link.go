package game

import (
	"fmt"
	"leaselab/game/exercise"
	"leaselab/game/lesson"

	"leaselab/core/permalink"
	"leaselab/game/sandbox"
	"leaselab/game/view"
	"leaselab/lessons"
)

// OpenLink opens a lesson or sandbox permalink (the text after #run=, a
// whole URL, or the bare code): the lesson (or the sandbox setup) with the
// link's seed, knobs and action log, the play head at its last action. A link that is malformed, for another
// kind of run, or does not fit its lesson returns an error and leaves the
// current scene exactly as it was.
func (a *App) OpenLink(s string) (*lesson.Scene, error) {
	l, err := permalink.DecodeLink(s)
	if err != nil {
		return nil, err
	}
	if l.Kind == permalink.LinkSandbox {
		sb, err := sandbox.OpenLink(l, a.scenes.Home, a.export)
		if err != nil {
			return nil, err
		}
		a.show(sb)
		return sb.Run, nil
	}
	if l.Kind != permalink.LinkLesson {
		return nil, fmt.Errorf("this is a %s link: replay it with labctl run --load", l.Kind)
	}
	ls, err := lessons.Find(l.Name)
	if err != nil {
		return nil, err
	}
	knobs, err := l.Knobs()
	if err != nil {
		return nil, err
	}
	var sc *lesson.Scene
	sc, err = lesson.New(ls, a.lessonSpec(ls, &sc))
	if err != nil {
		return nil, err
	}
	sc.Lab.Seed = l.Seed
	if err := sc.Lab.Resume(lessons.Knobs(knobs), l.Log); err != nil {
		return nil, fmt.Errorf("the link does not fit lesson %s: %w", ls.ID, err)
	}
	sc.Player.Narrate("Opened a shared run: " + view.ActionsText(len(l.Log)) + " replayed.")
	a.show(sc)
	return sc, nil
}

// CurrentLink returns the link of the lesson or sandbox run being
// played, if any; a sandbox run whose setup no link can hold says why.
func (a *App) CurrentLink() (permalink.RunLink, bool, error) {
	switch sc := a.top().(type) {
	case *lesson.Scene:
		return sc.Link(), true, nil
	case *sandbox.Scene:
		if sc.Run != nil {
			l, err := sc.Link()
			return l, true, err
		}
	}
	return permalink.RunLink{}, false, nil
}

// Notify shows a message where the learner is looking: the lesson's
// narration, or the menu's notice.
func (a *App) Notify(msg string) {
	if sc, ok := a.top().(*lesson.Scene); ok {
		sc.Player.Notice(msg) // over the world, and told
		return
	}
	a.menu.Notice = msg
}

// OpenShare opens a shared answer (a link with #share=, its code, or a
// share's JSON) on its own screen and grades it again there. A share
// that cannot be read opens the screen with why, never anything else.
func (a *App) OpenShare(text string) *exercise.Shared {
	a.leave()
	sc := exercise.NewShared(text)
	sc.OnBack = a.scenes.Home
	if ex := sc.Ex; ex != nil {
		sc.OnOpen = func() { a.OpenExercise(ex) }
	}
	a.show(sc)
	return sc
}
