//go:build js && wasm

package main

import (
	"encoding/json"
	"strings"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game"
)

// Startup timing. boot.js and this file put performance marks named
// "leaselab:<step>" on the page's timeline (milliseconds since navigation):
//
//	boot         boot.js starts
//	exec-loaded  wasm_exec.js has loaded
//	fetch        the .wasm request is sent
//	response     its headers arrived (compiling starts streaming here)
//	instantiated compiled and instantiated (the download has ended too)
//	run          go.run: the Go runtime and package initialisers start
//	main         main() starts (so run..main is Go's init)
//	game         the game is built (main..game: scenes, store, page)
//	update0/1    the first Update begins and ends
//	draw0/1      the first Draw begins and ends (draw commands recorded)
//	frame        the first animation frame after it. The WebGL commands are
//	             queued by then; with software GL (SwiftShader) running them
//	             blocks the next main-thread task for seconds, which is why
//	             a test polling the page sees the first frame later than this
//
// leaselab.timings() returns them as a JSON object, with the .wasm
// download's own resource timing under "wasm-response-end".
func mark(name string) {
	perf := js.Global().Get("performance")
	if perf.Truthy() && perf.Get("mark").Truthy() {
		perf.Call("mark", "leaselab:"+name)
	}
}

// timings is the bridge's leaselab.timings().
func timings() string {
	out := map[string]float64{}
	perf := js.Global().Get("performance")
	if !perf.Truthy() {
		return "{}"
	}
	marks := perf.Call("getEntriesByType", "mark")
	for i := 0; i < marks.Length(); i++ {
		m := marks.Index(i)
		if name, ok := strings.CutPrefix(m.Get("name").String(), "leaselab:"); ok {
			out[name] = m.Get("startTime").Float()
		}
	}
	res := perf.Call("getEntriesByType", "resource")
	for i := 0; i < res.Length(); i++ {
		r := res.Index(i)
		if strings.HasSuffix(r.Get("name").String(), "/leaselab.wasm") {
			out["wasm-response-end"] = r.Get("responseEnd").Float()
			out["wasm-transfer-bytes"] = r.Get("transferSize").Float()
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// timedGame marks the first Update and Draw of the game it wraps. Embedding
// keeps LayoutF visible to Ebitengine.
type timedGame struct {
	*game.Game
	updated, drawn bool
	// before runs at the start of every update (opening shared links).
	before func()
	// frame is held while the game updates or draws (coordinateTabs).
	frame *frameGate
}

func (t *timedGame) Update() error {
	t.frame.enter()
	defer t.frame.leave()
	if t.before != nil {
		t.before()
	}
	if t.updated {
		return t.Game.Update()
	}
	t.updated = true
	mark("update0")
	err := t.Game.Update()
	mark("update1")
	return err
}

func (t *timedGame) Draw(screen *ebiten.Image) {
	t.frame.enter()
	defer t.frame.leave()
	if t.drawn || t.Snapshot().Tick == 0 {
		t.Game.Draw(screen)
		return
	}
	t.drawn = true
	mark("draw0")
	t.Game.Draw(screen)
	mark("draw1")
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		mark("frame")
		f.Release()
		return nil
	})
	js.Global().Call("requestAnimationFrame", f)
}
