// Package lesson plays one lesson: the [Scene] that drives the simulator
// (through game/lab) from the player's clock and checks the lesson's goals
// as the run goes, the "Find a break" search ([Finder]) a lesson with a
// search adds to the player, the [Comparison] of the schedule found
// replayed with its protection off and on, and the recap card that asks
// the lesson's recap question with the learner's own run.
//
// A sandbox run is a lesson scene too ([NewWithLab]). The App (package
// game) opens the scene, records the learner's progress and places it;
// inspect.go has the read-only views of a scene's state it and the tests
// use.
package lesson
