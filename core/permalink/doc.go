// Package permalink writes a whole run as one short string and reads it
// back: a lesson with its knobs, a named scenario with its parameters, an
// explore target's counterexample, or a sandbox setup (as the settings
// that differ from its preset), each with the seed and the learner's
// action log. Same seed and log, same trace: opening a link reproduces the
// run exactly, in the browser (#run=...), the desktop build and labctl
// (--load). Every decoding error wraps ErrPermalink; LinkProblem says it
// as a sentence for the learner.
//
// The package is named for what it makes rather than "link" because
// core.Link is a network link between two nodes.
package permalink
