//go:build js && wasm

package main

import (
	"encoding/json"
	"strings"
	"syscall/js"

	"leaselab/core/permalink"
	"leaselab/game"
	"leaselab/lessons"
)

// links connects permalinks to the page: a URL whose fragment is
// #run=... opens that run (at start, and whenever the fragment changes),
// and the Share button (or leaselab.share()) puts the current run's link in
// the address bar and on the clipboard.
type links struct {
	app     *game.App
	doc     js.Value
	pending []string // fragments seen by hashchange, opened before the next update
	// opened is told when a link opened its run (the address keeps it).
	opened func()
}

const (
	runFragment   = "#run="
	shareFragment = "#share="
)

// isLink reports a fragment links opens: a shared run or a shared answer.
func isLink(h string) bool {
	return strings.HasPrefix(h, runFragment) || strings.HasPrefix(h, shareFragment)
}

func newLinks(app *game.App, doc js.Value, opened func()) *links {
	l := &links{app: app, doc: doc, opened: opened}
	if h := location().Get("hash").String(); isLink(h) {
		l.open(h)
	}
	l.listen(js.Global(), "hashchange", func() {
		if h := location().Get("hash").String(); isLink(h) {
			l.pending = append(l.pending, h)
		}
	})
	if b := doc.Call("getElementById", "share"); b.Truthy() {
		l.listen(b, "click", func() { l.share() })
	}
	return l
}

func location() js.Value { return js.Global().Get("location") }

func (l *links) listen(target js.Value, event string, fn func()) {
	// Listeners live as long as the page: never released.
	target.Call("addEventListener", event, js.FuncOf(func(js.Value, []js.Value) any { fn(); return nil }))
}

// beforeUpdate opens links that arrived since the last tick, inside the
// game loop, so the new scene is updated before it is drawn.
func (l *links) beforeUpdate() {
	for _, h := range l.pending {
		l.open(h)
	}
	l.pending = nil
}

// open opens a link; a bad run link is explained and changes nothing; a
// shared answer opens its own screen, which says what is wrong with a bad
// one.
func (l *links) open(fragment string) {
	if strings.HasPrefix(fragment, shareFragment) {
		l.app.OpenShare(fragment)
		l.opened()
		return
	}
	if _, err := l.app.OpenLink(fragment); err != nil {
		msg := "This link could not be opened: " + permalink.LinkProblem(err)
		l.app.Notify(msg)
		l.status(msg)
		return
	}
	l.opened()
	l.status("Opened the shared run.")
}

// share puts the current run's link in the address bar (without reopening
// it) and on the clipboard, and returns it.
func (l *links) share() map[string]any {
	link, ok, err := l.app.CurrentLink()
	if !ok {
		msg := "Open a lesson or start a sandbox run first: a link shares a run."
		l.status(msg)
		return map[string]any{"error": msg}
	}
	if err == nil {
		err = link.Check()
	}
	if err != nil {
		// A link the decoder would refuse must not be shared (issue 19,
		// item 8): say why instead.
		msg := "This run does not fit in a link: " + permalink.LinkProblem(err)
		l.status(msg)
		return map[string]any{"error": msg}
	}
	frag := link.Fragment()
	loc := location()
	url := loc.Get("origin").String() + loc.Get("pathname").String() + loc.Get("search").String() + frag
	js.Global().Get("history").Call("replaceState", nil, "", frag)
	l.status("The link is in the address bar.")
	if cb := js.Global().Get("navigator").Get("clipboard"); cb.Truthy() {
		var done, failed js.Func
		done = js.FuncOf(func(js.Value, []js.Value) any {
			l.status("Link copied to the clipboard (it is in the address bar too).")
			done.Release()
			failed.Release()
			return nil
		})
		failed = js.FuncOf(func(js.Value, []js.Value) any {
			l.status("The browser did not allow copying: copy the link from the address bar.")
			done.Release()
			failed.Release()
			return nil
		})
		cb.Call("writeText", url).Call("then", done, failed)
	}
	return map[string]any{"link": url, "fragment": frag}
}

func (l *links) status(msg string) {
	if el := l.doc.Call("getElementById", "share-status"); el.Truthy() {
		el.Set("textContent", msg)
	}
}

// bridge is leaselab.share(): a JSON string {link, fragment} or {error}.
func (l *links) bridge() js.Func {
	return js.FuncOf(func(js.Value, []js.Value) any {
		b, _ := json.Marshal(l.share())
		return string(b)
	})
}

// shareAnswer is the page's exercise.Sharer: the whole address of the shared
// answer, put on the clipboard as well when the browser allows it.
func (l *links) shareAnswer(_ *lessons.Exercise, s lessons.Share) (string, string, error) {
	loc := location()
	url := loc.Get("origin").String() + loc.Get("pathname").String() + loc.Get("search").String() + s.Link()
	where := "The link to your answer is in the field below: select it and copy it. Whoever opens it sees your answer graded again."
	if cb := js.Global().Get("navigator").Get("clipboard"); cb.Truthy() {
		where = "The link to your answer is in the field below, and LeaseLab is copying it to the clipboard. Whoever opens it sees your answer graded again."
		// The promise settles outside the game's frame: it tells the
		// page's status line only.
		var done, failed js.Func
		release := func() { done.Release(); failed.Release() }
		done = js.FuncOf(func(js.Value, []js.Value) any {
			l.status("The link to your answer is on the clipboard.")
			release()
			return nil
		})
		failed = js.FuncOf(func(js.Value, []js.Value) any {
			l.status("The browser did not allow copying: select the link to your answer in its field and copy it.")
			release()
			return nil
		})
		cb.Call("writeText", url).Call("then", done, failed)
	}
	return url, where, nil
}
