//go:build js && wasm

package main

import (
	"slices"
	"strconv"
	"syscall/js"

	"leaselab/game"
	"leaselab/game/ui"
)

// controlsView shows a scene's controls (game.Control) as HTML: a section
// per group with a heading and a list of buttons, links, ranges and
// choices. It changes only what changed since the last update, keeping
// every element (and so the keyboard focus) whose place stays, so a
// "Pause" that becomes "Resume" under the learner's finger stays focused.
type controlsView struct {
	doc       js.Value
	root, nav js.Value
	send      func(ui.HostAction)

	items  map[string]*controlEl // by place (Control.Slot, else ID)
	groups map[string]*groupEl   // by heading
	last   []game.Control
	funcs  []js.Func
	made   int    // groups made, for their headings' ids
	used   string // the group of the button the learner last used
}

type controlEl struct {
	c     game.Control
	item  js.Value // the <li>
	input js.Value // the button, link, input or select
	label js.Value // the text beside a range, choice or link
	// box and note: a typed range's box (game.Control.Typed) and the line
	// under it that says why a typed value was refused.
	box, note js.Value
	news      bool    // a note's words changed: show them if used beside
	edit      float64 // when the learner last moved a range (ms, performance.now)
}

// editing reports that the learner moved or typed in el in the last
// moments: the game's copy of its value may not have caught up yet.
func (el *controlEl) editing() bool { return nowMs()-el.edit <= 800 }

// nowMs is the page's clock, in milliseconds.
func nowMs() float64 { return js.Global().Get("performance").Call("now").Float() }

type groupEl struct {
	section, heading, list js.Value
}

func newControlsView(doc js.Value, send func(ui.HostAction)) *controlsView {
	v := &controlsView{doc: doc, send: send, root: doc.Call("getElementById", "controls"),
		nav: doc.Call("getElementById", "nav-links"), items: map[string]*controlEl{}, groups: map[string]*groupEl{}}
	for _, el := range []js.Value{v.root, v.nav} {
		if !el.Truthy() {
			continue
		}
		v.listen(el, "click", v.clicked)
		v.listen(el, "change", v.changed)
		v.listen(el, "input", v.changed)
	}
	return v
}

func (v *controlsView) listen(el js.Value, event string, f func(js.Value)) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		f(args[0])
		return nil
	})
	v.funcs = append(v.funcs, fn)
	el.Call("addEventListener", event, fn)
}

// target is the control an event is about.
func (v *controlsView) target(ev js.Value) *controlEl {
	el := ev.Get("target")
	if !el.Truthy() || el.Get("closest").IsUndefined() {
		return nil
	}
	el = el.Call("closest", "[data-place]")
	if !el.Truthy() {
		return nil
	}
	return v.items[el.Call("getAttribute", "data-place").String()]
}

func (v *controlsView) clicked(ev js.Value) {
	c := v.target(ev)
	if c == nil {
		return
	}
	switch c.c.Kind {
	case "", game.KindToggle, game.KindLink:
		ev.Call("preventDefault")
		if !c.c.Disabled {
			v.used = c.c.Group
			v.send(ui.HostAction{ID: c.c.ID})
		}
	}
}

func (v *controlsView) changed(ev js.Value) {
	c := v.target(ev)
	if c == nil {
		return
	}
	if c.box.Truthy() && ev.Get("target").Equal(c.box) {
		// A typed value counts once the learner commits it (Enter, or
		// leaving the box), never half typed.
		if ev.Get("type").String() == "change" {
			v.send(ui.HostAction{ID: c.c.ID, Typed: true, Text: c.box.Get("value").String()})
		}
		return
	}
	switch c.c.Kind {
	case game.KindRange:
		c.edit = nowMs()
		v.send(ui.HostAction{ID: c.c.ID, Value: c.input.Get("valueAsNumber").Float()})
	case game.KindChoice:
		if ev.Get("type").String() == "change" {
			v.send(ui.HostAction{ID: c.c.ID, Value: float64(c.input.Get("selectedIndex").Int())})
		}
	case game.KindRadio, game.KindCheck:
		if ev.Get("type").String() == "change" {
			v.send(ui.HostAction{ID: c.c.ID})
		}
	case game.KindText:
		// Every edit is kept (the game saves the draft), so a reload
		// never loses a sentence.
		c.edit = nowMs()
		v.send(ui.HostAction{ID: c.c.ID, Text: c.input.Get("value").String()})
	}
}

// inNav reports a control the page shows in its navigation: the way back.
func inNav(c game.Control) bool {
	return c.Kind == game.KindLink && (c.ID == "menu" || c.ID == "back")
}

func place(c game.Control) string {
	if c.Slot != "" {
		return c.Slot
	}
	return c.ID
}

