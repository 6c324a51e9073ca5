//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"leaselab/game"
)

// announcer writes game.Announcer's decisions into the polite live region.
type announcer struct {
	el js.Value
	a  game.Announcer
}

func newAnnouncer(el js.Value) *announcer {
	return &announcer{el: el, a: game.Announcer{Interval: game.DefaultInterval}}
}

func (n *announcer) line(s string, key bool) { n.a.Line(s, key) }
func (n *announcer) now(s string)            { n.a.Now(s) }
func (n *announcer) screen(s string)         { n.a.Screen(s) }

func (n *announcer) flush() {
	if s := n.a.Flush(time.Duration(nowMs() * float64(time.Millisecond))); s != "" && n.el.Truthy() {
		n.el.Set("textContent", s)
	}
}
