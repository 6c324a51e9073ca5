//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall/js"

	"leaselab/game"

	"boot.leaselab/progress"
)

// The localStorage keys. The version in the key name is the storage
// layout's; the document inside carries its own (progress.Version).
const (
	progressKey = "leaselab.progress.v1"
	backupKey   = "leaselab.progress.corrupt"
	probeKey    = "leaselab.probe"
)

// noStorageNotice is shown when the browser refuses localStorage (private
// browsing, storage blocked for the site, a sandboxed frame).
const noStorageNotice = "This browser is not letting LeaseLab save your progress " +
	"(private browsing or blocked site data?), so it will last only until this tab closes."

// browserStore keeps progress in localStorage. Every call into storage is
// guarded: Storage methods throw (SecurityError when storage is blocked,
// QuotaExceededError when full), and a JavaScript exception must become a
// Go error, not a crashed game.
type browserStore struct {
	storage js.Value
}

// newBrowserStore returns the localStorage store, or, when localStorage is
// missing or refuses a test write, a memory store whose Notice says that
// progress will not outlive the tab.
func newBrowserStore() progress.Store { return openStore(js.Global()) }

// openStore is newBrowserStore for the window win (a fake one in tests).
func openStore(win js.Value) progress.Store {
	storage, err := jsTry(func() js.Value {
		// Reflect.get through Call: reading window.localStorage can
		// throw, and only Call turns a throw into a catchable panic.
		return js.Global().Get("Reflect").Call("get", win, "localStorage")
	})
	if err == nil {
		err = probe(storage)
	}
	if err != nil {
		js.Global().Get("console").Call("warn", "LeaseLab: localStorage unavailable: "+err.Error())
		return progress.NewMemStore(nil, noStorageNotice)
	}
	return &browserStore{storage: storage}
}

// probe writes and removes a key: Safari's old private mode exposed a
// localStorage whose every setItem threw.
func probe(storage js.Value) error {
	if storage.Type() != js.TypeObject {
		return errors.New("window.localStorage is " + storage.Type().String())
	}
	_, err := jsTry(func() js.Value {
		storage.Call("setItem", probeKey, "1")
		return storage.Call("removeItem", probeKey)
	})
	return err
}

// Load implements progress.Store.
func (s *browserStore) Load() ([]byte, error) {
	v, err := jsTry(func() js.Value { return s.storage.Call("getItem", progressKey) })
	if err != nil {
		return nil, err
	}
	if v.Type() != js.TypeString {
		return nil, nil // null: nothing saved
	}
	return []byte(v.String()), nil
}

// Save implements progress.Store. setItem replaces the value in one step,
// so a failed Save leaves the old progress.
func (s *browserStore) Save(b []byte) error {
	_, err := jsTry(func() js.Value { return s.storage.Call("setItem", progressKey, string(b)) })
	return err
}

// maxBackups is how many backups localStorage keeps: backupKey, then
// backupKey-2 ... backupKey-10. A backup never replaces an earlier one (a
// second corruption used to overwrite the first); when all are taken,
// Backup fails, and progress.Sync then saves nothing over the damaged data.
const maxBackups = 10

// Backup implements progress.Store.
func (s *browserStore) Backup(old []byte) (string, error) {
	for n := 1; n <= maxBackups; n++ {
		key := backupKey
		if n > 1 {
			key = fmt.Sprintf("%s-%d", backupKey, n)
		}
		v, err := jsTry(func() js.Value { return s.storage.Call("getItem", key) })
		if err != nil {
			return "", err
		}
		if !v.IsNull() {
			continue
		}
		if _, err := jsTry(func() js.Value { return s.storage.Call("setItem", key, string(old)) }); err != nil {
			return "", err
		}
		return fmt.Sprintf("localStorage[%q] in this browser", key), nil
	}
	return "", fmt.Errorf("%d backups of damaged progress are already kept in this browser's localStorage (%s...); clear some in the browser's site data", maxBackups, backupKey)
}

