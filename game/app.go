package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"leaselab/game/exercise"
	"leaselab/game/lesson"
	"reflect"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/menu"
	"leaselab/game/place"
	"leaselab/game/player"
	"leaselab/game/sandbox"
	"leaselab/game/ui"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// App is the whole lab: the menu and the lesson or exercise open. It is
// the scene the browser and desktop mains run. It keeps the learner's
// progress in a progress.Store, saving after every goal met, every
// exercise checked, and whenever the learner leaves a lesson or exercise.
type App struct {
	menu *menu.Scene
	// scenes holds the menu, with the lesson, exercise or sandbox opened
	// from it on top.
	scenes  *Stack
	lessons []*lessons.Lesson
	store   progress.Store
	prog    progress.Progress
	// known lists the lessons and exercises there are: progress in any
	// other is left out when read (progress.Catalog).
	known *progress.Catalog
	// Export saves the sandbox's exports (the browser downloads them,
	// the desktop writes files); nil refuses with a word.
	Export sandbox.Exporter
	// tip shows the whole of a text drawn cut under the pointer or the
	// focus, whatever the scene; window and style are the last layout's.
	tip    draw.FullTextTip
	window ui.Rect
	style  draw.Style
	// CheckBudget, if positive, is how long an exercise check may work in
	// one frame (form.DefaultBudget otherwise). The browser, whose frames
	// take far longer to draw, gives a check a larger share of each.
	CheckBudget time.Duration
	// ShareAnswer hands a learner's shared answer to the platform (the
	// page: a link on the clipboard; the desktop: a file); nil shows the
	// link to copy.
	ShareAnswer exercise.Sharer
}

// NewApp returns the lab showing the lesson menu, with progress loaded
// from store (nil: kept in memory only). Progress that cannot be read is
// set aside by the store and the menu says so.
func NewApp(store progress.Store) *App {
	if store == nil {
		store = progress.NewMemStore(nil, "")
	}
	a := &App{store: store, lessons: lessons.All(), known: Catalog()}
	var notice string
	a.prog, notice = progress.Open(store, a.known)
	a.menu = menu.NewScene(a.lessons, lessons.Exercises(), a, a.Open, a.OpenExercise)
	a.menu.Notice = notice
	a.menu.OnSandbox = func() { a.OpenSandbox("") }
	a.scenes = NewStack(a.menu)
	return a
}

// Catalog lists the lessons and exercises this LeaseLab has, for
// progress.Open and the other readers of saved progress.
func Catalog() *progress.Catalog {
	c := &progress.Catalog{}
	for _, l := range lessons.All() {
		c.Lessons = append(c.Lessons, l.ID)
	}
	for _, e := range lessons.Exercises() {
		c.Exercises = append(c.Exercises, e.ID)
	}
	return c
}

// show puts sc on screen over the menu, in place of whatever was open.
func (a *App) show(sc Scene) {
	a.scenes.Home()
	a.scenes.Push(sc)
}

// top is the scene on screen.
func (a *App) top() Scene { return a.scenes.Top() }

// OpenSandbox shows the sandbox's setup panel with preset loaded (the
// default setup if "").
func (a *App) OpenSandbox(preset string) (*sandbox.Scene, error) {
	sb, err := sandbox.New(preset, a.scenes.Home, a.export)
	if err != nil {
		return nil, err
	}
	a.show(sb)
	return sb, nil
}

func (a *App) export(name string, data []byte) (string, error) {
	if a.Export == nil {
		return "", fmt.Errorf("this build cannot save files")
	}
	return a.Export(name, data)
}

// openInSandbox carries lesson run sc over into the sandbox, after
// saving the lesson's progress.
func (a *App) openInSandbox(sc *lesson.Scene) {
	a.record(sc)
	lb, err := sc.Lab.OpenInSandbox()
	if err == nil {
		var sb *sandbox.Scene
		if sb, err = a.OpenSandbox(sc.Lab.Lesson.SandboxPreset); err == nil {
			sb.OpenRun(lb)
			return
		}
	}
	sc.Player.Narrate("Could not open this run in the sandbox: " + err.Error())
}

