//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"leaselab/game"
)

// How each kind of control is made as HTML; controls.go keeps them up to
// date.

// create builds the element for c at place key.
func (v *controlsView) create(c game.Control, key string) *controlEl {
	el := &controlEl{item: v.doc.Call("createElement", "li")}
	el.item.Call("setAttribute", "data-place", key)
	mk := func(tag string) js.Value { return v.doc.Call("createElement", tag) }
	switch c.Kind {
	case game.KindLink:
		el.item.Set("className", "link")
		el.input = mk("a")
		el.input.Set("href", "#")
		el.label = mk("span")
		el.label.Set("className", "detail")
		el.item.Call("append", el.input, el.label)
	case game.KindRange, game.KindChoice:
		el.item.Set("className", "field") // a line of its own
		lab := mk("label")
		lab.Set("className", "range")
		el.label = mk("span")
		if c.Kind == game.KindRange {
			el.input = mk("input")
			el.input.Set("type", "range")
		} else {
			el.input = mk("select")
		}
		lab.Call("append", el.label, el.input)
		el.item.Call("append", lab)
		if c.Kind == game.KindRange && c.Typed {
			v.addBox(el, c, mk)
		}
	case game.KindText:
		el.item.Set("className", "field")
		lab := mk("label")
		lab.Set("className", "range")
		el.label = mk("span")
		el.input = mk("textarea")
		el.input.Set("rows", 5)
		el.input.Set("maxLength", 4000)
		lab.Call("append", el.label, el.input)
		el.item.Call("append", lab)
	case game.KindCopy:
		// Read-only, in the tab order: Tab to it selects the whole text,
		// ready to copy.
		el.item.Set("className", "field")
		lab := mk("label")
		lab.Set("className", "range")
		el.label = mk("span")
		el.input = mk("input")
		el.input.Set("type", "text")
		el.input.Set("readOnly", true)
		el.input.Set("spellcheck", false)
		input := el.input
		v.listen(input, "focus", func(js.Value) { input.Call("select") })
		lab.Call("append", el.label, el.input)
		el.item.Call("append", lab)
	case game.KindNote:
		// Words in the group's reading order: a first line that stands
		// out, and the lines after it.
		el.item.Set("className", "field note")
		el.input = mk("p")
		el.input.Set("className", "note-first")
		el.label = mk("p")
		el.label.Set("className", "detail note-lines")
		el.item.Call("append", el.input, el.label)
	case game.KindRadio, game.KindCheck:
		el.item.Set("className", "field")
		lab := mk("label")
		lab.Set("className", "choice")
		el.input = mk("input")
		el.input.Set("type", map[string]string{game.KindRadio: "radio", game.KindCheck: "checkbox"}[c.Kind])
		el.input.Set("name", "q-"+c.Group)
		el.label = mk("span")
		lab.Call("append", el.input, el.label)
		el.item.Call("append", lab)
	default:
		el.input = mk("button")
		el.input.Set("type", "button")
		el.item.Call("append", el.input)
	}
	return el
}

// addBox gives a typed range its box, where the value is typed (touch
// has no arrow keys, and a count up to 7,200 is too fine to drag to), and
// the line that says why a typed value was refused. The box is a text
// field with a decimal keypad, so the game, not the browser, judges what
// was typed and says why.
func (v *controlsView) addBox(el *controlEl, c game.Control, mk func(string) js.Value) {
	lab := mk("label")
	lab.Set("className", "entry")
	words := mk("span")
	words.Set("textContent", "or type it")
	el.box = mk("input")
	el.box.Set("type", "text")
	el.box.Set("autocomplete", "off")
	el.box.Set("spellcheck", false)
	el.box.Call("setAttribute", "inputmode", "decimal")
	el.box.Call("setAttribute", "data-entry", c.ID)
	el.note = mk("span")
	el.note.Set("className", "detail")
	v.made++
	el.note.Set("id", "entry-note-"+strconv.Itoa(v.made))
	el.box.Call("setAttribute", "aria-describedby", el.note.Get("id").String())
	lab.Call("append", words, el.box)
	el.item.Call("append", lab, el.note)
}
