package game

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

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

// queryWidgets are the canvas's widgets of the check builder.
type queryWidgets struct {
	qb                      *form.Builder
	menus                   []ui.Button // one per builder menu
	remove                  []ui.Button // one per check of the answer
	addRow, dropRow, addChk ui.Button
}

// syncQuery sizes the builder's widgets to its menus and the answer's
// checks and labels them; it reports whether their number changed (the
// focus order must then be rebuilt).
func (s *exerciseAnswer) syncQuery() bool {
	q := &s.query
	if q.qb == nil {
		return false
	}
	menus := q.qb.Menus()
	changed := len(q.menus) != len(menus) || len(q.remove) != len(s.Form.Checks())
	if len(q.menus) != len(menus) {
		q.menus = make([]ui.Button, len(menus))
	}
	for i, m := range menus {
		q.menus[i].Label = m.Options[m.Value]
	}
	if n := len(s.Form.Checks()); len(q.remove) != n {
		q.remove = make([]ui.Button, n)
	}
	for i := range q.remove {
		q.remove[i].Label = "Remove"
	}
	q.addRow.Label, q.dropRow.Label, q.addChk.Label = "+ comparison", "- comparison", "Add this check"
	q.addRow.Disabled, q.dropRow.Disabled = !q.qb.CanAddRow(), !q.qb.CanDropRow()
	return changed
}

// updateQuery applies this tick's presses on the builder's widgets.
func (s *exerciseAnswer) updateQuery(in *ui.Input) {
	q := &s.query
	if q.qb == nil {
		return
	}
	if s.syncQuery() { // a restored answer, or the model answer, loaded
		s.refocus()
	}
	menus := q.qb.Menus()
	for i := range q.menus {
		if i < len(menus) && pressed(&q.menus[i], in) {
			q.qb.Next(menus[i].ID)
			s.builderChanged(menus[i].Label)
		}
	}
	if q.addRow.Update(in) {
		q.qb.AddRow()
		s.builderChanged("A comparison added")
	}
	if q.dropRow.Update(in) {
		q.qb.DropRow()
		s.builderChanged("The last comparison taken away")
	}
	if q.addChk.Update(in) {
		s.addCheck()
	}
	for i := range q.remove {
		if q.remove[i].Update(in) {
			s.removeCheck(i)
			break
		}
	}
}

// builderChanged says what the check now reads and rebuilds the widgets.
func (s *exerciseAnswer) builderChanged(what string) {
	s.Narrate(what + ". The check reads: " + s.query.qb.Text())
	if s.syncQuery() {
		s.refocus()
	}
}

// addCheck adds the built check to the answer, or says why not.
func (s *exerciseAnswer) addCheck() {
	text := s.query.qb.Text()
	if err := s.Form.AddCheck(text); err != nil {
		s.notice = "That check is not added: " + err.Error()
		return
	}
	s.notice = ""
	s.Narrate(fmt.Sprintf("Check %d added: %s", len(s.Form.Checks()), text))
	s.disarm()
	s.saveDraft()
	if s.syncQuery() {
		s.refocus()
	}
}

// removeCheck takes check i out of the answer.
func (s *exerciseAnswer) removeCheck(i int) {
	checks := s.Form.Checks()
	if err := s.Form.RemoveCheck(i); err != nil {
		s.notice = err.Error()
		return
	}
	s.Narrate(fmt.Sprintf("Check %d removed: %s", i+1, checks[i]))
	s.disarm()
	s.saveDraft()
	if s.syncQuery() {
		s.refocus()
	}
}

// hostQuery applies a page's choice on a builder menu ("q:kind" with the
// option's index); it reports whether h was one.
func (s *exerciseAnswer) hostQuery(h ui.HostAction) bool {
	id, ok := strings.CutPrefix(h.ID, "q:")
	if !ok || s.query.qb == nil {
		return false
	}
	if err := s.query.qb.Set(id, int(h.Value)); err != nil {
		s.notice = err.Error()
		return true
	}
	for _, m := range s.query.qb.Menus() {
		if m.ID == id {
			s.builderChanged(m.Label + ": " + m.Options[m.Value])
		}
	}
	return true
}

// queryFocus lists the builder's widgets in focus order with the names
// the page's controls send.
func (s *exerciseAnswer) queryFocus() []ui.Focusable {
	q := &s.query
	if q.qb == nil {
		return nil
	}
	var out []ui.Focusable
	for i := range q.remove {
		out = append(out, &q.remove[i])
		s.names[&q.remove[i]] = "qremove:" + strconv.Itoa(i)
	}
	menus := q.qb.Menus()
	for i := range q.menus {
		out = append(out, &q.menus[i])
		s.names[&q.menus[i]] = "qmenu:" + menus[i].ID
	}
	out = append(out, &q.addRow, &q.dropRow, &q.addChk)
	s.names[&q.addRow], s.names[&q.dropRow], s.names[&q.addChk] = "qrow+", "qrow-", "qadd"
	return out
}

