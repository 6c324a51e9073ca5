//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"
)

// download offers data to the browser as a file named name: a Blob, an
// object URL, and a click on a temporary <a download>. Each download is
// also recorded in window.leaselabDownloads ({name, bytes, text}) so the
// browser tests can read what was offered without a download folder.
func download(name string, data []byte) (string, error) {
	global := js.Global()
	arr := global.Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	mime := "text/plain"
	switch {
	case strings.HasSuffix(name, ".jsonl"):
		mime = "application/jsonl"
	case strings.HasSuffix(name, ".json"):
		mime = "application/json"
	}
	blob := global.Get("Blob").New([]any{arr}, map[string]any{"type": mime})
	url := global.Get("URL").Call("createObjectURL", blob)
	doc := global.Get("document")
	a := doc.Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Get("style").Set("display", "none")
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	// The click starts the download; the URL may go once it has.
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		global.Get("URL").Call("revokeObjectURL", url)
		revoke.Release()
		return nil
	})
	global.Call("setTimeout", revoke, 10000)

	log := global.Get("leaselabDownloads")
	if !log.Truthy() {
		log = global.Get("Array").New()
		global.Set("leaselabDownloads", log)
	}
	log.Call("push", map[string]any{"name": name, "bytes": len(data), "text": string(data[:min(len(data), 4096)])})
	return "as a download (see your browser's downloads)", nil
}
