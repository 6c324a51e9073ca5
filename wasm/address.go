//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"leaselab/game"
	places "leaselab/game/place"
)

// address keeps the page's address saying where the learner is (the menu,
// #lesson=ID, #exercise=ID, #sandbox; see game/place), so a reload, the
// Back and Forward buttons and a bookmark return there. A shared run's
// #run= link is links.go's: the screen it opened keeps it.
type address struct {
	app     *game.App
	pending []places.Place // places Back or Forward went to, opened before the next update
	// keepLink: a #run= link just opened its screen, which keeps the link
	// in the address.
	keepLink bool
}

func newAddress(app *game.App) *address {
	a := &address{app: app}
	if p, ok := places.Parse(location().Get("hash").String()); ok && p.Kind != places.Menu {
		a.open(p)
	}
	listen := func(target js.Value, event string, fn func()) {
		// Listeners live as long as the page: never released.
		target.Call("addEventListener", event, js.FuncOf(func(js.Value, []js.Value) any { fn(); return nil }))
	}
	listen(js.Global(), "popstate", func() {
		if p, ok := places.Parse(location().Get("hash").String()); ok {
			a.pending = append(a.pending, p)
		}
	})
	// A reload or a closed tab keeps the lesson's run as it is now:
	// coordinateTabs saves it on pagehide, between frames.
	return a
}

// beforeUpdate opens the places Back or Forward went to, inside the game
// loop.
func (a *address) beforeUpdate() {
	for _, p := range a.pending {
		a.open(p)
	}
	a.pending = nil
}

func (a *address) open(p places.Place) {
	if err := a.app.Goto(p); err != nil {
		a.app.Notify("This address names nothing LeaseLab has (" + err.Error() + "): here is the menu.")
	}
}

// linkOpened says a #run= link opened the next screen.
func (a *address) linkOpened() { a.keepLink = true }

// show writes place p, the screen just opened, in the address: a new
// entry in the history, so Back returns to the screen before. An address
// that already says p (Back went there) is left as it is.
func (a *address) show(p places.Place) {
	loc := location()
	cur := loc.Get("hash").String()
	keep := a.keepLink
	a.keepLink = false
	if keep && strings.HasPrefix(cur, runFragment) {
		return
	}
	if p.Kind == places.Shared && strings.HasPrefix(cur, shareFragment) {
		return // the shared answer's link is its address
	}
	want := p.Fragment()
	if cur == want || cur == "#" && want == "" {
		return
	}
	url := want
	if url == "" {
		url = loc.Get("pathname").String() + loc.Get("search").String()
	}
	js.Global().Get("history").Call("pushState", nil, "", url)
}

// keepRun writes a sandbox run on show (or a comparison opened from it)
// in the address as the run's #run= link, kept current as the learner
// acts (replaceState: no new history entry). The sandbox's setup and run
// are saved nowhere else, so a reload reopens the run, with the learner's
// setup and actions, instead of an empty setup. Whether a run is on show
// is the game's to say (App.CurrentLink: no link during the setup).
func (a *address) keepRun(pl places.Place) {
	if pl.Kind != places.Sandbox {
		return
	}
	link, ok, err := a.app.CurrentLink()
	if !ok || err != nil || link.Check() != nil {
		return
	}
	if frag := link.Fragment(); location().Get("hash").String() != frag {
		js.Global().Get("history").Call("replaceState", nil, "", frag)
	}
}
