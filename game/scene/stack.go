package scene

import (
	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/page"
	"leaselab/game/ui"
)

// Stack is a pile of scenes, the last on top: only the top one is
// updated, laid out and drawn, and what lies under it waits as it was.
// A scene changes the stack that updates it through State.Push, Pop and
// Replace; the change applies once its Update returns, so the scene
// finishes its tick before another is shown, and the Layout after the
// Update lays out the new top before it is drawn. Outside an Update (the
// host opening a link, a test) a change applies at once.
//
// The App's stack holds the menu and the lesson, exercise or sandbox
// opened from it; the sandbox stacks its run over its setup panel, an
// exercise its simulator or a checked run over its answer.
type Stack struct {
	scenes   []Scene
	updating bool
	queued   []func()
}

// NewStack returns a stack holding bottom, which is never popped.
func NewStack(bottom Scene) *Stack { return &Stack{scenes: []Scene{bottom}} }

// Top is the scene shown.
func (s *Stack) Top() Scene { return s.scenes[len(s.scenes)-1] }

// Push shows sc over the top scene.
func (s *Stack) Push(sc Scene) { s.do(func() { s.scenes = append(s.scenes, sc) }) }

// Pop returns to the scene under the top one (never past the bottom).
func (s *Stack) Pop() {
	s.do(func() {
		if len(s.scenes) > 1 {
			s.scenes = s.scenes[:len(s.scenes)-1]
		}
	})
}

// Replace shows sc instead of the top scene (over the bottom one when
// the top is the bottom).
func (s *Stack) Replace(sc Scene) {
	s.do(func() {
		if len(s.scenes) > 1 {
			s.scenes = s.scenes[:len(s.scenes)-1]
		}
		s.scenes = append(s.scenes, sc)
	})
}

// Home returns to the bottom scene.
func (s *Stack) Home() { s.do(func() { s.scenes = s.scenes[:1] }) }

func (s *Stack) do(change func()) {
	if s.updating {
		s.queued = append(s.queued, change)
		return
	}
	change()
}

// Update implements Scene: the top scene's Update, then the changes it
// asked for.
func (s *Stack) Update(st *State) error {
	outer := st.stack
	st.stack, s.updating = s, true
	err := s.Top().Update(st)
	st.stack, s.updating = outer, false
	for _, change := range s.queued {
		change()
	}
	s.queued = s.queued[:0]
	return err
}

// Layout implements Scene.
func (s *Stack) Layout(window ui.Rect, style draw.Style) { s.Top().Layout(window, style) }

// Draw implements Scene.
func (s *Stack) Draw(screen *ebiten.Image) { s.Top().Draw(screen) }

// Inspect implements Inspector.
func (s *Stack) Inspect() page.SceneInfo {
	if in, ok := s.Top().(Inspector); ok {
		return in.Inspect()
	}
	return page.SceneInfo{}
}

// Still implements Stiller for the top scene.
func (s *Stack) Still() bool {
	st, ok := s.Top().(Stiller)
	return ok && st.Still()
}

// Push shows sc over the scene being updated, once its Update returns.
func (st *State) Push(sc Scene) { st.stack.Push(sc) }

// Pop returns from the scene being updated to the one under it.
func (st *State) Pop() { st.stack.Pop() }

// Replace shows sc instead of the scene being updated.
func (st *State) Replace(sc Scene) { st.stack.Replace(sc) }
