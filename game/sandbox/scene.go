package sandbox

import (
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	sandboxcfg "leaselab/core/sandbox"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/lesson"
	"leaselab/game/page"
	"leaselab/game/scene"
	"leaselab/game/setup"
	"leaselab/game/ui"
)

// Exporter saves an export of a run (name is a file name, data its
// bytes) and says where it went: the browser downloads it, the desktop
// writes a file.
type Exporter func(name string, data []byte) (where string, err error)

// Scene is free play. First a setup panel: presets, every
// parameter of sandboxcfg.Config with its validation message under it,
// and the live lease-policy verdict; Start is refused while a field is
// invalid. Then the run, in the lesson player with every control, an
// invariant panel in place of the goals (click one that broke to jump to
// the moment it broke) and export buttons in place of the hints.
type Scene struct {
	// m is the setup being built: configuration, preset and fields.
	m *setup.Setup

	presets     []ui.Button
	start, back ui.Button
	// systems opens the setup on every system side by side; note says
	// why it could not.
	systems ui.Button
	note    string
	// leftSetup: a control used this tick left the setup (for the menu,
	// a run or the comparison); startErr is Start's refusal.
	leftSetup  bool
	startErr   error
	ring       *ui.FocusRing
	names      map[ui.Focusable]string
	style      draw.Style
	title      ui.Rect
	reason     ui.Rect
	verdict    ui.Rect
	presetHead ui.Rect
	cells      []ui.Rect

	// scenes is the setup panel, with the run over it while one plays.
	scenes *scene.Stack
	// Run is the run being played, nil during setup.
	Run            *lesson.Scene
	invs           [ui.MaxGoals]ui.Button
	invAt          [ui.MaxGoals]time.Duration
	jsonl, mermaid ui.Button
	exported       string
	// compare opens the run's scenario and actions on every system at
	// its play head; runCfg is the scenario the run was started from
	// (nil for a lesson's run carried over, which has none).
	compare ui.Button
	runCfg  *sandboxcfg.Config

	onMenu func()
	export Exporter
}

// New returns the setup panel showing preset (the default
// setup if ""). onMenu goes back to the lesson menu; export saves files
// (nil: exports are refused with a word).
func New(preset string, onMenu func(), export Exporter) (*Scene, error) {
	sc := &Scene{onMenu: onMenu, export: export, m: setup.New()}
	sc.presets = make([]ui.Button, len(sandboxcfg.Presets()))
	sc.back = ui.Button{Label: "< Lessons"}
	sc.start = ui.Button{Label: "Start", Icon: ui.IconPlay}
	sc.systems = ui.Button{Label: "Compare systems"}
	sc.names = map[ui.Focusable]string{&sc.back: "back", &sc.start: "start", &sc.systems: "compareSystems"}
	items := []ui.Focusable{&sc.back}
	for i, p := range sandboxcfg.Presets() {
		sc.presets[i].Label = p.Name
		items = append(items, &sc.presets[i])
		sc.names[&sc.presets[i]] = "preset:" + p.Name
	}
	for _, f := range sc.m.Fields {
		items = append(items, f.Widget())
		sc.names[f.Widget()] = "field:" + f.Name
	}
	sc.ring = ui.NewFocusRing(false, append(items, &sc.systems, &sc.start)...)
	sc.scenes = scene.NewStack((*setupScene)(sc))
	if preset != "" {
		if err := sc.UsePreset(preset); err != nil {
			return nil, err
		}
	}
	sc.check()
	return sc, nil
}

// UsePreset loads a preset into the setup panel.
func (sc *Scene) UsePreset(name string) error {
	if err := sc.m.UsePreset(name); err != nil {
		return err
	}
	sc.note = ""
	sc.check()
	return nil
}

// Config returns the configuration the setup panel shows.
func (sc *Scene) Config() sandboxcfg.Config { return sc.m.Config }

// Errors returns the configuration's field errors.
func (sc *Scene) Errors() []sandboxcfg.FieldError { return sc.m.Errs }

// check validates the configuration; Start is refused while it fails.
func (sc *Scene) check() {
	sc.m.Check()
	sc.start.Disabled = len(sc.m.Errs) > 0
	sc.systems.Disabled = sc.start.Disabled || sc.m.Config.Shards > 0
}

// Start runs the configuration in the player. It refuses an invalid one.
func (sc *Scene) Start() error {
	lb, dropped, err := sc.m.Run()
	if err != nil {
		return err
	}
	cfg := sc.m.Config
	sc.play(lb, &cfg)
	if dropped != nil {
		sc.Run.Player.Narrate(dropped.Error())
	}
	return nil
}

// OpenRun plays a run carried over from a lesson (see lab.OpenInSandbox);
// the setup panel behind it shows preset.
func (sc *Scene) OpenRun(lb *lab.Lab) {
	lb.Lesson.Intro = append([]string{"This is the lesson's own world with your actions so far, and every control. " +
		"Back to the setup (Esc) to build a world of your own from any preset."}, lb.Lesson.Intro...)
	sc.play(lb, nil)
}

// setupScene is the setup panel, and runScene the run played from it
// with the invariant rows and export buttons in the lesson panel: the two
// scenes of the sandbox's stack.
type (
	setupScene Scene
	runScene   Scene
)

// Update implements Scene.
func (sc *Scene) Update(st *scene.State) error { return sc.scenes.Update(st) }

// Layout implements Scene.
func (sc *Scene) Layout(window ui.Rect, style draw.Style) { sc.scenes.Layout(window, style) }

// Draw implements Scene.
func (sc *Scene) Draw(screen *ebiten.Image) { sc.scenes.Draw(screen) }

// Inspect implements Inspector.
func (sc *Scene) Inspect() page.SceneInfo { return sc.scenes.Inspect() }
