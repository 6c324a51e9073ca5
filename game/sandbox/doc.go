// Package sandbox is the sandbox, free play: the [Scene] that shows the
// setup panel (over game/setup, the display-free model of a sandbox
// setup) and then plays a run from it in a lesson.Scene, with invariant
// rows in place of the goals and export buttons in place of the hints;
// and [Systems], the comparison that plays one sandbox run on every
// system at once, pushed over the setup or the run.
//
// The core's scenario (core/sandbox) is imported as sandboxcfg. The App
// (package game) opens the scene and places it; inspect.go has the
// read-only views of its state that it and the tests use.
package sandbox
