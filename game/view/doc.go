// Package view holds the views the lesson player draws: the world
// ([World]: world.go, its layout in world_layout.go, what the page is
// offered in world_host.go, and one world_*.go file per thing drawn) and
// the timeline ([Timeline]: timeline.go, painted by timeline_draw.go).
// Each reads only its lab.Lab's snapshot and sends the learner's actions
// as lab.Commands to the scene that applies them.
//
// A [View] is updated with the tick's [Env] (input, window, style, time),
// the part of game.State a view may read; inspect.go is what the scenes'
// tests read of a view as last laid out and drawn.
package view
