package game

import (
	"strings"

	"leaselab/core/sandbox"
	"leaselab/game/ui"
)

// host applies the page's uses of the setup's controls: a field takes the
// value (a choice field, the index of its choice) as moving it would; the
// buttons fire as clicks.
func (ss *sandboxSetup) host(in *ui.Input) {
	sc := (*SandboxScene)(ss)
	var rest []ui.HostAction
	for _, h := range in.Host {
		name, ok := strings.CutPrefix(h.ID, "field:")
		if !ok {
			rest = append(rest, h)
			continue
		}
		for _, f := range sc.m.Fields {
			if f.Name != name || !f.Applies(&sc.m.Config) {
				continue
			}
			if f.Choices != nil {
				if n := len(f.Choices(&sc.m.Config)); h.Value < 0 || int(h.Value) >= n {
					continue
				}
			} else {
				f.Slider.SetValue(h.Value)
				h.Value = f.Slider.Value
			}
			sc.m.Set(f, h.Value)
		}
	}
	in.Host = rest
	pressNamed(in, sc.names)
}

// controls lists the setup for the page: the presets, every field with
// its value (or why it is not used), then Compare systems and Start.
func (ss *sandboxSetup) controls() []Control {
	sc := (*SandboxScene)(ss)
	out := []Control{{ID: "back", Group: "Sandbox", Label: "Back to the lessons", Kind: KindLink}}
	for _, p := range sandbox.Presets() {
		out = append(out, Control{ID: "preset:" + p.Name, Group: "Start from a preset", Label: p.Name, Detail: p.Title})
	}
	for _, f := range sc.m.Fields {
		c := Control{ID: "field:" + f.Name, Group: "Settings", Label: f.Label, Text: f.Value(&sc.m.Config),
			Disabled: !f.Applies(&sc.m.Config)}
		if f.Choices != nil {
			c.Kind, c.Options, c.Value = KindChoice, f.Choices(&sc.m.Config), f.Get(&sc.m.Config)
		} else {
			c.Kind, c.Value, c.Min, c.Max, c.Step = KindRange, f.Slider.Value, f.Slider.Min, f.Slider.Max, f.Slider.Step
		}
		if c.Disabled {
			c.Text += " (not used)"
		}
		if f.Err != "" {
			c.Text += "; problem: " + f.Err
		}
		out = append(out, c)
	}
	return append(out,
		Control{ID: "compareSystems", Group: "Run", Label: "Compare systems", Detail: "Play this scenario on every coordinator side by side"},
		Control{ID: "start", Group: "Run", Label: "Start", Disabled: len(sc.m.Errs) > 0})
}
