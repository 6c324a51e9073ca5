package player

import (
	"fmt"
	"math"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// host passes the page's control uses through the player's declarations
// (use), as its canvas widgets' clicks do, and returns those it has none
// for. "scrub" is given in seconds and "speed" as the index of a speed, as
// the page's controls say them.
func (p *Player) host(in *ui.Input) []ui.HostAction {
	var rest []ui.HostAction
	for _, h := range in.Host {
		if p.hostWhyOf(h) {
			continue
		}
		switch h.ID {
		case ScrubPrev:
			p.Clock.Apply(lab.StepBack())
		case ScrubNext:
			p.Clock.Apply(lab.StepOn())
		case ScrubBy:
			p.seek(p.Clock.Now().Seconds() + h.Value)
		default:
			if p.use(h) {
				continue
			}
			if w, ok := p.World.(*view.World); ok && strings.HasPrefix(h.ID, "act:") {
				w.Stale(h.ID)
				continue
			}
			rest = append(rest, h)
		}
	}
	return rest
}

// use is the player's one door for a control's use, from the page or
// from a click on the canvas: the declaration of the last layout named
// h.ID does it (ui.Controls.Use). It reports whether one was declared.
func (p *Player) use(h ui.HostAction) bool {
	if _, ok := p.decls.Find(h.ID); !ok {
		p.declare() // a card opened since the last layout: its controls
	}
	handled, err := p.decls.Use(h)
	if err != nil {
		p.Narrate(err.Error())
	}
	return handled
}

// seek moves the play head to t seconds, to the nanosecond (a page's
// range gives a typed time exactly), within the run.
func (p *Player) seek(t float64) {
	d := time.Duration(math.Round(t * float64(time.Second)))
	p.Clock.Apply(lab.SeekTo(max(0, min(d, p.Clock.Length()))))
}

// The play head's keys on the page's slider: the arrows step to the
// previous or next event, Page Up and Page Down move it by Value seconds.
const (
	ScrubPrev = "scrub:prev"
	ScrubNext = "scrub:next"
	ScrubBy   = "scrub:by"
)

// controller is a view with controls of its own for the page (the
// world's actions).
type controller interface{ Controls() []ui.Control }

// Player control groups, in the order the page lists them.
const (
	GroupPlayback = "Playback"
	groupSettings = "Settings"
	groupLesson   = "Lesson"
)

// declare builds the player's declarations for this layout: the time
// controls, the views' actions, the knobs, then the panel's buttons and
// the scene's own widgets. The page lists them; the canvas's widgets are
// used through them (use).
func (p *Player) declare() {
	// The actors' actions first, then playback: what the lesson asks of
	// the learner comes before the time controls (issue 29).
	// An open question first: the run waits for it.
	out := ui.Controls(p.predictControls())
	for _, v := range p.views() {
		if c, ok := v.(controller); ok {
			out = append(out, c.Controls()...)
		}
	}
	out = append(out, p.playbackControls()...)
	if k := p.knobs; k != nil {
		for i, kn := range k.lab.Lesson.Knobs {
			c := ui.RangeControl(groupSettings, "knob:"+kn.ID, lab.KnobLabel(kn), &k.sliders[i], lab.KnobValue(kn, k.sliders[i].Value))
			c.Do = func(h ui.HostAction) { k.set(i, h.Value) }
			out = append(out, c)
		}
	}
	out = append(out, p.whyControls()...)
	p.decls = append(out, p.lessonControls()...)
}

// playbackControls are play, step, back, the play head, the speed and
// fork.
func (p *Player) playbackControls() []ui.Control {
	play := "Play"
	if p.playing {
		play = "Pause"
	}
	out := []ui.Control{
		{ID: "play", Group: GroupPlayback, Label: play, Kind: ui.KindToggle, On: p.playing,
			Do: func(ui.HostAction) { p.setPlaying(!p.playing) }},
		{ID: "step", Group: GroupPlayback, Label: "Step to the next event", Do: func(ui.HostAction) { p.stepOn() }},
		{ID: ui.HostKeyPrefix + ui.IntentBackStep.String(), Group: GroupPlayback, Label: "Back one second"},
	}
	length := p.Clock.Length().Seconds()
	out = append(out, ui.Control{ID: "scrub", Group: GroupPlayback, Label: "Play head", Kind: ui.KindRange,
		Value: p.Clock.Now().Seconds(), Max: length, Step: 0.1,
		Text: fmt.Sprintf("%s of %s", core.FormatTime(p.Clock.Now()), core.FormatTime(p.Clock.Length())),
		Do:   func(h ui.HostAction) { p.seek(h.Value) }})
	opts := make([]string, len(speeds))
	for i, v := range speeds {
		opts[i] = speedText(v)
	}
	return append(out, ui.Control{ID: "speed", Group: GroupPlayback, Label: "Speed", Kind: ui.KindChoice, Value: p.speed.Value, Options: opts,
		Do: func(h ui.HostAction) {
			p.speed.SetValue(h.Value)
			p.Narrate(fmt.Sprintf("Speed %s", speedText(p.Speed())))
		}},
		ui.Control{ID: "fork", Group: GroupPlayback, Label: "Fork: drop later actions and carry on from here", Do: func(ui.HostAction) { p.forkHere() }})
}

// lessonControls are the lesson's: the hint, the solution, the run's own
// buttons and widgets, the sandbox and the way back.
func (p *Player) lessonControls() []ui.Control {
	hint := "Reveal the next hint"
	if n := len(p.Lesson.Hints); n > 0 {
		hint = fmt.Sprintf("Reveal hint %d of %d", min(p.hintsSeen+1, n), n)
	}
	out := []ui.Control{{ID: "hint", Group: groupLesson, Label: hint, Disabled: p.hintsSeen >= len(p.Lesson.Hints),
		Do: func(ui.HostAction) { p.revealHint() }}}
	if p.solutionOffered() {
		out = append(out, ui.Control{ID: "solution", Group: groupLesson, Label: "Show the solution (restarts the run and plays it)",
			Do: func(ui.HostAction) { p.showSolution() }})
	}
	if p.run != nil {
		// Restart, Undo, Back to my run, Next lesson: those offered now.
		for _, b := range p.run.mirror() {
			if b.Offered {
				out = append(out, ui.Control{ID: b.Name, Group: groupLesson, Label: ui.PlainLabel(b.Label), Detail: b.Tip, Disabled: !b.Enabled,
					Do: func(ui.HostAction) { p.run.spec.Do(b.Name); p.stop = true }})
			}
		}
	}
	out = append(out, p.widgetControls()...)
	if p.spec.Sandbox != nil {
		out = append(out, ui.Control{ID: "sandbox", Group: groupLesson, Label: "Open this run in the sandbox",
			Do: func(ui.HostAction) { p.spec.Sandbox(); p.stop = true }})
	}
	if back := p.spec.Back.Do; back != nil {
		out = append(out, ui.Control{ID: "menu", Group: groupLesson, Label: ui.PlainLabel(p.spec.Back.Label), Kind: ui.KindLink,
			Do: func(ui.HostAction) { back(); p.stop = true }})
	}
	return out
}

// widgetControls are the scene's own widgets the player shows (the
// finder's, a comparison's, the sandbox's), under their labels or tips,
// with what each does.
func (p *Player) widgetControls() []ui.Control {
	var out []ui.Control
	for _, w := range p.spec.Widgets {
		c := ui.Control{ID: w.Name, Group: groupLesson, Label: ui.PlainLabel(w.Tip)}
		switch b := w.W.(type) {
		case *ui.Button:
			// Its tip goes with it, as the canvas shows it on hover.
			c.Label, c.Disabled = ui.PlainLabel(b.Label), b.Disabled
			if c.Label != "" {
				c.Detail = ui.PlainLabel(w.Tip)
			}
		case *ui.Toggle:
			c.Label, c.Kind, c.On, c.Disabled = ui.PlainLabel(b.Label), ui.KindToggle, b.On, b.Disabled
		}
		if do := w.Do; do != nil {
			// It may leave the player or change its views: the rest of
			// the tick waits.
			c.Do = func(ui.HostAction) { do(); p.stop = true }
		}
		if c.Label != "" {
			out = append(out, c)
		}
	}
	return out
}