// update shows cs.
func (v *controlsView) update(cs []game.Control) {
	if slices.EqualFunc(cs, v.last, controlEqual) || !v.root.Truthy() {
		return
	}
	v.last = slices.Clone(cs)
	seen := map[string]bool{}
	seenGroup := map[string]bool{}
	var order []string                 // groups, in order
	members := map[string][]js.Value{} // group -> its items, in order
	var navItems []js.Value
	for _, c := range cs {
		key := place(c)
		if seen[key] {
			continue // a place is shown once
		}
		seen[key] = true
		el := v.items[key]
		if el == nil || el.c.Kind != c.Kind {
			if el != nil {
				el.item.Call("remove")
			}
			el = v.create(c, key)
			v.items[key] = el
		}
		v.refresh(el, c)
		if inNav(c) {
			navItems = append(navItems, el.item)
			continue
		}
		if !seenGroup[c.Group] {
			seenGroup[c.Group] = true
			order = append(order, c.Group)
		}
		members[c.Group] = append(members[c.Group], el.item)
	}
	for key, el := range v.items {
		if !seen[key] {
			el.item.Call("remove")
			delete(v.items, key)
		}
	}
	var sections []js.Value
	for _, name := range order {
		g := v.groups[name]
		if g == nil {
			g = v.newGroup(name)
			v.groups[name] = g
		}
		links := true
		for _, it := range members[name] {
			links = links && it.Get("classList").Call("contains", "link").Bool()
		}
		g.list.Get("classList").Call("toggle", "links", links)
		arrange(g.list, members[name])
		sections = append(sections, g.section)
	}
	for name, g := range v.groups {
		if !seenGroup[name] {
			g.section.Call("remove")
			delete(v.groups, name)
		}
	}
	arrange(v.root, sections)
	if v.nav.Truthy() {
		arrange(v.nav, navItems)
	}
	for _, el := range v.items {
		if el.news {
			el.news = false
			v.showIfUsedBeside(el)
		}
	}
}

// arrange makes parent's children exactly kids, in order, moving only the
// ones out of place.
func arrange(parent js.Value, kids []js.Value) {
	for i, k := range kids {
		cur := parent.Get("children").Index(i)
		if !cur.Equal(k) {
			parent.Call("insertBefore", k, nilIfUndefined(cur))
		}
	}
	for parent.Get("children").Length() > len(kids) {
		parent.Get("lastElementChild").Call("remove")
	}
}

func nilIfUndefined(v js.Value) any {
	if v.IsUndefined() {
		return js.Null()
	}
	return v
}

func (v *controlsView) newGroup(name string) *groupEl {
	g := &groupEl{section: v.doc.Call("createElement", "section"), heading: v.doc.Call("createElement", "h3"),
		list: v.doc.Call("createElement", "ul")}
	g.section.Set("className", "group")
	g.heading.Set("textContent", name)
	g.list.Set("className", "items")
	v.made++
	id := "group-" + strconv.Itoa(v.made)
	g.heading.Set("id", id)
	g.section.Call("setAttribute", "aria-labelledby", id)
	g.section.Call("append", g.heading, g.list)
	return g
}

// refresh brings el up to c, touching only what differs.
func (v *controlsView) refresh(el *controlEl, c game.Control) {
	old := el.c
	first := old.ID == "" && old.Label == ""
	el.c = c
	if first || c.ID != old.ID {
		el.input.Call("setAttribute", "data-id", c.ID)
	}
	switch c.Kind {
	case game.KindLink:
		el.setIf(first || c.Label != old.Label, el.input, "textContent", c.Label)
		el.setIf(first || c.Detail != old.Detail, el.label, "textContent", c.Detail)
	case game.KindRange:
		el.refreshRange(c, old, first)
	case game.KindChoice:
		el.setIf(first || c.Label != old.Label, el.label, "textContent", c.Label)
		if first || !slices.Equal(c.Options, old.Options) {
			opts := make([]any, len(c.Options))
			for i, o := range c.Options {
				op := v.doc.Call("createElement", "option")
				op.Set("textContent", o)
				opts[i] = op
			}
			el.input.Call("replaceChildren", opts...)
		}
		el.input.Set("selectedIndex", int(c.Value))
	case game.KindText:
		el.setIf(first || c.Label != old.Label, el.label, "textContent", c.Label)
		// What the learner is typing stays theirs until they pause.
		el.setIf(first || c.Text != old.Text && !el.editing() && el.input.Get("value").String() != c.Text, el.input, "value", c.Text)
	case game.KindCopy:
		el.setIf(first || c.Label != old.Label, el.label, "textContent", c.Label)
		el.setIf(first || c.Text != old.Text, el.input, "value", c.Text)
		el.setIf(first || c.Detail != old.Detail, el.input, "title", c.Detail)
	case game.KindNote:
		el.setIf(first || c.Label != old.Label, el.input, "textContent", c.Label)
		el.setIf(first || c.Detail != old.Detail, el.label, "textContent", c.Detail)
		// Shown once the item is in its place (update).
		el.news = first || c.Label != old.Label || c.Detail != old.Detail
	case game.KindRadio, game.KindCheck:
		el.setIf(first || c.Label != old.Label, el.label, "textContent", c.Label)
		el.input.Set("checked", c.On)
	default:
		el.refreshButton(c, old, first)
	}
	if first || c.Disabled != old.Disabled {
		el.setDisabled(c)
	}
}

