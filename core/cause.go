package core

// Why did something happen? Every event records the events that caused
// it (Event.Causes; trace.go keeps the chain as the run goes). This file
// reads those links back: the chain from an event to its root, and what
// the root is.

// Root is where a chain of causes starts.
type Root uint8

const (
	// RootStart is the world as it was built: its processes starting,
	// their first timers.
	RootStart Root = iota
	// RootAction is an action: the learner's, or one the world's script
	// applies. Its direct effects (a pause, a cut link) are recorded just
	// before the action's own event and have no cause of their own.
	RootAction
)

// Event returns the event with sequence number seq, or nil.
func (t *Trace) Event(seq int) *Event {
	if seq < 0 || seq >= t.n {
		return nil
	}
	return t.At(seq)
}

// Chain returns e and then, one by one, the first cause of each event
// until one that has none: the story of e told backwards. A trace whose
// events were dropped (an explorer's world) may end it early.
func (t *Trace) Chain(e *Event) []*Event {
	out := []*Event{e}
	for {
		cs := e.Causes()
		if len(cs) == 0 {
			return out
		}
		next := t.Event(cs[0])
		if next == nil || next.Seq >= e.Seq {
			return out
		}
		out = append(out, next)
		e = next
	}
}

// RootOf says where e's chain starts and, for an action, returns the
// action's own event (KindAction or KindActionError).
func (t *Trace) RootOf(e *Event) (Root, *Event) {
	c := t.Chain(e)
	r := c[len(c)-1]
	if r.Kind == KindAction || r.Kind == KindActionError {
		return RootAction, r
	}
	// An action's direct effects are recorded just before it, with no
	// cause: the action is the first action event after them.
	for i := r.Seq; r.byAction && i < t.n; i++ {
		if n := t.At(i); n.Kind == KindAction || n.Kind == KindActionError {
			return RootAction, n
		}
	}
	return RootStart, nil
}
