//go:build js && wasm

package main

import (
	"slices"
	"strings"

	"leaselab/game/lab"
)

// worldSummary is the panel's "The world now" list, for a learner who
// cannot see the canvas: redrawn at most once a second as leases run
// down, and at once when who holds what changes, which is also announced
// (at most once every two seconds, the changes in between together).
type worldSummary struct {
	lines  []string
	listAt float64 // when the list was last redrawn (ms)
	said   lab.Summary
	saidAt float64 // when a change was last announced (ms)
}

const (
	worldListEvery = 1000 // ms
	worldSayEvery  = 2000 // ms
)

// showWorld shows w (nil: the screen has no world). On a new screen the
// summary is not announced: the screen's own announcement is the one.
func (p *page) showWorld(w *lab.Summary, entered bool) {
	sec := p.doc.Call("getElementById", "world-section")
	if !sec.Truthy() {
		return
	}
	ws := &p.world
	if w == nil {
		if ws.lines != nil {
			sec.Set("hidden", true)
			ws.lines, ws.said = nil, lab.Summary{}
		}
		return
	}
	now := nowMs()
	changed := w.Changed(ws.said)
	switch {
	case entered || ws.lines == nil:
		ws.said, ws.saidAt = *w, now
		changed = nil
	case len(changed) > 0 && now-ws.saidAt >= worldSayEvery:
		p.announce.line("Now: "+strings.Join(changed, ". ")+".", true)
		ws.said, ws.saidAt = *w, now
	}
	if ws.lines == nil || len(changed) > 0 || now-ws.listAt >= worldListEvery && !slices.Equal(w.Lines, ws.lines) {
		sec.Set("hidden", false)
		p.replaceChildren("world", "li", w.Lines)
		ws.lines, ws.listAt = slices.Clone(w.Lines), now
		if ws.lines == nil {
			ws.lines = []string{}
		}
	}
}
