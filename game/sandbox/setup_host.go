package sandbox

import (
	sandboxcfg "leaselab/core/sandbox"
	"leaselab/game/ui"
)

// The setup's controls, declared once per update: the page lists them,
// the canvas's buttons, sliders and choice buttons take their state from
// the same model and a click on one passes the same declaration, through
// use, as the page's use of it does.

// controls declares the setup: back, the presets, every field with its
// value (or why it is not used; setup.Controls), then Compare systems and
// Start, each with what it does.
func (ss *setupScene) controls() ui.Controls {
	sc := (*Scene)(ss)
	out := ui.Controls{{ID: "back", Group: "Sandbox", Label: "Back to the lessons", Kind: ui.KindLink,
		Do: func(ui.HostAction) { sc.leftSetup = true; sc.onMenu() }}}
	for _, p := range sandboxcfg.Presets() {
		out = append(out, ui.Control{ID: "preset:" + p.Name, Group: "Start from a preset", Label: p.Name, Detail: p.Title,
			Do: func(ui.HostAction) { _ = sc.UsePreset(p.Name) }}) // one of sandboxcfg.Presets: found
	}
	out = append(out, sc.m.Controls()...)
	compare := "Play this scenario on every coordinator side by side"
	if sc.m.Config.Shards > 0 {
		compare += " (not for a sharded scenario)"
	}
	return append(out,
		ui.Control{ID: "compareSystems", Group: "Run", Label: compareLabel, Detail: compare, Disabled: sc.systems.Disabled,
			Do: func(ui.HostAction) { sc.leftSetup = true; sc.CompareSystems() }},
		ui.Control{ID: "start", Group: "Run", Label: "Start", Disabled: sc.start.Disabled,
			Do: func(ui.HostAction) { sc.leftSetup = true; sc.startErr = sc.Start() }})
}

// use passes a use of the setup's control h.ID, from the page or the
// canvas, through its declaration (ui.Controls.Use); a refusal is said
// where Start's refusals are.
func (ss *setupScene) use(decls ui.Controls, h ui.HostAction) bool {
	handled, err := decls.Use(h)
	if err != nil {
		(*Scene)(ss).note = err.Error()
	}
	return handled
}

// update passes this tick's uses of the setup's controls through their
// declarations: the page's, then the canvas's (Esc is Back). It reports
// whether the setup is done for this tick (it left for the menu, a run
// or the comparison, or Start was refused: sc.startErr).
func (ss *setupScene) update(in *ui.Input) bool {
	sc := (*Scene)(ss)
	sc.leftSetup, sc.startErr = false, nil
	decls := ss.controls()
	var rest []ui.HostAction
	for _, h := range in.Host {
		if !ss.use(decls, h) {
			rest = append(rest, h)
		}
		if sc.leftSetup {
			return true
		}
	}
	in.Host = rest
	if sc.back.Update(in) || in.Keys.Has(ui.IntentBack) {
		ss.use(decls, ui.HostAction{ID: "back"})
		return true
	}
	for i, p := range sandboxcfg.Presets() {
		if sc.presets[i].Update(in) {
			ss.use(decls, ui.HostAction{ID: "preset:" + p.Name})
		}
	}
	if err := sc.m.UpdateFields(in, decls); err != nil {
		sc.note = err.Error()
	}
	sc.check()
	decls = ss.controls() // the fields may have changed Start's state
	if sc.systems.Update(in) {
		ss.use(decls, ui.HostAction{ID: "compareSystems"})
	}
	if sc.start.Update(in) {
		ss.use(decls, ui.HostAction{ID: "start"})
	}
	return sc.leftSetup
}
