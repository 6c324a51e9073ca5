package game

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/ui"
	"leaselab/lessons"
)

// App is the whole lab: the lesson menu and the lesson being played. It is
// the scene the browser and desktop mains run.
type App struct {
	menu    *Menu
	current Scene
	record  *Record
	lessons []*lessons.Lesson
}

// Record keeps the goals met per lesson in memory and tells Save (if set)
// after every change, so the host can persist it.
type Record struct {
	Met  map[string][]bool
	Done map[string]bool
	Save func(*Record)
}

// GoalsMet implements Progress.
func (r *Record) GoalsMet(id string) (int, bool) {
	n := 0
	for _, ok := range r.Met[id] {
		if ok {
			n++
		}
	}
	return n, r.Done[id]
}

func (r *Record) update(id string, met []bool, done bool) {
	if r.Met == nil {
		r.Met, r.Done = map[string][]bool{}, map[string]bool{}
	}
	old := r.Met[id]
	for i := range met {
		met[i] = met[i] || (i < len(old) && old[i])
	}
	r.Met[id] = met
	r.Done[id] = r.Done[id] || done
	if r.Save != nil {
		r.Save(r)
	}
}

// NewApp returns the lab showing the lesson menu. record may be nil.
func NewApp(record *Record, notice string) *App {
	if record == nil {
		record = &Record{}
	}
	a := &App{record: record, lessons: lessons.All()}
	a.menu = NewMenu(a.lessons, record, a.Open)
	a.menu.Notice = notice
	a.current = a.menu
	return a
}

// Open starts lesson l.
func (a *App) Open(l *lessons.Lesson) {
	sc, err := NewLessonScene(l, func() { a.current = a.menu })
	if err != nil {
		a.menu.Notice = "Could not open " + l.Title + ": " + err.Error()
		return
	}
	sc.OnProgress = a.record.update
	a.current = sc
}

// OpenID starts the lesson with the given id (for deep links and tests)
// and returns its scene.
func (a *App) OpenID(id string) (*LessonScene, error) {
	l, err := lessons.Find(id)
	if err != nil {
		return nil, err
	}
	a.Open(l)
	sc, ok := a.current.(*LessonScene)
	if !ok {
		return nil, fmt.Errorf("lesson %s did not open: %s", id, a.menu.Notice)
	}
	return sc, nil
}

// Update implements Scene. A scene opened during this update gets a first
// update of its own, with no input, so that it is laid out before it is
// drawn (Ebitengine may draw before the next update).
func (a *App) Update(st *State) error {
	cur := a.current
	if err := cur.Update(st); err != nil {
		return err
	}
	if a.current != cur {
		in := st.Input
		st.Input = ui.Input{Cursor: ui.Point{X: -1, Y: -1}, WindowW: in.WindowW, WindowH: in.WindowH, Scale: in.Scale}
		err := a.current.Update(st)
		st.Input = in
		return err
	}
	return nil
}

// Draw implements Scene.
func (a *App) Draw(screen *ebiten.Image) { a.current.Draw(screen) }

// Inspect implements Inspector.
func (a *App) Inspect() SceneInfo {
	if in, ok := a.current.(Inspector); ok {
		return in.Inspect()
	}
	return SceneInfo{}
}