// showIfUsedBeside brings el's new words into view when the control the
// learner last used in the page is of the same group (a verdict under the
// Check button they tapped, which is disabled while the check runs and so
// has lost the focus), and leaves the page where it is otherwise (a screen
// opens at its top).
func (v *controlsView) showIfUsedBeside(el *controlEl) {
	if v.used != "" && el.c.Group == v.used {
		el.item.Call("scrollIntoView", map[string]any{"block": "nearest"})
	}
}

// setIf sets target's property prop to val when changed says so.
func (el *controlEl) setIf(changed bool, target js.Value, prop string, val any) {
	if changed {
		target.Set(prop, val)
	}
}

// refreshRange updates a range: its label and value text, its bounds, and
// its value unless the learner is moving it.
func (el *controlEl) refreshRange(c, old game.Control, first bool) {
	el.setIf(first || c.Label != old.Label || c.Text != old.Text, el.label, "textContent", c.Label+": "+c.Text)
	if first || c.Min != old.Min || c.Max != old.Max || c.Step != old.Step {
		el.input.Set("min", c.Min)
		el.input.Set("max", c.Max)
		el.input.Set("step", c.Step)
	}
	el.input.Call("setAttribute", "aria-valuetext", c.Text)
	// A range the learner is moving keeps their value until they let go.
	el.setIf(first || c.Value != old.Value && !el.editing(), el.input, "value", c.Value)
	if !el.box.Truthy() {
		return
	}
	el.box.Call("setAttribute", "aria-label", c.Label+": type a value")
	// What the learner is typing stays theirs while the box has the focus.
	typing := el.box.Equal(el.box.Get("ownerDocument").Get("activeElement"))
	el.setIf(first || c.Entry != old.Entry && !typing, el.box, "value", c.Entry)
	el.setIf(first || c.Detail != old.Detail, el.note, "textContent", c.Detail)
	el.box.Call("setAttribute", "aria-invalid", strconv.FormatBool(c.Detail != ""))
}

// refreshButton updates a button or toggle: its label, whether it is
// pressed, and its description, which goes when the control has none
// (a verdict cleared by a new chain no longer describes its button).
func (el *controlEl) refreshButton(c, old game.Control, first bool) {
	el.setIf(first || c.Label != old.Label, el.input, "textContent", c.Label)
	if c.Kind == game.KindToggle {
		el.input.Call("setAttribute", "aria-pressed", strconv.FormatBool(c.On))
	} else {
		el.input.Call("removeAttribute", "aria-pressed")
	}
	if first || c.Detail != old.Detail {
		if c.Detail != "" {
			el.input.Set("title", c.Detail)
		} else {
			el.input.Call("removeAttribute", "title")
		}
	}
}

// setDisabled marks the control unusable, or usable again: a link by
// aria-disabled (it stays focusable), anything else by disabled.
func (el *controlEl) setDisabled(c game.Control) {
	if c.Kind != game.KindLink {
		el.input.Set("disabled", c.Disabled)
	} else if c.Disabled {
		el.input.Call("setAttribute", "aria-disabled", "true")
	} else {
		el.input.Call("removeAttribute", "aria-disabled")
	}
}

func controlEqual(a, b game.Control) bool {
	return a.ID == b.ID && a.Slot == b.Slot && a.Group == b.Group && a.Label == b.Label && a.Kind == b.Kind &&
		a.On == b.On && a.Disabled == b.Disabled && a.Value == b.Value && a.Min == b.Min && a.Max == b.Max &&
		a.Step == b.Step && a.Text == b.Text && a.Detail == b.Detail && slices.Equal(a.Options, b.Options) &&
		a.Typed == b.Typed && a.Entry == b.Entry
}

// label is the words a control is known by, for announcing focus.
func (v *controlsView) label(id string) string {
	for _, c := range v.last {
		if c.ID == id {
			if c.Kind == game.KindRange {
				return c.Label + ", " + c.Text
			}
			return c.Label
		}
	}
	return ""
}
