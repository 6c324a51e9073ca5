package form

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"leaselab/lessons"
)

// Exercise 5's checks are queries the learner writes (lessons.QuerySyntax);
// the page and the desktop build them from menus: bug if or unless, some,
// no or every event of a kind (X), optionally with some event of another
// kind (Y), and up to three comparisons, each a field of X or Y against a
// field of X or Y or a value the logs hold. Builder is those menus without
// the drawing; both front ends show Menus and apply Set.

// Menu is one menu of the builder: its options and the one chosen.
type Menu struct {
	ID, Label string
	Options   []string
	Value     int
}

// Builder's fixed menus.
var (
	builderPolarities = []string{"bug if", "bug unless"}
	builderQuants     = []string{"some", "no", "every"}
	builderOps        = []string{"=", "!=", "<", "<=", ">", ">="}
)

// maxRows is how many comparisons a built check has at most.
const maxRows = 3

// noOther is the "with" menu's first option: X alone.
const noOther = "nothing else"

// Row is one comparison: Left and Right are "X.field", "Y.field" or (for
// Right) a value as a check writes it.
type Row struct{ Left, Op, Right string }

// Builder holds the menus' choices.
type Builder struct {
	lang                  *lessons.QueryLang
	Polarity, Quant, Kind string
	// With is the other event's kind ("" for none).
	With string
	Rows []Row
}

// NewBuilder starts a check about writes: bug if some write X: X.at = the
// first value.
func NewBuilder(lang *lessons.QueryLang) *Builder {
	b := &Builder{lang: lang, Polarity: builderPolarities[0], Quant: builderQuants[0], Kind: "write"}
	if !slices.Contains(lang.Kinds(), b.Kind) {
		b.Kind = lang.Kinds()[0]
	}
	b.Rows = []Row{{}}
	b.fix()
	return b
}

// sides are the fields a comparison may read: X's, then Y's.
func (b *Builder) sides() []string {
	var out []string
	for _, f := range b.lang.Fields(b.Kind) {
		out = append(out, "X."+f)
	}
	if b.With != "" {
		for _, f := range b.lang.Fields(b.With) {
			out = append(out, "Y."+f)
		}
	}
	return out
}

// kindOf is the kind of event a side ("X.token") reads and its field.
func (b *Builder) kindOf(side string) (kind, field string) {
	name, field, _ := strings.Cut(side, ".")
	if name == "Y" {
		return b.With, field
	}
	return b.Kind, field
}

// rights are what a row's left side may be compared with: the other
// fields of the same type, then the values the logs hold for it.
func (b *Builder) rights(left string) []string {
	kind, field := b.kindOf(left)
	num := b.lang.IsNumber(kind, field)
	var out []string
	for _, s := range b.sides() {
		k, f := b.kindOf(s)
		if s != left && b.lang.IsNumber(k, f) == num {
			out = append(out, s)
		}
	}
	return append(out, b.lang.Values(kind, field, 12)...)
}

// ops are the comparisons a row's left side takes: text only = and !=.
func (b *Builder) ops(left string) []string {
	if kind, field := b.kindOf(left); !b.lang.IsNumber(kind, field) {
		return builderOps[:2]
	}
	return builderOps
}

// fix keeps every choice among its menu's options (after the kind
// changed, say), falling back to the first.
func (b *Builder) fix() {
	pick := func(v string, opts []string) string {
		if slices.Contains(opts, v) || len(opts) == 0 {
			return v
		}
		return opts[0]
	}
	for i := range b.Rows {
		r := &b.Rows[i]
		r.Left = pick(r.Left, b.sides())
		r.Op = pick(r.Op, b.ops(r.Left))
		r.Right = pick(r.Right, b.rights(r.Left))
	}
}

