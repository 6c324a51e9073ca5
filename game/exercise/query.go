package exercise

import (
	"fmt"
	"math"
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/answer"
	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/ui"
)

// Exercise 5's checks, built from menus on the canvas and in the page: a
// button per menu of the builder (Enter or a click moves it to its next
// option; the page's select picks any), buttons to add and take away a
// comparison and to add the check, and a Remove button by each check the
// answer holds. The page's controls and the canvas's buttons go to the
// same Builder and Form.

// queryBuilder is the check builder of the answer form a: the
// builder's menus, its widgets, where they go in the form, and what a
// press on one does (on the canvas or in the page).
type queryBuilder struct {
	a *answerForm

	qb                      *form.Builder
	menus                   []ui.Button // one per builder menu
	remove                  []ui.Button // one per check of the answer
	addRow, dropRow, addChk ui.Button

	// Where the widgets go, in the form's content coordinates: each
	// check's Remove button, each menu's button, and the comparison and
	// add buttons.
	removeAt, menusAt []ui.Rect
	buttonsAt         [3]ui.Rect
}

// sync sizes the builder's widgets to its menus and the answer's
// checks and labels them; it reports whether their number changed (the
// focus order must then be rebuilt).
func (q *queryBuilder) sync() bool {
	if q.qb == nil {
		return false
	}
	menus := q.qb.Menus()
	changed := len(q.menus) != len(menus) || len(q.remove) != len(q.a.Form.Checks())
	if len(q.menus) != len(menus) {
		q.menus = make([]ui.Button, len(menus))
	}
	for i, m := range menus {
		q.menus[i].Label = m.Options[m.Value]
	}
	if n := len(q.a.Form.Checks()); len(q.remove) != n {
		q.remove = make([]ui.Button, n)
	}
	for i := range q.remove {
		q.remove[i].Label = "Remove"
	}
	q.addRow.Label, q.dropRow.Label, q.addChk.Label = "+ comparison", "- comparison", "Add this check"
	q.addRow.Disabled, q.dropRow.Disabled = !q.qb.CanAddRow(), !q.qb.CanDropRow()
	return changed
}

// update passes this tick's presses on the builder's widgets through
// their declarations (controls), as the page's uses of the same ids go:
// a press on a menu's button picks its next option.
func (q *queryBuilder) update(in *ui.Input) {
	if q.qb == nil {
		return
	}
	if q.sync() { // a restored answer, or the model answer, loaded
		q.a.Refocus()
	}
	menus := q.qb.Menus()
	for i := range q.menus {
		if i < len(menus) && answer.Pressed(&q.menus[i], in) && len(menus[i].Options) > 0 {
			q.a.use(ui.HostAction{ID: "q:" + menus[i].ID, Value: float64((menus[i].Value + 1) % len(menus[i].Options))})
		}
	}
	for i, b := range []*ui.Button{&q.addRow, &q.dropRow, &q.addChk} {
		if b.Update(in) {
			q.a.use(ui.HostAction{ID: [...]string{"qrow+", "qrow-", "qadd"}[i]})
		}
	}
	for i := range q.remove {
		if q.remove[i].Update(in) {
			q.a.use(ui.HostAction{ID: "qremove:" + strconv.Itoa(i)})
			break
		}
	}
}

// changed says what the check now reads and rebuilds the widgets.
func (q *queryBuilder) changed(what string) {
	q.a.Narrate(what + ". The check reads: " + q.qb.Text())
	if q.sync() {
		q.a.Refocus()
	}
}

// addCheck adds the built check to the answer, or says why not.
func (q *queryBuilder) addCheck() {
	text := q.qb.Text()
	if err := q.a.Form.AddCheck(text); err != nil {
		q.a.notice = "That check is not added: " + err.Error()
		return
	}
	q.a.notice = ""
	q.a.Narrate(fmt.Sprintf("Check %d added: %s", len(q.a.Form.Checks()), text))
	q.a.disarm()
	q.a.saveDraft()
	if q.sync() {
		q.a.Refocus()
	}
}

// removeCheck takes check i out of the answer.
func (q *queryBuilder) removeCheck(i int) {
	checks := q.a.Form.Checks()
	if err := q.a.Form.RemoveCheck(i); err != nil {
		q.a.notice = err.Error()
		return
	}
	q.a.Narrate(fmt.Sprintf("Check %d removed: %s", i+1, checks[i]))
	q.a.disarm()
	q.a.saveDraft()
	if q.sync() {
		q.a.Refocus()
	}
}

// choose sets builder menu id to its option i, as the page's select and
// the canvas's menu button both ask.
func (q *queryBuilder) choose(id string, i int) {
	if err := q.qb.Set(id, i); err != nil {
		q.a.notice = err.Error()
		return
	}
	for _, m := range q.qb.Menus() {
		if m.ID == id {
			q.changed(m.Label + ": " + m.Options[m.Value])
		}
	}
}

// focus lists the builder's widgets in focus order with the names
// the page's controls send.
func (q *queryBuilder) focus() []ui.Focusable {
	if q.qb == nil {
		return nil
	}
	var out []ui.Focusable
	for i := range q.remove {
		out = append(out, &q.remove[i])
		q.a.names[&q.remove[i]] = "qremove:" + strconv.Itoa(i)
	}
	menus := q.qb.Menus()
	for i := range q.menus {
		out = append(out, &q.menus[i])
		q.a.names[&q.menus[i]] = "q:" + menus[i].ID
	}
	out = append(out, &q.addRow, &q.dropRow, &q.addChk)
	q.a.names[&q.addRow], q.a.names[&q.dropRow], q.a.names[&q.addChk] = "qrow+", "qrow-", "qadd"
	return out
}

