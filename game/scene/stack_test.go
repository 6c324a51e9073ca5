package scene

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"

	"leaselab/game/draw"
	"leaselab/game/page"
	"leaselab/game/ui"
)

// scriptScene runs do in its Update and counts what the stack asks of it.
type scriptScene struct {
	name             string
	do               func(st *State)
	updates, layouts int
}

func (s *scriptScene) Update(st *State) error {
	s.updates++
	if s.do != nil {
		s.do(st)
	}
	return nil
}
func (s *scriptScene) Layout(ui.Rect, draw.Style) { s.layouts++ }
func (s *scriptScene) Draw(*ebiten.Image)         {}
func (s *scriptScene) Inspect() page.SceneInfo    { return page.SceneInfo{Name: s.name} }

func TestAPushDuringUpdateShowsTheSceneAfterThatUpdate(t *testing.T) {
	lesson := &scriptScene{name: "lesson"}
	menu := &scriptScene{name: "menu"}
	menu.do = func(st *State) {
		st.Push(lesson)
		assert.Equal(t, "menu", st.stack.Inspect().Name, "the menu finishes its tick on top")
	}
	s := NewStack(menu)
	st := &State{}
	assert.NoError(t, Step(s, st))
	assert.Equal(t, "lesson", s.Inspect().Name)
	assert.Equal(t, 0, lesson.updates, "the new top is not updated with the tick that opened it")
	assert.Equal(t, 1, lesson.layouts, "but laid out before it is drawn")
	assert.Equal(t, 0, menu.layouts)

	lesson.do = func(st *State) { st.Pop() }
	assert.NoError(t, Step(s, st))
	assert.Equal(t, "menu", s.Inspect().Name)
	s.Pop()
	assert.Equal(t, "menu", s.Inspect().Name, "the bottom scene is never popped")
}

func TestOutsideAnUpdateAChangeAppliesAtOnce(t *testing.T) {
	s := NewStack(&scriptScene{name: "menu"})
	s.Push(&scriptScene{name: "sandbox"})
	assert.Equal(t, "sandbox", s.Inspect().Name)
	s.Replace(&scriptScene{name: "lesson"})
	assert.Equal(t, "lesson", s.Inspect().Name)
	s.Push(&scriptScene{name: "run"})
	s.Home()
	assert.Equal(t, "menu", s.Inspect().Name)
}

// A scene's Push, Pop and Replace act on the stack updating it: the
// sandbox's own stack, not the App's under it.
func TestStateChangesTheStackThatUpdatesTheScene(t *testing.T) {
	run := &scriptScene{name: "run"}
	inner := NewStack(&scriptScene{name: "setup", do: func(st *State) { st.Push(run) }})
	outer := NewStack(&scriptScene{name: "menu"})
	outer.Push(inner)
	assert.NoError(t, Step(outer, &State{}))
	assert.Equal(t, "run", outer.Inspect().Name)
	assert.Len(t, outer.scenes, 2, "the App's stack kept its two scenes")
}
