//go:build js && wasm

package main

import (
	"syscall/js"

	"leaselab/game"
)

// capturePointer hands the game every press and release of the primary
// pointer on the canvas as the browser reports it. Ebitengine polls the
// button once a tick, so at a few frames a second (software WebGL) a
// quick click, pressed and released between two ticks, was never seen;
// the game replays such a click from these edges (ui.Clicks). Positions
// are Ebitengine's: the canvas fills the page from its top left corner
// (style.css), and a CSS pixel is devicePixelRatio screen pixels.
func capturePointer(g *game.Game) {
	win := js.Global()
	edge := func(down bool) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) any {
			e := args[0]
			if e.Get("button").Int() != 0 || !e.Get("isPrimary").Bool() || e.Get("target").Get("tagName").String() != "CANVAS" {
				return nil
			}
			s := win.Get("devicePixelRatio").Float()
			if s <= 0 {
				s = 1
			}
			g.PointerEdge(down, e.Get("clientX").Float()*s, e.Get("clientY").Float()*s)
			return nil
		})
	}
	opts := map[string]any{"capture": true, "passive": true}
	win.Call("addEventListener", "pointerdown", edge(true), opts)
	win.Call("addEventListener", "pointerup", edge(false), opts)
}
