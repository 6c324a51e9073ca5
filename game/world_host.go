package game

import (
	"fmt"
	"strings"

	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// The world's controls for the page: one group per process or worker with
// the actions its menu offers now ("act:A:pause"), and the store's and the
// queue's switches.

// pairs maps the second action of a pair to the first, so the page keeps
// one place (and its focus) for "Pause" and "Resume".
var pairs = map[string]string{"resume": "pause", "restart": "crash", "heal": "partition", "disk-normal": "disk-slow"}

// Controls implements controller.
func (w *worldView) Controls() []Control {
	var out []Control
	for _, a := range w.actors {
		group := a.Name
		switch {
		case a.Proc >= 0:
			group += ": " + describeProc(w.view.Procs[a.Proc], w.view.Words)
		case a.Node != "":
			group += ": " + w.describeNode(a.Node)
		case a.Member != "":
			group += ": " + w.describeMember(a.Member)
		default:
			wk := w.view.Workers[a.Worker]
			group += fmt.Sprintf(": owns %d shards", wk.Owned)
		}
		for _, c := range lab.ChoicesFor(w.lab.Lesson, w.view, a.Actor, w.token) {
			slot := c.ID
			verb, node, _ := strings.Cut(c.ID, ":") // "heal:redis-1" pairs with "partition:redis-1"
			if first, ok := pairs[verb]; ok {
				slot = first
				if node != "" {
					slot += ":" + node
				}
			}
			out = append(out, Control{ID: "act:" + a.Name + ":" + c.ID, Slot: "act:" + a.Name + ":" + slot,
				Group: group, Label: plainLabel(c.Label)})
		}
	}
	if on, ok := w.fencedOn(); ok && w.allows(lessons.CtlFencing) {
		out = append(out, Control{ID: "fencing", Group: "Store", Label: "Storage checks fencing tokens", Kind: KindToggle, On: on})
	}
	if q := w.view.Queue; q != nil && w.allows(lessons.CtlIdem) {
		out = append(out, Control{ID: "idempotency", Group: "Job queue", Label: "Queue checks idempotency keys", Kind: KindToggle, On: q.Idempotency})
	}
	return out
}

// fencedOn reports whether the world's fenced resource checks tokens, and
// whether it has one.
func (w *worldView) fencedOn() (on, ok bool) {
	switch {
	case w.view.Store != nil:
		return w.view.Store.Fencing, true
	case w.view.Offsets != nil:
		return w.view.Offsets.Fencing, true
	}
	return false, false
}

// host applies the page's uses of the world's controls: an actor's action
// as its menu item would, a switch as a click on it.
func (w *worldView) host(in *ui.Input) {
	for _, h := range in.Host {
		switch {
		case h.ID == "fencing":
			w.fencing.Press()
		case h.ID == "idempotency":
			w.idem.Press()
		case strings.HasPrefix(h.ID, "act:"):
			w.hostAct(strings.TrimPrefix(h.ID, "act:"))
		}
	}
}

// hostAct runs "NAME:CHOICE" if the actor's menu offers it now; a stale
// use (the page showed a state already gone) is said, not acted on.
func (w *worldView) hostAct(id string) {
	name, choice, _ := strings.Cut(id, ":")
	for _, a := range w.actors {
		if a.Name != name {
			continue
		}
		for _, c := range lab.ChoicesFor(w.lab.Lesson, w.view, a.Actor, w.token) {
			if c.ID != choice {
				continue
			}
			if c.NextToken {
				w.token = lab.NextToken(w.token)
				w.narrate(fmt.Sprintf("Write with token %d next", w.token))
				return
			}
			w.do(c.Action)
			return
		}
	}
	w.narrate(fmt.Sprintf("%s cannot do that now: the world changed", name))
}
