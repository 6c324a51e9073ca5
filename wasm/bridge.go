//go:build js && wasm

package main

import (
	"encoding/json"
	"syscall/js"

	"leaselab/game"
)

// exposeBridge installs the global `leaselab` object:
//
//	leaselab.state() -> JSON string of game.Snapshot
//	                    (frame, tick, width, height, scale, unit,
//	                     reducedMotion, scene{name, regions, focus, mirror})
//	leaselab.timings() -> JSON object: startup step -> ms since navigation
//	                    (see timing.go)
//
// Browser tests poll it (for example until the first frame is drawn) and
// compare the layout the game reports with what they see. It only reads
// (sharing a link, which writes the address bar, is links.go's).
func exposeBridge(g *game.Game) {
	state := js.FuncOf(func(js.Value, []js.Value) any {
		b, err := json.Marshal(g.Snapshot())
		if err != nil {
			return `{"error":` + jsonString(err.Error()) + `}`
		}
		return string(b)
	})
	obj := js.Global().Get("Object").New()
	obj.Set("state", state)
	obj.Set("timings", js.FuncOf(func(js.Value, []js.Value) any { return timings() }))
	js.Global().Set("leaselab", obj)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
