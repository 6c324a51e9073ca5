package player

import (
	"fmt"
	"time"

	"leaselab/game/lab"
	"leaselab/game/tick"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// The player's Update: input read against what was last laid out, turned
// into clock and view commands.

// Update implements Scene.
func (p *Player) Update(st *view.Env) error {
	in := &st.Input
	p.stop = false // a canvas's use last tick, after its host
	// Time runs by the real length of the tick, if it ran during it: a
	// press on play after a long pause starts from one tick's worth.
	step := st.TickLength()
	if !p.playing {
		step = tick.Nominal
	}
	p.ring.Wrap = st.WrapFocus
	modal, _ := p.World.(interface {
		Modal() bool
		Close()
	})
	menuOpen := modal != nil && modal.Modal()

	if p.decls == nil {
		p.declare() // updated before its first layout
	}
	if p.updateOverlays(in, menuOpen) {
		return nil
	}
	if menuOpen && in.Keys.Has(ui.IntentBack) {
		// Esc closes the world's action menu first.
		modal.Close()
		in.Keys &^= ui.KeysOf(ui.IntentBack)
	}
	// With the world's action menu open, the arrows and Enter belong to
	// it, not to a focused slider or button.
	var menuKeys ui.Intents
	if menuOpen {
		menuKeys = in.Keys & ui.KeysOf(ui.IntentUp, ui.IntentDown, ui.IntentLeft, ui.IntentRight, ui.IntentActivate)
		in.Keys &^= menuKeys
	}
	if p.updateLeaving(in) {
		p.stop = false
		return nil
	}
	p.updateKeys(in)
	if esc := p.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	p.updateWidgets(in, menuOpen)
	in.Keys |= menuKeys
	// The views read the input against the frame the learner saw, and
	// what they ask is applied at that frame's time; then time runs on.
	if err := p.updateViews(st); err != nil {
		return err
	}
	if p.spec.Apply != nil {
		p.spec.Apply()
	}
	if p.playing {
		p.Clock.Apply(lab.AdvanceBy(time.Duration(p.Speed() * float64(step))))
	}
	p.askedNow()
	if !p.scrub.Dragging() && p.Clock.Length() > 0 {
		p.scrub.SetValue(float64(p.Clock.Now()) / float64(p.Clock.Length()))
	}
	p.updateTips(in)
	return nil
}

// updateOverlays gives the input to what stands over the player: the
// page's controls, the notice, Why?, a prediction's question, the
// keyboard help. It reports that the tick ends there.
func (p *Player) updateOverlays(in *ui.Input, menuOpen bool) bool {
	if len(in.Host) > 0 {
		// The page's controls: the panel's buttons and sliders fire as
		// clicks on them would; the rest are the views' (the world's
		// actions).
		p.showHelp = false
		in.Host = p.host(in)
		if p.stop {
			// It left the player, or changed the run under the views'
			// last layout.
			p.stop = false
			return true
		}
	}
	p.updateNotice(in)
	if !p.showHelp && !menuOpen && (p.updateWhy(in) || p.updatePredict(in)) {
		return true
	}
	if p.showHelp {
		// The help overlay is modal: any key or click closes it.
		if in.Keys != 0 || in.Pointer().JustDown {
			p.showHelp = false
		}
		return true
	}
	if p.help.Update(in) || in.Keys.Has(ui.IntentHelp) {
		p.showHelp = true
		p.Narrate("Keyboard help: " + p.helpText())
		return true
	}
	return false
}

// updateLeaving handles what leaves the player or changes its run (back
// to the menu, the sandbox, the solution, the run's own row), and reports
// that the tick ends there.
func (p *Player) updateLeaving(in *ui.Input) bool {
	if p.spec.Back.Do != nil && (p.menu.Update(in) || in.Keys.Has(ui.IntentBack)) {
		p.use(ui.HostAction{ID: "menu"})
		return true
	}
	if p.spec.Sandbox != nil && p.sandbox.Update(in) {
		p.use(ui.HostAction{ID: "sandbox"})
		return true
	}
	if p.solutionOffered() && (p.solution.Update(in) || in.Keys.Has(ui.IntentSolution)) {
		p.use(ui.HostAction{ID: "solution"})
	}
	return p.run != nil && p.run.update(p, in) // the run changed under the views' last layout
}

// updateKeys applies the speed keys and the step back.
func (p *Player) updateKeys(in *ui.Input) {
	if in.Keys.Has(ui.IntentFaster) && p.speed.Value < p.speed.Max {
		p.speed.SetValue(p.speed.Value + 1)
		p.Narrate(fmt.Sprintf("Speed %s", speedText(p.Speed())))
	}
	if in.Keys.Has(ui.IntentSlower) && p.speed.Value > p.speed.Min {
		p.speed.SetValue(p.speed.Value - 1)
		p.Narrate(fmt.Sprintf("Speed %s", speedText(p.Speed())))
	}
	if in.Keys.Has(ui.IntentBackStep) {
		p.setPlaying(false)
		p.Clock.Apply(lab.SeekTo(p.Clock.Now() - time.Second))
		p.Narrate("Back to " + p.clockText())
	}
}

// updateWidgets updates the canvas's widgets; they and their keys pass
// the same door as the page's controls (use).
func (p *Player) updateWidgets(in *ui.Input, menuOpen bool) {
	nothingFocused := p.ring.Current() == nil
	if p.play.Update(in) || in.Keys.Has(ui.IntentPlayPause) ||
		(nothingFocused && !menuOpen && in.Keys.Has(ui.IntentActivate)) {
		p.use(ui.HostAction{ID: "play"})
	}
	if p.step.Update(in) || in.Keys.Has(ui.IntentStep) {
		p.use(ui.HostAction{ID: "step"})
	}
	if p.fork.Update(in) || in.Keys.Has(ui.IntentFork) {
		p.use(ui.HostAction{ID: "fork"})
	}
	if p.hint.Update(in) || in.Keys.Has(ui.IntentHint) {
		// A key with every hint shown does nothing, as the disabled
		// button does.
		if p.hintsSeen < len(p.Lesson.Hints) {
			p.use(ui.HostAction{ID: "hint"})
		}
	}
	p.hint.Disabled = p.hintsSeen >= len(p.Lesson.Hints)
	if p.speed.Update(in) {
		p.use(ui.HostAction{ID: "speed", Value: p.speed.Value})
	}
	if p.scrub.Update(in) {
		p.use(ui.HostAction{ID: "scrub", Value: p.scrub.Value * p.Clock.Length().Seconds()})
	}
	p.text.Update(in)
	if p.knobs != nil {
		p.knobs.update(in, p.use)
	}
}

// updateTips keeps the tooltips' words and hover state.
func (p *Player) updateTips(in *ui.Input) {
	p.tips[0].Text = ui.WithKey("Play", ui.IntentPlayPause)
	if p.playing {
		p.tips[0].Text = ui.WithKey("Pause", ui.IntentPlayPause)
	}
	for i := range p.tips {
		t := &p.tips[i]
		t.Update(in, t.widget.Bounds(), t.widget.Focus() == ui.FocusVisible)
	}
}

// updateViews lets the views handle the input on what they last showed.
// One may swap the others (the finder opens the comparison; its way back
// restores the player's own views): a view swapped in is not updated this
// tick, only laid out before it is drawn.
func (p *Player) updateViews(st *view.Env) error {
	before := p.views()
	// A press on the world's open menu is the menu's alone: where the
	// menu lies over the timeline, it must not also move the play head.
	onMenu := p.menuBox().Contains(st.Input.Pointer().Pos)
	for i, v := range before {
		if onMenu && v == p.Timeline {
			continue
		}
		if v != nil && v == p.views()[i] {
			if err := v.Update(st); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *Player) setPlaying(on bool) {
	if on == p.playing {
		return
	}
	if on {
		p.answer(predictSkip) // playing on is the way past a question
	}
	p.playing = on
	p.play.Icon = ui.IconPlay
	if on {
		p.play.Icon = ui.IconPause
		p.Narrate(fmt.Sprintf("Playing at %s from %s", speedText(p.Speed()), p.clockText()))
	} else {
		p.Narrate("Paused at " + p.clockText())
	}
}

// stepOn steps to the next event, paused.
func (p *Player) stepOn() {
	p.setPlaying(false)
	p.answer(predictSkip)
	p.Clock.Apply(lab.StepOn())
	p.Narrate("Stepped to " + p.clockText())
}

// forkHere drops the actions after the play head.
func (p *Player) forkHere() {
	p.Clock.Apply(lab.ForkHere())
	undo := ""
	if p.run != nil {
		undo = " (Undo brings them back)"
	}
	p.Narrate("Forked at " + p.clockText() + "; later actions dropped" + undo)
}

// revealHint shows the next hint, if one is left.
func (p *Player) revealHint() {
	if p.hintsSeen >= len(p.Lesson.Hints) {
		return
	}
	p.hintsSeen++
	p.Narrate("Hint: " + p.Lesson.Hints[p.hintsSeen-1])
	if p.run != nil {
		p.text.SetText(p.panelText())
		p.text.SetScroll(p.text.MaxScroll())
	}
}

// showSolution restarts the run as the lesson's solution and plays it.
func (p *Player) showSolution() {
	p.spec.Solution()
	p.setPlaying(true)
	p.Narrate("Showing the solution from the start, as a run of its own: your run is kept, and Back to my run returns to it")
}
