package game

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
	Inspect() SceneInfo
}

// What a scene tells the page around the canvas lives in game/page; these
// names keep it where the mains, the wasm page and the tests read it.
type (
	SceneInfo      = page.SceneInfo
	Mirror         = page.Mirror
	Done           = page.Done
	ChecklistWords = page.ChecklistWords
	RunButton      = page.RunButton
	RecapInfo      = page.RecapInfo
	RunInfo        = page.RunInfo
	ProcInfo       = page.ProcInfo
	WriteInfo      = page.WriteInfo
	CompareInfo    = page.CompareInfo
	SystemsInfo    = page.SystemsInfo
	ExerciseInfo   = page.ExerciseInfo
	ResultInfo     = page.ResultInfo
	PartInfo       = page.PartInfo
	SharedInfo     = page.SharedInfo
)

// State is everything a scene may use. The Game owns it and refreshes it
// before each Update: the tick a view may read ([view.Env]: input, window,
// style, time), and the Stack the scene is on (see Push).
type State struct {
	view.Env

	// stack is the Stack updating the scene now (see Push).
	stack *Stack
}