// GoalsMet implements menu.Progress.
func (a *App) GoalsMet(id string) (int, bool) {
	l := a.prog.Lesson(id)
	return len(l.GoalsMet), l.Completed
}

// Exercise implements menu.Progress.
func (a *App) Exercise(id string) progress.Exercise { return a.prog.Exercise(id) }

// save writes the progress merged with what another window saved since
// (progress.Sync), and adopts the merge; a failure is shown, and the
// progress stays in memory, so nothing the learner did is lost while the
// lab runs.
func (a *App) save() {
	merged, notice, err := progress.Sync(a.store, a.prog, a.known)
	if err != nil {
		a.menu.Notice = "Your progress could not be saved (" + err.Error() + "); it is kept until you close LeaseLab."
		return
	}
	a.prog = merged
	if notice != "" {
		a.menu.Notice = notice
	}
}

// Refresh merges in the progress another window or tab saved, so that its
// completions show here too, and saves the merge at once (the browser
// calls it on a storage event): browser tabs have no lock between them,
// so another tab's save may have replaced one of this tab's, which is
// written back now rather than at this tab's next save, which may never
// come. When the merge is what is saved, nothing is written, so two tabs
// come to rest.
func (a *App) Refresh() { a.save() }

// Flush records what the learner did in the open lesson or exercise since
// it was last saved, and saves it (the browser calls it when the tab is
// hidden or closed: no frame may run after). What did not change keeps
// its stamp, so a tab left open on an old run does not outrank, on
// closing, a newer run made in another tab.
func (a *App) Flush() {
	switch sc := a.top().(type) {
	case *lesson.Scene:
		a.record(sc)
	case *exercise.Scene:
		if sc.InSimulator() {
			// A reload comes back to the simulator (place.Simulator),
			// which replays the answer's schedule: the run so far.
			sc.TakeRun()
		}
		if sc.OnSave != nil {
			sc.OnSave()
		}
	default:
		a.save()
	}
}

// ExportProgress returns the learner's progress as a file to carry to
// another machine or browser (progress.Export), after saving what is in
// memory.
func (a *App) ExportProgress() ([]byte, error) {
	a.save()
	return progress.Encode(a.prog)
}

// ImportProgress merges an exported progress file into this lab's and
// saves it; importing only adds (progress.Import). The returned sentence
// says what happened, for the learner.
func (a *App) ImportProgress(data []byte) (string, error) {
	a.save()
	merged, notice, err := progress.Import(a.store, data, a.known)
	if err != nil {
		return "", err
	}
	a.prog = merged
	msg := fmt.Sprintf("Progress imported: %d lessons and %d exercises are recorded here now.", len(merged.Lessons), len(merged.Exercises))
	if notice != "" {
		msg += " " + notice
	}
	a.menu.Notice = msg
	return msg, nil
}

// record stores what a lesson scene reports.
func (a *App) record(sc *lesson.Scene) {
	l := sc.Lab.Lesson
	was := a.prog.Lesson(l.ID)
	p := was
	for i, met := range sc.Lab.Achieved() {
		if met && !slices.Contains(p.GoalsMet, l.Goals[i].ID) {
			p.GoalsMet = append(p.GoalsMet, l.Goals[i].ID)
		}
	}
	p.Completed = p.Completed || sc.Lab.AllMet()
	p.HintsSeen = max(p.HintsSeen, sc.Player.HintsSeen())
	// The learner's own run, even while the solution or a found break is
	// on show.
	knobs, mine := sc.Lab.MyRun()
	if log, err := json.Marshal(mine); err == nil {
		p.Log = log
	}
	p.Knobs = map[string]float64(l.Defaults(knobs))
	if !reflect.DeepEqual(p, was) {
		a.prog.SetLesson(l.ID, p) // a new stamp only for a change
	}
	a.save()
}

