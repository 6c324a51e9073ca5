// Package ui is LeaseLab's hand-made widget toolkit, free of Ebitengine.
//
// Everything here takes a plain [Input] value (what the pointer, touches,
// wheel and keyboard did this tick) and works in screen pixels, so layout
// maths, hit-testing, word-wrapping, focus order and widget state are tested
// with plain `go test` and no display. The package game/draw paints these
// widgets; game reads Ebitengine's input into an [Input] once per tick.
//
// Keys: the intent table (keys.go) is the one place a key gets its
// meaning, its label ("Resume (Z)") and its line in the help. World and
// player geometry (layout.go, world.go, worldview.go, panes.go) place
// every actor and widget from plain counts.
//
// Controls: a scene declares each control once ([Control]: its id, words,
// state and what it does, control.go). The page lists the declarations
// and the canvas's widget for the same id takes its words and state from
// them; a use from either passes [Controls.Use], the one door. [Deck]
// (deck.go) makes a scene's canvas buttons from its declarations and
// passes their clicks and the page's uses through that door.
//
// Widgets own their [Rect]: the scene assigns Rect from a layout (see
// [LayoutPlayer]) before calling Update, and the draw layer reads the same
// Rect, so what is drawn is exactly what is hit-tested.
package ui