// controls declares the checks and the builder, for the page and the
// canvas alike: each check's Remove, each menu (a choice of its options),
// the comparison buttons and Add this check.
func (q *queryBuilder) controls() []ui.Control {
	if q.qb == nil {
		return nil
	}
	var out []ui.Control
	for i, c := range q.a.Form.Checks() {
		out = append(out, ui.Control{ID: "qremove:" + strconv.Itoa(i), Group: checksHeading, Label: fmt.Sprintf("Remove check %d: %s", i+1, c),
			Do: func(ui.HostAction) { q.removeCheck(i) }})
	}
	for _, m := range q.qb.Menus() {
		out = append(out, ui.Control{ID: "q:" + m.ID, Group: builderHeading, Label: m.Label, Kind: ui.KindChoice, Options: m.Options, Value: float64(m.Value),
			Do: func(h ui.HostAction) { q.choose(m.ID, int(h.Value)) }})
	}
	return append(out,
		ui.Control{ID: "qrow+", Group: builderHeading, Label: "Add a comparison", Disabled: !q.qb.CanAddRow(),
			Do: func(ui.HostAction) { q.qb.AddRow(); q.changed("A comparison added") }},
		ui.Control{ID: "qrow-", Group: builderHeading, Label: "Take away the last comparison", Disabled: !q.qb.CanDropRow(),
			Do: func(ui.HostAction) { q.qb.DropRow(); q.changed("The last comparison taken away") }},
		ui.Control{ID: "qadd", Group: builderHeading, Label: "Add this check", Detail: q.qb.Text(), Do: func(ui.HostAction) { q.addCheck() }})
}

const (
	checksHeading  = "Your checks"
	builderHeading = "Build a check"
)

// note says what the checks are for, under their heading.
func (q *queryBuilder) note() string {
	if len(q.a.Form.Checks()) == 0 {
		return "None yet. Build one below: each says when an incident is a bug; an incident no check calls a bug is an expected retry."
	}
	return "Each says when an incident is a bug; an incident no check calls a bug is an expected retry."
}

// layout lays out the checks and the builder in the form's column f.
func (q *queryBuilder) layout(f *answer.Flow) {
	q.removeAt, q.menusAt = q.removeAt[:0], q.menusAt[:0]
	if q.qb == nil {
		return
	}
	w, px := f.W, f.Px
	f.AddText(checksHeading, false, true)
	f.AddText(q.note(), true, false)
	f.Y += px(6)
	for i, c := range q.a.Form.Checks() {
		q.removeAt = append(q.removeAt, f.Removable(draw.Drawable(fmt.Sprintf("%d. %s", i+1, c))))
	}
	f.Y += px(8)
	f.AddText(builderHeading, false, true)
	f.AddText(draw.Drawable("Reads: "+q.qb.Text()), true, false)
	f.Y += px(6)
	menuW := math.Round(w * 0.55)
	for _, m := range q.qb.Menus() {
		*f.Texts = append(*f.Texts, answer.Text{R: ui.Rect{Y: f.Y + px(7), W: w - menuW - px(8), H: draw.LineHeight(f.Small)}, Text: m.Label, Dim: true})
		q.menusAt = append(q.menusAt, ui.Rect{X: w - menuW, Y: f.Y, W: menuW, H: px(34)})
		f.Y += px(34) + px(6)
	}
	bw := math.Floor((w - px(16)) / 3)
	for i := range q.buttonsAt {
		q.buttonsAt[i] = ui.Rect{X: float64(i) * (bw + px(8)), Y: f.Y, W: bw, H: px(34)}
	}
	f.Y += px(34) + px(18)
}

// place gives the builder's widgets their on-screen rectangles.
func (q *queryBuilder) place() {
	for i := range q.remove {
		q.remove[i].Rect = ui.Rect{}
		if i < len(q.removeAt) {
			q.remove[i].Rect = q.a.ToView(q.removeAt[i])
		}
	}
	for i := range q.menus {
		q.menus[i].Rect = ui.Rect{}
		if i < len(q.menusAt) {
			q.menus[i].Rect = q.a.ToView(q.menusAt[i])
		}
	}
	q.addRow.Rect, q.dropRow.Rect, q.addChk.Rect = q.a.ToView(q.buttonsAt[0]), q.a.ToView(q.buttonsAt[1]), q.a.ToView(q.buttonsAt[2])
}

// rect is the content rectangle of a builder widget, if f is one.
func (q *queryBuilder) rect(f ui.Focusable) (ui.Rect, bool) {
	if q.qb == nil {
		return ui.Rect{}, false
	}
	for i := range q.remove {
		if f == &q.remove[i] && i < len(q.removeAt) {
			return q.removeAt[i], true
		}
	}
	for i := range q.menus {
		if f == &q.menus[i] && i < len(q.menusAt) {
			return q.menusAt[i], true
		}
	}
	for i, b := range []*ui.Button{&q.addRow, &q.dropRow, &q.addChk} {
		if f == b {
			return q.buttonsAt[i], true
		}
	}
	return ui.Rect{}, false
}

// draw draws the builder's buttons (their texts are the form's).
func (q *queryBuilder) draw(dst *ebiten.Image) {
	if q.qb == nil {
		return
	}
	st := q.a.style
	for i := range q.remove {
		st.Button(dst, &q.remove[i])
	}
	for i := range q.menus {
		st.Button(dst, &q.menus[i])
	}
	st.Button(dst, &q.addRow)
	st.Button(dst, &q.dropRow)
	st.Button(dst, &q.addChk)
}