// Open starts lesson l.
func (a *App) Open(l *lessons.Lesson) {
	saved := a.prog.Lesson(l.ID)
	var sc *lesson.Scene
	spec := a.lessonSpec(l, &sc)
	spec.Sandbox = func() { a.openInSandbox(sc) }
	spec.HintsSeen = saved.HintsSeen
	sc, err := lesson.New(l, spec)
	if err != nil {
		a.menu.Notice = "Could not open " + l.Title + ": " + err.Error()
		return
	}
	// Carry on where the learner left off: the saved knobs and log,
	// replayed to the last action. A saved log that no longer fits the
	// lesson is dropped with a word, never a crash.
	if len(saved.Log) > 0 || len(saved.Knobs) > 0 {
		var log core.ActionLog
		err := json.Unmarshal(saved.Log, &log)
		if len(saved.Log) == 0 {
			err = nil
		}
		if err == nil {
			err = sc.Lab.Resume(lessons.Knobs(saved.Knobs), log)
		}
		if err != nil {
			sc.Player.Narrate("Your saved run of this lesson could not be replayed (" + err.Error() + "); starting it fresh.")
		} else if !sc.Lab.Pristine() {
			sc.Resumed()
		}
	}
	a.show(sc)
}

// lessonSpec is how the App opens a lesson scene (*sc, once built): back
// to the menu, its progress recorded on the way and whenever a goal is
// met.
func (a *App) lessonSpec(l *lessons.Lesson, sc **lesson.Scene) lesson.Spec {
	spec := lesson.Spec{
		Back: player.BackButton{Label: "< Lessons", Do: func() {
			a.record(*sc)
			a.scenes.Home()
		}},
		OnProgress: func(string, []bool, bool) { a.record(*sc) },
		MetBefore:  a.prog.Lesson(l.ID).GoalsMet,
	}
	if a.prog.Lesson(l.ID).Completed {
		// Complete on the menu, complete in the checklist (progress from
		// before goals had ids, or imported, may list fewer).
		spec.MetBefore = nil
		for _, g := range l.Goals {
			spec.MetBefore = append(spec.MetBefore, g.ID)
		}
	}
	// The next lesson in the menu's order, once this one is complete.
	if i := slices.Index(a.lessons, l); i >= 0 && i+1 < len(a.lessons) {
		next := a.lessons[i+1]
		spec.Next = &lesson.Next{Title: next.Title, Open: func() {
			a.record(*sc)
			a.Open(next)
		}}
	}
	return spec
}

// OpenID starts the lesson with the given id (for deep links and tests)
// and returns its scene.
func (a *App) OpenID(id string) (*lesson.Scene, error) {
	l, err := lessons.Find(id)
	if err != nil {
		return nil, err
	}
	a.Open(l)
	sc, ok := a.top().(*lesson.Scene)
	if !ok {
		return nil, fmt.Errorf("lesson %s did not open: %s", id, a.menu.Notice)
	}
	return sc, nil
}

// OpenExercise opens exercise ex with the learner's last answer.
func (a *App) OpenExercise(ex *lessons.Exercise) {
	n := 0
	for i, e := range lessons.Exercises() {
		if e == ex {
			n = i + 1
		}
	}
	saved := a.prog.Exercise(ex.ID)
	sc := exercise.New(ex, n, saved)
	sc.CheckBudget = a.CheckBudget
	sc.Restore(saved.Answer)
	sc.OnSave = func() {
		if b, err := sc.Form.Encode(); err == nil {
			if !bytes.Equal(b, a.prog.Exercise(ex.ID).Answer) {
				a.prog.SetAnswer(ex.ID, b) // a new stamp only for a change
			}
			a.save()
		}
	}
	sc.OnResult = func(r lessons.Result, complete bool) {
		a.prog.RecordAttempt(ex.ID, complete, r.Pass)
		if b, err := json.Marshal(r); err == nil {
			a.prog.SetResult(ex.ID, b)
		}
		sc.OnSave()
	}
	sc.OnReveal = func() {
		a.prog.Reveal(ex.ID)
		a.save()
	}
	sc.OnHint = func(n int) {
		a.prog.SeeHints(ex.ID, n)
		a.save()
	}
	sc.OnShare = a.ShareAnswer
	sc.OnBack = a.scenes.Home
	a.show(sc)
}

