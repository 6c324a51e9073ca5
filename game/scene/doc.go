// Package scene is what a LeaseLab screen is: a [Scene] (Update, Layout,
// Draw), the [State] the Game updates it with (the tick's view.Env and the
// Stack it is on), and the [Stack] scenes sit on, the last on top. A
// scene opens another with State.Push, Pop or Replace. It is apart from
// package game, which runs the loop, so that a scene can live in a package
// of its own and still be one.
package scene
