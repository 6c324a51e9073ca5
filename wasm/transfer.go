//go:build js && wasm

package main

import (
	"fmt"
	"sync"
	"syscall/js"

	"leaselab/game"

	"boot.leaselab/progress"
)

// transfer wires the page's "Export progress" button and "Import
// progress" file input to the app. The page's events only queue work;
// beforeUpdate does it inside the game loop, where the app's state is
// safe to touch (as links do).
type transfer struct {
	app *game.App
	doc js.Value

	mu      sync.Mutex
	export  bool
	imports [][]byte
}

func newTransfer(app *game.App, doc js.Value) *transfer {
	t := &transfer{app: app, doc: doc}
	if b := doc.Call("getElementById", "export-progress"); b.Truthy() {
		b.Call("addEventListener", "click", js.FuncOf(func(js.Value, []js.Value) any {
			t.mu.Lock()
			t.export = true
			t.mu.Unlock()
			return nil
		}))
	}
	if in := doc.Call("getElementById", "import-progress"); in.Truthy() {
		in.Call("addEventListener", "change", js.FuncOf(func(js.Value, []js.Value) any {
			t.read(in)
			return nil
		}))
	}
	return t
}

// read takes the file chosen in input in, refusing one too large to be
// progress before reading it.
func (t *transfer) read(in js.Value) {
	files := in.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	f := files.Index(0)
	in.Set("value", "") // choosing the same file again fires change again
	if size := f.Get("size").Int(); size > progress.MaxSize {
		t.status(fmt.Sprintf("Not imported: %s is %d bytes, more than progress can be (%d).", f.Get("name").String(), size, progress.MaxSize))
		return
	}
	var done, failed js.Func
	done = js.FuncOf(func(_ js.Value, args []js.Value) any {
		t.mu.Lock()
		t.imports = append(t.imports, []byte(args[0].String()))
		t.mu.Unlock()
		done.Release()
		failed.Release()
		return nil
	})
	failed = js.FuncOf(func(_ js.Value, args []js.Value) any {
		t.status("Not imported: the browser could not read the file (" + jsErrorText(args[0]) + ").")
		done.Release()
		failed.Release()
		return nil
	})
	f.Call("text").Call("then", done, failed)
}

// beforeUpdate does the queued exports and imports.
func (t *transfer) beforeUpdate() {
	t.mu.Lock()
	export, imports := t.export, t.imports
	t.export, t.imports = false, nil
	t.mu.Unlock()
	if export {
		data, err := t.app.ExportProgress()
		if err == nil {
			_, err = download(progress.ExportName, data)
		}
		if err != nil {
			t.status("Not exported: " + err.Error())
		} else {
			t.status("Progress exported as " + progress.ExportName + " (see your browser's downloads).")
		}
	}
	for _, data := range imports {
		msg, err := t.app.ImportProgress(data)
		if err != nil {
			msg = "Not imported: " + err.Error()
		}
		t.status(msg)
	}
}

func (t *transfer) status(msg string) {
	if el := t.doc.Call("getElementById", "progress-status"); el.Truthy() {
		el.Set("textContent", msg)
	}
}