// coordinateTabs keeps the progress of several tabs of this site from
// replacing one another's, and returns a function for the game loop.
// Tabs share localStorage but no lock: two tabs saving at once can each
// merge what was there before and the second write drops the first's.
// The browser fires "storage" in every other tab when one writes, so on
// that event a tab merges what was saved with what it holds and writes the
// merge back at once (app.Refresh), restoring anything of its own the
// other tab's write dropped; a merge equal to what is saved writes
// nothing, so the tabs come to rest. When the tab is hidden or closed
// ("visibilitychange" to hidden, "pagehide": no frame may run after), the
// open lesson's or exercise's unsaved work is saved (app.Flush).
//
// frame is held by the game loop while it updates or draws; these events
// arrive between frames, and do their work only when it is free: an event
// that finds a frame in progress leaves the merge to the game loop's
// function, which runs it at the next frame, and to a timer, which runs it
// in a hidden tab that draws none; and leaves the save to the end of the
// frame in progress (frameGate.leave), the last thing a closing tab may
// still run.
func coordinateTabs(app *game.App, frame *frameGate) func() {
	var changed atomic.Bool
	between := frame.between
	save := func() {
		if !between(app.Flush) {
			frame.atLeave(app.Flush)
		}
	}
	on := func(target js.Value, event string, f func(js.Value)) {
		target.Call("addEventListener", event, js.FuncOf(func(_ js.Value, args []js.Value) any {
			f(args[0])
			return nil
		}))
	}
	// A merge an event could not run waits for the next frame, or a
	// timer: a hidden tab draws no frames, so the timer (which a hidden
	// tab still runs, if slower) tries again until a frame is not in the
	// way (under load the storage event often found one, and the merge
	// waited for a frame that never came).
	var later js.Func
	later = js.FuncOf(func(js.Value, []js.Value) any {
		merged := between(func() {
			if changed.Swap(false) {
				app.Refresh()
			}
		})
		if !merged && changed.Load() {
			js.Global().Call("setTimeout", later, 100)
		}
		return nil
	})
	on(js.Global(), "storage", func(e js.Value) {
		if e.Get("key").Equal(js.ValueOf(progressKey)) && !between(app.Refresh) {
			changed.Store(true)
			js.Global().Call("setTimeout", later, 100)
		}
	})
	on(js.Global(), "pagehide", func(js.Value) { save() })
	doc := js.Global().Get("document")
	on(doc, "visibilitychange", func(js.Value) {
		if doc.Get("visibilityState").String() == "hidden" {
			save()
		}
	})
	return func() {
		if changed.Swap(false) {
			app.Refresh()
		}
	}
}

// jsTry runs f and turns a JavaScript exception thrown inside it (which
// syscall/js raises as a js.Error panic) into an error.
func jsTry(f func() js.Value) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			if jerr, ok := r.(js.Error); ok {
				err = errors.New(jsErrorText(jerr.Value))
				return
			}
			panic(r)
		}
	}()
	return f(), nil
}

// jsErrorText is "Name: message" for a DOMException or Error.
func jsErrorText(v js.Value) string {
	if v.Type() != js.TypeObject {
		return v.String()
	}
	name, msg := v.Get("name"), v.Get("message")
	if name.Type() == js.TypeString && msg.Type() == js.TypeString {
		return name.String() + ": " + msg.String()
	}
	return v.Call("toString").String()
}

// frameGate is held by the game loop while it updates or draws. Work that
// arrives from the page while a frame is in progress either waits for the
// next (between fails, and the caller retries) or, when it must not wait
// (a closing tab's save), runs as the frame in progress leaves: the frame
// may have stopped partway at a point where the page's events run, and
// what it was doing must finish first.
type frameGate struct {
	mu sync.Mutex
	// pending is the work to run when the frame in progress leaves.
	pending atomic.Pointer[func()]
}

// enter starts a frame.
func (g *frameGate) enter() { g.mu.Lock() }

// leave ends a frame, after running the work left to its end.
func (g *frameGate) leave() {
	if f := g.pending.Swap(nil); f != nil {
		(*f)()
	}
	g.mu.Unlock()
}

// between runs f now if no frame is in progress, and reports whether it
// did.
func (g *frameGate) between(f func()) bool {
	if !g.mu.TryLock() {
		return false
	}
	defer g.mu.Unlock()
	f()
	return true
}

// atLeave leaves f to the end of the frame in progress, or runs it now
// if that frame has ended meanwhile.
func (g *frameGate) atLeave(f func()) {
	g.pending.Store(&f)
	if g.mu.TryLock() {
		defer g.mu.Unlock()
		if f := g.pending.Swap(nil); f != nil {
			(*f)()
		}
	}
}
