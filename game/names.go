package game

import (
	"leaselab/game/page"
	"leaselab/game/scene"
)

// The scene plumbing lives in game/scene, so that a scene in a package of
// its own can be one; these names keep it where the Game, the mains and
// the tests read it.
type (
	Scene     = scene.Scene
	State     = scene.State
	Stack     = scene.Stack
	Inspector = scene.Inspector
	Stiller   = scene.Stiller
)

// NewStack returns a stack holding bottom, which is never popped.
func NewStack(bottom Scene) *Stack { return scene.NewStack(bottom) }

// Step is one tick of a scene as the Game runs it: Update, then Layout.
func Step(s Scene, st *State) error { return scene.Step(s, st) }

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
