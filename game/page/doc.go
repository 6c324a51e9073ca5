// Package page is what a scene tells the page around the canvas: the
// [SceneInfo] it reports each tick, with the [Mirror] of its text (the
// HTML panel screen readers read, and the browser tests) and what each
// kind of screen adds (a lesson's run, an exercise's state, a comparison).
// It is data only: the scenes fill it, the wasm page and the tests read
// it, and package game names it for them.
package page
