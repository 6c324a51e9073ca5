package player

import (
	"fmt"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// KnobPanel is the strip of sliders for a lesson's knobs, with the
// lesson's live verdict on them. Moving a slider rebuilds the world with
// the new value and replays the learner's actions up to the play head.
//
// Like the other views it changes nothing itself: a released slider sends
// a command, which the scene applies with the tick's others.
type KnobPanel struct {
	lab     *lab.Lab
	send    func(lab.Command)
	sliders []ui.Slider
}

// NewKnobPanel is the knob strip of lb's lesson; a released slider sends
// its new value.
func NewKnobPanel(lb *lab.Lab, send func(lab.Command)) *KnobPanel {
	kp := &KnobPanel{lab: lb, send: send, sliders: make([]ui.Slider, len(lb.Lesson.Knobs))}
	kp.sync()
	return kp
}

// sync moves the sliders to the lab's values (after a solution loads).
func (kp *KnobPanel) sync() {
	vals := kp.lab.Knobs()
	for i, k := range kp.lab.Lesson.Knobs {
		sl := &kp.sliders[i]
		sl.Min, sl.Max, sl.Step = k.Min, k.Max, k.Step
		if !sl.Dragging() {
			sl.SetValue(vals[k.ID])
		}
	}
}

// layout places the sliders and moves them to the lab's values.
func (kp *KnobPanel) layout(l ui.PlayerLayout) {
	for i := range kp.sliders {
		kp.sliders[i].Rect = l.KnobSlider(i)
	}
	kp.sync()
}

// update passes a moved slider through use, the player's door, as the
// page's range passes.
func (kp *KnobPanel) update(in *ui.Input, use func(ui.HostAction) bool) {
	for i, k := range kp.lab.Lesson.Knobs {
		sl := &kp.sliders[i]
		if sl.Update(in) {
			use(ui.HostAction{ID: "knob:" + k.ID, Value: sl.Value})
		}
	}
	kp.sync()
}

// set gives knob i the value v (snapped to its steps) and asks the lab
// to rebuild the world with it.
func (kp *KnobPanel) set(i int, v float64) {
	sl := &kp.sliders[i]
	sl.SetValue(v)
	kp.send(lab.SetKnobTo(kp.lab.Lesson.Knobs[i].ID, sl.Value))
}

// verdict is the lesson's judgement of the knob values, if it has one.
func (kp *KnobPanel) verdict() (v lab.KnobJudgement, has bool) {
	if v, has = kp.lab.KnobVerdict(); !has {
		v.Why = "Changing a slider rebuilds the world and replays your actions up to now."
	}
	return v, has
}

func (kp *KnobPanel) draw(dst *ebiten.Image, l ui.PlayerLayout, s draw.Style) {
	th := s.Theme
	s.Panel(dst, l.Knobs)
	vals := kp.lab.Knobs()
	for i, k := range kp.lab.Lesson.Knobs {
		row := l.KnobLabel(i)
		value := lab.KnobValue(k, vals[k.ID])
		vw := math.Min(draw.Measure(s.Mono())(value)+s.U(4), row.W*0.6)
		valR, nameR := row.CutRight(vw, s.U(8))
		draw.FirstFitInTip(dst, lab.KnobLabel(k), lab.KnobShort(k), s.Label(), nameR, draw.AlignStart, th.TextDim)
		draw.TextIn(dst, value, s.Mono(), valR, draw.AlignEnd, th.Text)
		s.Slider(dst, &kp.sliders[i])
	}
	v, has := kp.verdict()
	r := l.KnobVerdict()
	if !has {
		draw.ClausesInTip(dst, v.Why, s.Small(), r, draw.AlignStart, th.TextDim)
		return
	}
	c := ui.Point{X: r.X + s.U(9), Y: r.Y + r.H/2}
	s.Verdict(dst, c, s.U(18), v.Good())
	word, clr := v.Word+": ", th.Accept
	if !v.Good() {
		clr = th.Reject
	}
	rest := ui.Rect{X: r.X + s.U(24), Y: r.Y, W: r.W - s.U(24), H: r.H}
	ww := draw.Measure(s.Label())(word)
	draw.TextIn(dst, word, s.Label(), rest, draw.AlignStart, clr)
	rest.X, rest.W = rest.X+ww, rest.W-ww
	// The reason ends at a pause in its sentence where the row is too
	// short (the lease policy's runs to three lines at 1024 px); the whole
	// of it shows on hover, and is in the page's panel (the browser's path
	// for a screen reader, the keyboard and touch: see mirror).
	draw.ClausesInTip(dst, v.Why, s.Small(), rest, draw.AlignStart, th.Text)
}

// mirror is the knob panel as text, for the HTML mirror.
func (kp *KnobPanel) mirror() string {
	vals := kp.lab.Knobs()
	out := ""
	for _, k := range kp.lab.Lesson.Knobs {
		out += fmt.Sprintf("%s: %s\n", lab.KnobLabel(k), lab.KnobValue(k, vals[k.ID]))
	}
	if v, has := kp.verdict(); has {
		out += v.Word + ": " + v.Why + "\n"
	}
	return out
}
