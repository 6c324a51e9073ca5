//go:build js && wasm

package main

// What the page does when the screen changes, and when a lesson is
// completed: the two moments a learner must not miss.

import (
	"math"
	"reflect"
	"syscall/js"

	"leaselab/game"
	places "leaselab/game/place"
	"leaselab/game/player"
)

// enter follows a new screen: the address and the page's title name it,
// the panel opens at its top with the keyboard focus on its heading (not
// lost to the page's body), and it is the one thing announced.
func (p *page) enter(s game.Snapshot) {
	pl, m := s.Scene.Place, s.Scene.Mirror
	p.screen = pl.Screen()
	p.doc.Set("title", places.Title(m.Title))
	if p.addr != nil {
		p.addr.show(pl)
	}
	p.mirror.Set("scrollTop", 0)
	js.Global().Call("scrollTo", 0, 0)
	heading := p.doc.Call("getElementById", "lesson-title")
	if heading.Truthy() {
		heading.Call("focus", map[string]any{"preventScroll": true})
	}
	if !p.doc.Get("activeElement").Equal(heading) {
		// The panel is collapsed: its landmark instead.
		p.mirror.Call("focus", map[string]any{"preventScroll": true})
	}
	say := m.Title
	if m.Objective != "" {
		say += ". " + m.Objective
	}
	p.announce.screen(say)
}

// showDone shows a completed lesson's moment of success at the top of
// the panel, and brings the panel's top into view when it comes (the
// narration announces it).
func (p *page) showDone(d *game.Done, entered bool) {
	if d == nil && p.done == nil || d != nil && p.done != nil && reflect.DeepEqual(*d, *p.done) {
		return
	}
	sec := p.doc.Call("getElementById", "done")
	if !sec.Truthy() {
		return
	}
	sec.Set("hidden", d == nil)
	if d == nil {
		p.done = nil
		return
	}
	came := p.done == nil
	c := *d
	p.done = &c
	first, rest := player.FirstSentence(d.Recap)
	for _, line := range d.Predictions {
		rest += " Your prediction: " + line
	}
	p.setText("done-heading", d.Heading)
	p.setText("done-first", first)
	p.setText("done-recap", rest)
	p.setText("done-next", "Next lesson: "+d.Next)
	if el := p.doc.Call("getElementById", "done-next-line"); el.Truthy() {
		el.Set("hidden", d.Next == "")
	}
	more := p.doc.Call("getElementById", "done-more")
	if more.Truthy() {
		more.Set("hidden", rest == "")
	}
	if more.Truthy() && came {
		// The whole recap where there is room; on a phone, under the
		// panel's first lines, its first sentence and the rest a tap away.
		more.Set("open", !js.Global().Call("matchMedia", "(max-width: 700px)").Get("matches").Bool())
	}
	if came && !entered {
		p.mirror.Call("scrollTo", map[string]any{"top": 0, "behavior": "auto"})
		box, panel := sec.Call("getBoundingClientRect"), p.mirror.Call("getBoundingClientRect")
		if box.Get("bottom").Float() > math.Min(panel.Get("bottom").Float(), js.Global().Get("innerHeight").Float()) {
			// Too little room for the title above it: the objective and
			// the success at the panel's top.
			if obj := p.doc.Call("getElementById", "lesson-objective"); obj.Truthy() {
				p.mirror.Set("scrollTop", obj.Get("offsetTop").Float()-8) // the panel is its offsetParent
			}
		}
	}
}
