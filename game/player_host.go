package game

import (
	"fmt"
	"math"
	"time"

	"leaselab/core"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// host applies the page's control uses to the player's own widgets and
// returns those for its views. "scrub" is given in seconds and "speed" as
// the index of a speed, as the page's controls say them.
func (p *Player) host(in *ui.Input) []ui.HostAction {
	var rest []ui.HostAction
	for _, h := range in.Host {
		if p.hostWhy(h) || p.hostPredict(h) {
			continue
		}
		switch h.ID {
		case "scrub":
			// To the millisecond the page's range gives, not through the
			// canvas slider's fraction, so a typed time is exact.
			t := time.Duration(math.Round(h.Value*1000)) * time.Millisecond
			p.Clock.Apply(lab.SeekTo(max(0, min(t, p.Clock.Length()))))
		case ScrubPrev:
			p.Clock.Apply(lab.StepBack())
		case ScrubNext:
			p.Clock.Apply(lab.StepOn())
		case ScrubBy:
			t := p.Clock.Now() + time.Duration(math.Round(h.Value*1000))*time.Millisecond
			p.Clock.Apply(lab.SeekTo(max(0, min(t, p.Clock.Length()))))
		default:
			rest = append(rest, h)
		}
	}
	in.Host = rest
	return pressNamed(in, p.names)
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
type controller interface{ Controls() []Control }

// Player control groups, in the order the page lists them.
const (
	groupPlayback = "Playback"
	groupSettings = "Settings"
	groupLesson   = "Lesson"
)

// controls lists everything the player offers, for the page: the time
// controls, the views' actions, the knobs, then the panel's buttons and
// the scene's own widgets.
func (p *Player) controls() []Control {
	play := "Play"
	if p.playing {
		play = "Pause"
	}
	// The actors' actions first, then playback: what the lesson asks of
	// the learner comes before the time controls (issue 29).
	// An open question first: the run waits for it.
	out := p.predictControls()
	for _, v := range p.views() {
		if c, ok := v.(controller); ok {
			out = append(out, c.Controls()...)
		}
	}
	out = append(out, []Control{
		{ID: "play", Group: groupPlayback, Label: play, Kind: KindToggle, On: p.playing},
		{ID: "step", Group: groupPlayback, Label: "Step to the next event"},
		{ID: KeyPrefix + ui.IntentBackStep.String(), Group: groupPlayback, Label: "Back one second"},
	}...)
	length := p.Clock.Length().Seconds()
	out = append(out, Control{ID: "scrub", Group: groupPlayback, Label: "Play head", Kind: KindRange,
		Value: p.Clock.Now().Seconds(), Max: length, Step: 0.1,
		Text: fmt.Sprintf("%s of %s", core.FormatTime(p.Clock.Now()), core.FormatTime(p.Clock.Length()))})
	opts := make([]string, len(speeds))
	for i, v := range speeds {
		opts[i] = speedText(v)
	}
	out = append(out, Control{ID: "speed", Group: groupPlayback, Label: "Speed", Kind: KindChoice, Value: p.speed.Value, Options: opts},
		Control{ID: "fork", Group: groupPlayback, Label: "Fork: drop later actions and carry on from here"})
	if k := p.knobs; k != nil {
		for i, kn := range k.lab.Lesson.Knobs {
			out = append(out, rangeControl(groupSettings, "knob:"+kn.ID, lab.KnobLabel(kn), &k.sliders[i], lab.KnobValue(kn, k.sliders[i].Value)))
		}
	}
	out = append(out, p.whyControls()...)
	hint := "Reveal the next hint"
	if n := len(p.Lesson.Hints); n > 0 {
		hint = fmt.Sprintf("Reveal hint %d of %d", min(p.hintsSeen+1, n), n)
	}
	out = append(out, Control{ID: "hint", Group: groupLesson, Label: hint, Disabled: p.hintsSeen >= len(p.Lesson.Hints)})
	if p.solutionOffered() {
		out = append(out, Control{ID: "solution", Group: groupLesson, Label: "Show the solution (restarts the run and plays it)"})
	}
	if p.run != nil {
		// Restart, Undo, Back to my run, Next lesson: those offered now.
		for _, b := range p.run.mirror() {
			if b.Offered {
				out = append(out, Control{ID: b.Name, Group: groupLesson, Label: plainLabel(b.Label), Detail: b.Tip, Disabled: !b.Enabled})
			}
		}
	}
	for _, w := range p.spec.Widgets {
		c := Control{ID: w.Name, Group: groupLesson, Label: plainLabel(w.Tip)}
		switch b := w.W.(type) {
		case *ui.Button:
			// Its tip goes with it, as the canvas shows it on hover.
			c.Label, c.Disabled = plainLabel(b.Label), b.Disabled
			if c.Label != "" {
				c.Detail = plainLabel(w.Tip)
			}
		case *ui.Toggle:
			c.Label, c.Kind, c.On, c.Disabled = plainLabel(b.Label), KindToggle, b.On, b.Disabled
		}
		if c.Label == "" {
			continue
		}
		out = append(out, c)
	}
	if p.spec.Sandbox != nil {
		out = append(out, Control{ID: "sandbox", Group: groupLesson, Label: "Open this run in the sandbox"})
	}
	if p.spec.Back.Do != nil {
		out = append(out, Control{ID: "menu", Group: groupLesson, Label: plainLabel(p.spec.Back.Label), Kind: KindLink})
	}
	return out
}
