// Package exercise plays one assessment exercise: the [Scene], a stack of
// screens over the exercise's shared state (state.go) with the answer form
// at its bottom (answerForm, in answer.go with its update, layout, view,
// host and info files) and, over it, the simulator or the worst run of a
// checked design (run.go); the check builder the form holds for exercise 5
// (query.go); sharing a graded answer (share.go); and [Shared], a shared
// answer graded again on a screen of its own (shared.go).
//
// The chain builder the form holds for exercises 1 and 3 is game/answer's,
// and the answer itself game/form's. The App (package game) opens a scene,
// records the learner's progress through its hooks (OnSave, OnResult...)
// and places it; its tests that drive the whole lab stay there, while the
// tests of a screen's own workings are here, run on the screen alone.
package exercise
