//go:build js && wasm

package main

import (
	"encoding/json"
	"runtime"
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
//	leaselab.memory()  -> JSON object: the Go heap in use and reserved, and
//	                    the WebAssembly memory, in bytes (see memory)
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
	obj.Set("memory", js.FuncOf(func(js.Value, []js.Value) any { return memory() }))
	js.Global().Set("leaselab", obj)
}

// memory is the bridge's leaselab.memory(). A WebAssembly memory only
// grows, so its size is the peak of everything the Go runtime ever held at
// once (heap, stacks, its own structures): the tab's high-water mark for the
// lab's Go side. heap_inuse and heap_sys are the Go heap now. Reading
// MemStats stops the world for a moment; only tests and make bench ask.
func memory() string {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	wasmBytes := js.Global().Get("leaselabMemory")
	out := map[string]uint64{
		"heap_inuse": m.HeapInuse, "heap_sys": m.HeapSys, "sys": m.Sys,
		"total_alloc": m.TotalAlloc, "num_gc": uint64(m.NumGC),
	}
	if wasmBytes.Truthy() {
		out["wasm_memory"] = uint64(wasmBytes.Invoke().Float())
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
