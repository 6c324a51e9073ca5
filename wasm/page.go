//go:build js && wasm

package main

import (
	"slices"
	"strings"
	"syscall/js"

	"leaselab/game"
	"leaselab/game/player"
	"leaselab/game/ui"
)

// page is the HTML around the canvas: the loading indicator and the lesson
// panel (its text, goals, hints, narration and every action as a real
// control). It writes text with textContent only, never as HTML.
type page struct {
	doc      js.Value
	mirror   js.Value
	loading  js.Value
	loaded   bool
	scene    string
	focus    string
	last     game.Mirror
	controls *controlsView
	announce *announcer
	host     func(ui.HostAction)
	funcs    []js.Func
	// qualityShown: the reduced-quality notice was given.
	qualityShown bool
	// screen is the screen on show (place.Place.Screen); addr writes it
	// in the address.
	screen string
	addr   *address
	// done is the lesson's moment of success on show (nil: none).
	done *game.Done
	// world is the world summary's state (world.go).
	world worldSummary
}

func newPage(doc js.Value) *page {
	p := &page{
		doc:     doc,
		mirror:  doc.Call("getElementById", "mirror"),
		loading: doc.Call("getElementById", "loading"),
	}
	p.announce = newAnnouncer(doc.Call("getElementById", "announce"))
	p.controls = newControlsView(doc, func(h ui.HostAction) {
		if p.host != nil {
			p.host(h)
		}
	})
	p.mountCanvas()
	p.showKeys()
	if b := doc.Call("getElementById", "done-next"); b.Truthy() {
		p.listen(b, "click", func(js.Value) {
			if p.host != nil {
				p.host(ui.HostAction{ID: player.RunNext})
			}
		})
	}
	if n := doc.Call("getElementById", "narration"); n.Truthy() {
		// A line's Why? button asks the player why its event happened.
		p.listen(n, "click", func(ev js.Value) {
			b := ev.Get("target").Call("closest", "[data-why]")
			if b.Truthy() && p.host != nil {
				p.host(ui.HostAction{ID: "why:" + b.Get("dataset").Get("why").String()})
			}
		})
	}
	p.collapsible()
	p.spacePlays()
	return p
}

// mountCanvas places Ebitengine's canvas (appended to <body> when the
// package started) before the panel, so the Tab order reads skip link,
// canvas, panel, and gives it a normal tab stop and an accessible name
// that says how to use it.
func (p *page) mountCanvas() {
	canvas := p.doc.Call("querySelector", "canvas")
	if !canvas.Truthy() {
		return
	}
	canvas.Call("setAttribute", "tabindex", "0")
	canvas.Call("setAttribute", "role", "application")
	canvas.Call("setAttribute", "aria-label", "LeaseLab world and timeline. Click a process to act on it, or use the "+
		"lesson panel after this, which has every action as a button. Keys: Space plays or pauses, Tab moves between "+
		"the time controls, digits select a process.")
	if p.mirror.Truthy() {
		p.doc.Get("body").Call("insertBefore", canvas, p.mirror)
	}
}

// showKeys lists the canvas's keyboard shortcuts, from the same table as
// the canvas's own help.
func (p *page) showKeys() {
	dl := p.doc.Call("getElementById", "keys")
	if !dl.Truthy() {
		return
	}
	add := func(keys, does string) {
		dt, dd := p.doc.Call("createElement", "dt"), p.doc.Call("createElement", "dd")
		dt.Set("textContent", keys)
		dd.Set("textContent", does)
		dl.Call("append", dt, dd)
	}
	for _, k := range ui.Shortcuts {
		add(k.Keys(), k.Does)
	}
	add("Arrows on the play head", "Step to the previous or next event (the panel's Play head slider)")
	add("Page Up / Page Down on the play head", "Move the play head 10 s on or back")
}

func (p *page) listen(el js.Value, event string, f func(ev js.Value)) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		f(args[0])
		return nil
	})
	p.funcs = append(p.funcs, fn)
	el.Call("addEventListener", event, fn)
}

// collapsible wires the panel's Hide/Show button: collapsed, the panel
// keeps its navigation and the canvas takes the width back.
func (p *page) collapsible() {
	b := p.doc.Call("getElementById", "collapse")
	if !b.Truthy() {
		return
	}
	root := p.doc.Get("documentElement")
	p.listen(b, "click", func(js.Value) {
		collapsed := root.Get("classList").Call("toggle", "collapsed").Bool()
		b.Call("setAttribute", "aria-expanded", boolText(!collapsed))
		if collapsed {
			b.Set("textContent", "Show the panel")
		} else {
			b.Set("textContent", "Hide the panel")
		}
		// Ebitengine sizes its canvas on resize events.
		js.Global().Call("dispatchEvent", js.Global().Get("Event").New("resize"))
	})
}

// spacePlays makes the canvas's shortcut keys work while the page has
// the focus, wherever it is but in a text field (ui.PageShortcut): Space
// plays or pauses, Esc goes back, P, Z, ], digits and the rest do what
// they do on the canvas, so a learner need not click the canvas first. On
// the play head's slider the arrows step from event to event and Page Up
// and Page Down move 10 s.
func (p *page) spacePlays() {
	p.listen(p.doc, "keydown", func(ev js.Value) {
		if ev.Get("defaultPrevented").Bool() || p.host == nil || ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() || ev.Get("altKey").Bool() {
			return
		}
		el := ev.Get("target")
		t := ui.PageTarget{Tag: strings.ToLower(el.Get("tagName").String()), Editable: el.Get("isContentEditable").Truthy()}
		if t.Tag == "input" {
			t.Type = strings.ToLower(el.Get("type").String())
		}
		key, code := ev.Get("key").String(), ev.Get("code").String()
		h, ok := scrubKey(el, key)
		if !ok {
			h, ok = ui.PageShortcut(t, key, code, p.controls.label("play") != "")
		}
		if !ok {
			return
		}
		ev.Call("preventDefault")
		p.host(h)
	})
}