// queryControls lists the checks and the builder for the page.
func (s *exerciseAnswer) queryControls() []Control {
	q := &s.query
	if q.qb == nil {
		return nil
	}
	var out []Control
	for i, c := range s.Form.Checks() {
		out = append(out, Control{ID: "qremove:" + strconv.Itoa(i), Group: checksHeading, Label: fmt.Sprintf("Remove check %d: %s", i+1, c)})
	}
	for _, m := range q.qb.Menus() {
		out = append(out, Control{ID: "q:" + m.ID, Group: builderHeading, Label: m.Label, Kind: KindChoice, Options: m.Options, Value: float64(m.Value)})
	}
	return append(out,
		Control{ID: "qrow+", Group: builderHeading, Label: "Add a comparison", Disabled: q.addRow.Disabled},
		Control{ID: "qrow-", Group: builderHeading, Label: "Take away the last comparison", Disabled: q.dropRow.Disabled},
		Control{ID: "qadd", Group: builderHeading, Label: "Add this check", Detail: q.qb.Text()})
}

const (
	checksHeading  = "Your checks"
	builderHeading = "Build a check"
)

// checksNote says what the checks are for, under their heading.
func (s *exerciseAnswer) checksNote() string {
	if len(s.Form.Checks()) == 0 {
		return "None yet. Build one below: each says when an incident is a bug; an incident no check calls a bug is an expected retry."
	}
	return "Each says when an incident is a bug; an incident no check calls a bug is an expected retry."
}

// layoutQuery lays out the checks and the builder at *y (the form's
// running height, which addText moves too) in a column of width w.
func (s *exerciseAnswer) layoutQuery(y *float64, w float64, addText func(string, bool, bool), height func(string, *draw.Face, float64) float64) {
	q := &s.query
	g := &s.geom
	g.qRemove, g.qMenus = g.qRemove[:0], g.qMenus[:0]
	if q.qb == nil {
		return
	}
	st := s.style
	px := func(v float64) float64 { return math.Round(v * st.Unit) }
	body := st.Body()
	addText(checksHeading, false, true)
	addText(s.checksNote(), true, false)
	*y += px(6)
	btnW := px(96)
	for i, c := range s.Form.Checks() {
		text := draw.Drawable(fmt.Sprintf("%d. %s", i+1, c))
		tw := math.Max(0, w-btnW-px(10))
		h := math.Max(px(34), height(text, body, tw))
		g.texts = append(g.texts, formText{r: ui.Rect{Y: *y, W: tw, H: h}, text: text})
		g.qRemove = append(g.qRemove, ui.Rect{X: w - btnW, Y: *y, W: btnW, H: px(34)})
		*y += h + px(6)
	}
	*y += px(8)
	addText(builderHeading, false, true)
	addText(draw.Drawable("Reads: "+q.qb.Text()), true, false)
	*y += px(6)
	menuW := math.Round(w * 0.55)
	for _, m := range q.qb.Menus() {
		g.texts = append(g.texts, formText{r: ui.Rect{Y: *y + px(7), W: w - menuW - px(8), H: draw.LineHeight(st.Small())}, text: m.Label, dim: true})
		g.qMenus = append(g.qMenus, ui.Rect{X: w - menuW, Y: *y, W: menuW, H: px(34)})
		*y += px(34) + px(6)
	}
	bw := math.Floor((w - px(16)) / 3)
	for i := range g.qButtons {
		g.qButtons[i] = ui.Rect{X: float64(i) * (bw + px(8)), Y: *y, W: bw, H: px(34)}
	}
	*y += px(34) + px(18)
}

// placeQuery gives the builder's widgets their on-screen rectangles.
func (s *exerciseAnswer) placeQuery() {
	q, g := &s.query, &s.geom
	for i := range q.remove {
		q.remove[i].Rect = ui.Rect{}
		if i < len(g.qRemove) {
			q.remove[i].Rect = s.toView(g.qRemove[i])
		}
	}
	for i := range q.menus {
		q.menus[i].Rect = ui.Rect{}
		if i < len(g.qMenus) {
			q.menus[i].Rect = s.toView(g.qMenus[i])
		}
	}
	q.addRow.Rect, q.dropRow.Rect, q.addChk.Rect = s.toView(g.qButtons[0]), s.toView(g.qButtons[1]), s.toView(g.qButtons[2])
}

// queryRect is the content rectangle of a builder widget, if f is one.
func (s *exerciseAnswer) queryRect(f ui.Focusable) (ui.Rect, bool) {
	q, g := &s.query, &s.geom
	if q.qb == nil {
		return ui.Rect{}, false
	}
	for i := range q.remove {
		if f == &q.remove[i] && i < len(g.qRemove) {
			return g.qRemove[i], true
		}
	}
	for i := range q.menus {
		if f == &q.menus[i] && i < len(g.qMenus) {
			return g.qMenus[i], true
		}
	}
	for i, b := range []*ui.Button{&q.addRow, &q.dropRow, &q.addChk} {
		if f == b {
			return g.qButtons[i], true
		}
	}
	return ui.Rect{}, false
}

// drawQuery draws the builder's buttons (their texts are the form's).
func (s *exerciseAnswer) drawQuery(dst *ebiten.Image) {
	q := &s.query
	if q.qb == nil {
		return
	}
	st := s.style
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