// Menus lists the builder's menus in order, for the page's choice
// controls and the desktop's buttons.
func (b *Builder) Menus() []Menu {
	with := append([]string{noOther}, b.lang.Kinds()...)
	withV := b.With
	if withV == "" {
		withV = noOther
	}
	out := []Menu{
		{ID: "polarity", Label: "The incident is a bug", Options: []string{"if", "unless"}, Value: slices.Index(builderPolarities, b.Polarity)},
		{ID: "quant", Label: "Events", Options: builderQuants, Value: slices.Index(builderQuants, b.Quant)},
		{ID: "kind", Label: "Event X, of kind", Options: b.lang.Kinds(), Value: slices.Index(b.lang.Kinds(), b.Kind)},
		{ID: "with", Label: "With some event Y, of kind", Options: with, Value: slices.Index(with, withV)},
	}
	for i, r := range b.Rows {
		n := strconv.Itoa(i + 1)
		out = append(out,
			Menu{ID: "left:" + n, Label: "Comparison " + n + ": field", Options: b.sides(), Value: slices.Index(b.sides(), r.Left)},
			Menu{ID: "op:" + n, Label: "Comparison " + n + ": is", Options: b.ops(r.Left), Value: slices.Index(b.ops(r.Left), r.Op)},
			Menu{ID: "right:" + n, Label: "Comparison " + n + ": than or to", Options: b.rights(r.Left), Value: slices.Index(b.rights(r.Left), r.Right)},
		)
	}
	return out
}

// Set chooses option i of menu id.
func (b *Builder) Set(id string, i int) error {
	var m *Menu
	menus := b.Menus()
	for k := range menus {
		if menus[k].ID == id {
			m = &menus[k]
		}
	}
	if m == nil {
		return fmt.Errorf("the check builder has no menu %q", id)
	}
	if i < 0 || i >= len(m.Options) {
		return fmt.Errorf("%s: want an option from 1 to %d, got %d", m.Label, len(m.Options), i+1)
	}
	v := m.Options[i]
	name, n, _ := strings.Cut(id, ":")
	row, _ := strconv.Atoi(n)
	switch name {
	case "polarity":
		b.Polarity = builderPolarities[i]
	case "quant":
		b.Quant = v
	case "kind":
		b.Kind = v
	case "with":
		b.With = v
		if v == noOther {
			b.With = ""
		}
	case "left":
		b.Rows[row-1].Left = v
	case "op":
		b.Rows[row-1].Op = v
	case "right":
		b.Rows[row-1].Right = v
	}
	b.fix()
	return nil
}

// Next moves menu id to its next option, round to the first (the
// desktop's button for a menu).
func (b *Builder) Next(id string) {
	for _, m := range b.Menus() {
		if m.ID == id && len(m.Options) > 0 {
			_ = b.Set(id, (m.Value+1)%len(m.Options)) // an option of the menu itself
		}
	}
}

// CanAddRow and CanDropRow say whether a comparison can be added or the
// last one taken away.
func (b *Builder) CanAddRow() bool  { return len(b.Rows) < maxRows }
func (b *Builder) CanDropRow() bool { return len(b.Rows) > 1 }

// AddRow adds a comparison; DropRow takes the last away.
func (b *Builder) AddRow() {
	if b.CanAddRow() {
		b.Rows = append(b.Rows, Row{})
		b.fix()
	}
}

// DropRow takes the last comparison away.
func (b *Builder) DropRow() {
	if b.CanDropRow() {
		b.Rows = b.Rows[:len(b.Rows)-1]
	}
}

// Text is the check the menus make, in the check language.
func (b *Builder) Text() string {
	var s strings.Builder
	fmt.Fprintf(&s, "%s %s %s X", b.Polarity, b.Quant, b.Kind)
	if b.With != "" {
		fmt.Fprintf(&s, ": some %s Y", b.With)
	}
	var conds []string
	for _, r := range b.Rows {
		conds = append(conds, r.Left+" "+r.Op+" "+r.Right)
	}
	return s.String() + ": " + strings.Join(conds, " and ")
}

// Checks are the answer's checks so far.
func (f *Form) Checks() []string { return slices.Clone(f.answer.Checks) }

// AddCheck adds a check to the answer; one the exercise refuses (it
// cannot be read, it is there already, there are too many) is refused with
// the reason and the answer stays as it was.
func (f *Form) AddCheck(src string) error {
	next := f.answer.Clone()
	next.Checks = append(next.Checks, src)
	if err := f.Ex.Validate(next); err != nil {
		return err
	}
	f.version++
	f.answer = next
	return nil
}

// RemoveCheck takes check i out of the answer.
func (f *Form) RemoveCheck(i int) error {
	if i < 0 || i >= len(f.answer.Checks) {
		return fmt.Errorf("there is no check %d (the answer has %d)", i+1, len(f.answer.Checks))
	}
	f.version++
	f.answer.Checks = slices.Delete(slices.Clone(f.answer.Checks), i, i+1)
	if len(f.answer.Checks) == 0 {
		f.answer.Checks = nil
	}
	return nil
}
