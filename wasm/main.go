//go:build js && wasm

// Command wasm is LeaseLab in the browser. web/boot.js loads it; it moves
// Ebitengine's canvas into the page, keeps the HTML mirror of the lesson text
// up to date for screen readers, and exposes a small `leaselab` object that
// the browser tests read.
package main

import (
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game"
	"leaselab/game/draw"
	"leaselab/game/ui"
)

// textBudget is the time one frame may spend rasterising new strings: about
// half a 60 Hz frame, so the first screens build up over a few frames.
const textBudget = 8 * time.Millisecond

func main() {
	mark("main")
	doc := js.Global().Get("document")
	page := newPage(doc)
	// Text new to a frame is rasterised in WebAssembly at a few ms a string:
	// a frame spends at most this long on it and leaves the rest to the next.
	draw.SetTextBudget(textBudget)
	app := game.NewApp(newBrowserStore())
	app.Export = download
	// A frame under software WebGL takes about 55 ms to draw: a 7 ms slice
	// left a thousand-night check a minute long. While a check runs the
	// screen shows only its progress, so give it most of the wait.
	app.CheckBudget = 400 * time.Millisecond
	g := game.New(app, game.Options{
		// boot.js reads prefers-reduced-motion before starting Go.
		ReducedMotion: js.Global().Get("leaselabReducedMotion").Truthy(),
		// Tab must be able to leave the canvas for the HTML beside it.
		WrapFocus: false,
		// The page shows the lesson panel as HTML, with every action as a
		// real control (page.go, controls.go).
		PanelOutside:  true,
		OnFocusEscape: page.focusOutside,
		OnUpdate:      page.update,
	})
	addr := newAddress(app)
	page.addr = addr
	ln := newLinks(app, doc, addr.linkOpened)
	app.ShareAnswer = ln.shareAnswer
	var frame frameGate
	refresh := coordinateTabs(app, &frame)
	tr := newTransfer(app, doc)
	page.host = g.Host
	capturePointer(g)
	exposeBridge(g)
	js.Global().Get("leaselab").Set("share", ln.bridge())
	mark("game")
	if err := ebiten.RunGame(&timedGame{Game: g, frame: &frame, before: func() { ln.beforeUpdate(); addr.beforeUpdate(); refresh(); tr.beforeUpdate() }}); err != nil {
		page.fail(err)
	}
}

// focusOutside moves browser focus off the canvas after Tab left its last
// widget (to the text mirror after it) or Shift+Tab its first (to the skip
// link before it). Ebitengine swallows Tab, so the page cannot do it alone.
func (p *page) focusOutside(e ui.Escape) {
	target := p.mirror
	if e == ui.EscapeBackward {
		target = p.doc.Call("getElementById", "skip")
	}
	if target.Truthy() {
		target.Call("focus")
	}
}