// OpenExerciseID opens the exercise with the given id (for deep links and
// tests) and returns its scene.
func (a *App) OpenExerciseID(id string) (*exercise.Scene, error) {
	ex, err := lessons.FindExercise(id)
	if err != nil {
		return nil, err
	}
	a.OpenExercise(ex)
	return a.top().(*exercise.Scene), nil
}

// Update implements Scene: the scene on show handles the tick. One it
// opens is laid out by the Layout that follows, before anything draws it.
func (a *App) Update(st *State) error {
	err := a.scenes.Update(st)
	a.tip.Update(&st.Input, player.TooltipDelay)
	return err
}

// Layout implements Scene.
func (a *App) Layout(window ui.Rect, style draw.Style) {
	a.window, a.style = window, style
	a.scenes.Layout(window, style)
}

// Draw implements Scene: the scene, then the whole of a cut text the
// pointer or focus rests on.
func (a *App) Draw(screen *ebiten.Image) {
	a.scenes.Draw(screen)
	a.style.FullTextTip(screen, &a.tip, a.window)
	draw.Flush()
}

// Inspect implements Inspector.
func (a *App) Inspect() SceneInfo {
	var info SceneInfo
	if in, ok := a.top().(Inspector); ok {
		info = in.Inspect()
	}
	info.Place = a.place(info)
	return info
}

// place is where the learner is, the screen on show being info.
func (a *App) place(info SceneInfo) place.Place {
	switch sc := a.top().(type) {
	case *lesson.Scene:
		return place.Place{Kind: place.Lesson, ID: sc.Lab.Lesson.ID}
	case *lesson.Comparison:
		return place.Place{Kind: place.Lesson, ID: sc.Lesson().Lab.Lesson.ID, Sub: "compare"}
	case *exercise.Scene:
		p := place.Place{Kind: place.Exercise, ID: sc.Ex.ID}
		if ex := info.Exercise; ex != nil && ex.Simulator {
			p.Sub = place.Simulator
		} else if info.Run != nil {
			p.Sub = "run"
		}
		return p
	case *exercise.Shared:
		return sc.Place()
	case *sandbox.Scene:
		p := place.Place{Kind: place.Sandbox, Sub: info.Name}
		if info.Compare != nil {
			p.Sub = "compare"
		}
		return p
	}
	return place.Place{Kind: place.Menu}
}

// Goto opens place p, as a bookmark, a reload or the browser's Back
// button asks: the lesson (where the learner left it), the exercise (its
// answer, or its simulator replaying the answer's schedule), the sandbox
// (its setup) or the menu. The lesson left is
// recorded first, as its back button does. A place already on show is
// left as it is; one that does not exist is refused and changes nothing.
func (a *App) Goto(p place.Place) error {
	// A shared answer's screen has no address of its own (its link is
	// the address): going anywhere leaves it.
	if cur := a.Inspect().Place; cur.Kind != place.Shared && cur.Fragment() == p.Fragment() {
		return nil
	}
	switch p.Kind {
	case place.Lesson:
		l, err := lessons.Find(p.ID)
		if err != nil {
			return err
		}
		a.leave()
		a.Open(l)
	case place.Exercise:
		ex, err := lessons.FindExercise(p.ID)
		if err != nil {
			return err
		}
		sc, same := a.top().(*exercise.Scene)
		if !same || sc.Ex != ex {
			a.leave()
			a.OpenExercise(ex)
			sc = a.top().(*exercise.Scene)
		}
		switch {
		case p.Sub == place.Simulator && !sc.InSimulator() && ex.Lab != nil:
			return sc.OpenSimulator()
		case p.Sub == "" && sc.InSimulator():
			sc.CloseSimulator()
		}
	case place.Sandbox:
		a.leave()
		if _, err := a.OpenSandbox(""); err != nil {
			return err
		}
	default:
		a.leave()
		a.scenes.Home()
	}
	return nil
}

// leave records the lesson on show, if one is, before another place
// replaces it.
func (a *App) leave() {
	switch sc := a.top().(type) {
	case *lesson.Scene:
		a.record(sc)
	case *lesson.Comparison:
		a.record(sc.Lesson())
	case *exercise.Scene:
		if sc.InSimulator() {
			sc.CloseSimulator() // the run becomes the answer's schedule, saved
		}
	}
}
