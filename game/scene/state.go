package scene

import (
	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/page"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// Scene is one screen: the lesson menu, the lesson player, the sandbox.
// Each tick (60 a second) the Game calls Update, which reads input against
// what was last laid out and changes the scene's state, then Layout, which
// places everything for that state in the window. Draw, once per displayed
// frame, paints what Layout placed and changes nothing, so a scene opened
// or changed during Update is laid out before it is drawn.
type Scene interface {
	Update(st *State) error
	Layout(window ui.Rect, style draw.Style)
	Draw(screen *ebiten.Image)
}

// Step is one tick of a scene as the Game runs it: Update, then Layout.
func Step(s Scene, st *State) error {
	if err := s.Update(st); err != nil {
		return err
	}
	s.Layout(st.Window, st.Style)
	return nil
}

// Inspector is implemented by scenes that report what they show, for the
// browser tests and the HTML mirror that screen readers read.
type Inspector interface {
	Inspect() page.SceneInfo
}

// Stiller is implemented by scenes that can tell that nothing on them moves
// by itself: no playback, no search or check running. The Game stops
// drawing a scene that says so once the learner has been quiet a while
// (see game's idle.go).
type Stiller interface {
	Still() bool
}

// State is everything a scene may use. The Game owns it and refreshes it
// before each Update: the tick a view may read ([view.Env]: input, window,
// style, time), and the Stack the scene is on (see Push).
type State struct {
	view.Env

	// stack is the Stack updating the scene now (see Push).
	stack *Stack
}

// Stack is the Stack updating the scene now: a scene that opens another
// over itself later, outside its Update (the lesson's comparison), keeps it.
func (st *State) Stack() *Stack { return st.stack }
