package view

import (
	"fmt"
	"strings"

	"leaselab/core"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// The world's controls, declared once per layout: one group per process
// or worker with the actions its menu offers now ("act:A:pause"), and the
// store's and the queue's switches. The page lists them; the canvas's
// popover and switches are made from them and used through them.

// pairs maps the second action of a pair to the first, so the page keeps
// one place (and its focus) for "Pause" and "Resume".
var pairs = map[string]string{"resume": "pause", "restart": "crash", "heal": "partition", "disk-normal": "disk-slow"}

// declare builds the world's declarations from the snapshot just laid
// out: each actor's menu, asked once (choices, which the canvas's popover
// reads too), and the switches.
func (w *World) declare() {
	w.decls = w.decls[:0]
	w.choices = w.choices[:0]
	for _, a := range w.actors {
		group := a.Name
		switch {
		case a.Proc >= 0:
			group += ": " + DescribeProc(w.view.Procs[a.Proc], w.view.Words)
		case a.Node != "":
			group += ": " + w.describeNode(a.Node)
		case a.Member != "":
			group += ": " + w.describeMember(a.Member)
		default:
			wk := w.view.Workers[a.Worker]
			group += fmt.Sprintf(": owns %d shards", wk.Owned)
		}
		choices := lab.ChoicesFor(w.lab.Lesson, w.view, a.Actor, w.token)
		w.choices = append(w.choices, choices)
		for _, c := range choices {
			slot := c.ID
			verb, node, _ := strings.Cut(c.ID, ":") // "heal:redis-1" pairs with "partition:redis-1"
			if first, ok := pairs[verb]; ok {
				slot = first
				if node != "" {
					slot += ":" + node
				}
			}
			label := c.Label
			if c.Key != 0 {
				label = strings.TrimSuffix(label, " ("+c.Key.Key()+")")
			}
			w.decls = append(w.decls, ui.Control{ID: ActID(a.Name, c.ID), Slot: ActID(a.Name, slot),
				Group: group, Label: label, Key: c.Key, Do: func(ui.HostAction) { w.choose(c) }})
		}
	}
	if on, ok := w.fencedOn(); ok && w.allows(lessons.CtlFencing) {
		w.decls = append(w.decls, ui.Control{ID: "fencing", Group: "Store", Label: "Storage checks fencing tokens", Kind: ui.KindToggle, On: on,
			Do: func(ui.HostAction) { w.do(core.Fencing(!on)) }})
	}
	if q := w.view.Queue; q != nil && w.allows(lessons.CtlIdem) {
		on := q.Idempotency
		w.decls = append(w.decls, ui.Control{ID: "idempotency", Group: "Job queue", Label: "Queue checks idempotency keys", Kind: ui.KindToggle, On: on,
			Do: func(ui.HostAction) { w.do(core.Idempotency(!on)) }})
	}
}

// ActID is the id of actor name's choice: "act:A:pause", on the page, as
// the canvas's region and in tests.
func ActID(name, choice string) string { return "act:" + name + ":" + choice }

// Controls implements controller: the declarations of the last layout.
func (w *World) Controls() []ui.Control { return w.decls }

// use passes a click on the world's canvas through the declarations' one
// door, as a use on the page does.
func (w *World) use(id string) {
	if _, err := w.decls.Use(ui.HostAction{ID: id}); err != nil {
		w.narrate(err.Error())
	}
}

// choose does choice c, from the canvas's menu or the page alike: its
// action, which closes the menu (it would hide what the action sets off),
// or the menu's own step to another token (which words it anew).
func (w *World) choose(c lab.Choice) {
	if c.NextToken {
		w.token = lab.NextToken(w.token)
		w.narrate(fmt.Sprintf("Write with token %d next", w.token))
		w.declare()
	} else {
		w.do(c.Action)
		w.selected = -1
	}
	w.layoutMenu()
}

// fencedOn reports whether the world's fenced resource checks tokens, and
// whether it has one.
func (w *World) fencedOn() (on, ok bool) {
	switch {
	case w.view.Store != nil:
		return w.view.Store.Fencing, true
	case w.view.Offsets != nil:
		return w.view.Offsets.Fencing, true
	}
	return false, false
}

// Stale says a page's use of an actor's action its menu no longer
// offers (the page showed a state already gone): said, not acted on.
func (w *World) Stale(id string) {
	name, _, _ := strings.Cut(strings.TrimPrefix(id, "act:"), ":")
	w.narrate(fmt.Sprintf("%s cannot do that now: the world changed", name))
}
