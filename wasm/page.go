//go:build js && wasm

package main

import (
	"slices"
	"strings"
	"syscall/js"

	"leaselab/game"
)

// page is the HTML around the canvas: the loading indicator and the text
// mirror. It writes text with textContent only, never as HTML.
type page struct {
	doc     js.Value
	mirror  js.Value
	loading js.Value
	loaded  bool
	scene   string
	last    game.Mirror
}

func newPage(doc js.Value) *page {
	p := &page{
		doc:     doc,
		mirror:  doc.Call("getElementById", "mirror"),
		loading: doc.Call("getElementById", "loading"),
	}
	p.mountCanvas()
	return p
}

// mountCanvas places Ebitengine's canvas (appended to <body> when the
// package started) before the mirror, so the Tab order reads skip link,
// canvas, mirror, and gives it a normal tab stop and an accessible name.
func (p *page) mountCanvas() {
	canvas := p.doc.Call("querySelector", "canvas")
	if !canvas.Truthy() {
		return
	}
	canvas.Call("setAttribute", "tabindex", "0")
	canvas.Call("setAttribute", "aria-label", "LeaseLab lesson player. Its text is repeated in the text view after it.")
	canvas.Call("setAttribute", "aria-describedby", "mirror")
	if p.mirror.Truthy() {
		p.doc.Get("body").Call("insertBefore", canvas, p.mirror)
	}
}

// update runs after every tick; it touches the DOM only when something
// the mirror shows has changed.
func (p *page) update(s game.Snapshot) {
	if !p.loaded && s.Frame > 0 && p.loading.Truthy() {
		p.loading.Set("hidden", true)
		p.loaded = true
	}
	if !p.mirror.Truthy() {
		return
	}
	if s.Scene.Name != p.scene {
		// The stylesheet words the empty narration by scene (the menu has
		// no run to narrate).
		p.mirror.Call("setAttribute", "data-scene", s.Scene.Name)
		p.scene = s.Scene.Name
		// A new scene tells its own story: the last run's lines go.
		p.replaceChildren("narration", "li", nil)
		p.last.Narration = nil
	}
	m := s.Scene.Mirror
	if m.Title != p.last.Title {
		p.setText("lesson-title", m.Title)
	}
	if m.Objective != p.last.Objective {
		p.setText("lesson-objective", m.Objective)
		if el := p.doc.Call("getElementById", "lesson-objective"); el.Truthy() {
			el.Set("hidden", m.Objective == "")
		}
	}
	if m.Text != p.last.Text {
		p.replaceChildren("lesson-text", "p", strings.Split(m.Text, "\n\n"))
	}
	if !slices.Equal(m.Goals, p.last.Goals) {
		items := make([]string, len(m.Goals))
		for i, g := range m.Goals {
			mark := "Open: "
			if g.Met {
				mark = "Met: "
			}
			items[i] = mark + g.Text
		}
		p.replaceChildren("goals", "li", items)
	}
	if m.Hint != p.last.Hint {
		hint := m.Hint
		if hint == "" {
			hint = "No hint revealed yet."
		}
		p.setText("hint", hint)
	}
	if !slices.Equal(m.Narration, p.last.Narration) {
		p.appendNarration(m.Narration)
	}
	p.last = m
	p.last.Goals = slices.Clone(m.Goals)
	p.last.Narration = slices.Clone(m.Narration)
}

func (p *page) setText(id, text string) {
	if el := p.doc.Call("getElementById", id); el.Truthy() {
		el.Set("textContent", text)
	}
}

func (p *page) replaceChildren(id, tag string, texts []string) {
	el := p.doc.Call("getElementById", id)
	if !el.Truthy() {
		return
	}
	children := make([]any, 0, len(texts))
	for _, t := range texts {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		c := p.doc.Call("createElement", tag)
		c.Set("textContent", t)
		children = append(children, c)
	}
	el.Call("replaceChildren", children...)
}

// appendNarration adds only the lines that are new since the last tick, so
// the polite live region announces each event once. The scene keeps a
// sliding window of recent lines; the list keeps as many.
func (p *page) appendNarration(lines []string) {
	el := p.doc.Call("getElementById", "narration")
	if !el.Truthy() {
		return
	}
	old := p.last.Narration
	overlap := 0
	for o := min(len(old), len(lines)); o > 0; o-- {
		if slices.Equal(old[len(old)-o:], lines[:o]) {
			overlap = o
			break
		}
	}
	for _, line := range lines[overlap:] {
		li := p.doc.Call("createElement", "li")
		li.Set("textContent", line)
		el.Call("append", li)
	}
	for el.Get("childElementCount").Int() > max(len(lines), 1) {
		el.Get("firstElementChild").Call("remove")
	}
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