// scrubKey is what a key does on the play head's slider: the arrows step
// to the previous or next event (a step of the slider's is a tenth of a
// second, which finds nothing), Page Up and Page Down move 10 s.
func scrubKey(el js.Value, key string) (ui.HostAction, bool) {
	if !el.Get("dataset").Truthy() || el.Get("dataset").Get("id").String() != "scrub" {
		return ui.HostAction{}, false
	}
	switch key {
	case "ArrowLeft", "ArrowDown":
		return ui.HostAction{ID: player.ScrubPrev}, true
	case "ArrowRight", "ArrowUp":
		return ui.HostAction{ID: player.ScrubNext}, true
	case "PageUp":
		return ui.HostAction{ID: player.ScrubBy, Value: 10}, true
	case "PageDown":
		return ui.HostAction{ID: player.ScrubBy, Value: -10}, true
	}
	return ui.HostAction{}, false
}

// setView shows the panel alone (page) or beside the canvas.
func (p *page) setView(page bool) {
	root := p.doc.Get("documentElement")
	view := "world"
	if page {
		view = "page"
	}
	if root.Call("getAttribute", "data-view").String() == view {
		return
	}
	root.Call("setAttribute", "data-view", view)
	if canvas := p.doc.Call("querySelector", "canvas"); canvas.Truthy() {
		if page {
			canvas.Call("setAttribute", "tabindex", "-1")
			canvas.Call("setAttribute", "aria-hidden", "true")
			// Ebitengine focuses its canvas when it starts and on every
			// key pressed there, and swallows Tab while it has focus: a
			// keyboard user left on the hidden canvas could never Tab
			// to the page. Hand focus to the page's main region.
			if p.doc.Get("activeElement").Equal(canvas) && p.mirror.Truthy() {
				p.mirror.Call("focus", map[string]any{"preventScroll": true})
			}
		} else {
			canvas.Call("setAttribute", "tabindex", "0")
			canvas.Call("removeAttribute", "aria-hidden")
		}
	}
	// Ebitengine sizes its canvas on resize events.
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("resize"))
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// update runs after every tick; it touches the DOM only when something
// the panel shows has changed.
func (p *page) update(s game.Snapshot) {
	p.firstFrame(s)
	if !p.mirror.Truthy() {
		return
	}
	newScene := s.Scene.Name != p.scene
	if newScene {
		p.enterScene(s)
	}
	// A screen is entered once the panel shows (not while loading, when
	// nothing on it could take the focus).
	entered := p.loaded && s.Scene.Place.Screen() != p.screen
	m := s.Scene.Mirror
	p.showLesson(m, newScene)
	p.showDone(m.Done, entered)
	p.controls.update(m.Controls)
	p.showQuality(s.Quality, m)
	if !slices.Equal(m.Narration, p.last.Narration) {
		p.appendNarration(m.Narration, m.NarrationKey, m.NarrationSeq)
	}
	p.announceFocus(s.Scene.Focus)
	p.showWorld(s.Scene.World, entered)
	if entered {
		p.enter(s)
	}
	if p.addr != nil && (entered || !slices.Equal(m.Narration, p.last.Narration)) {
		// Each action is narrated: the run's link follows it.
		p.addr.keepRun(s.Scene.Place)
	}
	if p.addr != nil {
		// A link that opened the screen on show keeps its address; one
		// that reopened it keeps it too, and nothing later does.
		p.addr.keepLink = false
	}
	p.announce.flush()
	p.remember(m)
}

// firstFrame hides the loading screen once the game has drawn a frame.
func (p *page) firstFrame(s game.Snapshot) {
	if !p.loaded && s.Frame > 0 && p.loading.Truthy() {
		p.loading.Set("hidden", true)
		p.loaded = true
		// The panel shows from the first screen on, not before.
		p.doc.Get("documentElement").Get("classList").Call("remove", "booting")
	}
}

// enterScene sets the panel up for a new scene.
func (p *page) enterScene(s game.Snapshot) {
	// The stylesheet shows the parts of the panel a screen has.
	p.mirror.Call("setAttribute", "data-scene", s.Scene.Name)
	p.scene = s.Scene.Name
	// A new scene tells its own story: the last run's lines go.
	p.replaceChildren("narration", "li", nil)
	p.last.Narration = nil
	heading := "Actions"
	if s.Scene.ControlsHeading != "" {
		heading = s.Scene.ControlsHeading
	}
	p.setText("controls-heading", heading)
	// The scene says whether it has a world to show beside the panel.
	p.setView(s.Scene.Page)
}

// fail shows why the game stopped where the loading indicator was.
func (p *page) fail(err error) {
	js.Global().Get("console").Call("error", "LeaseLab stopped: "+err.Error())
	if p.loading.Truthy() {
		p.loading.Set("hidden", false)
		p.loading.Get("classList").Call("add", "failed")
		p.setText("loading-text", "LeaseLab stopped: "+err.Error())
	}
}
