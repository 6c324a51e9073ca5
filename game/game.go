package game

import (
	"image"
	"leaselab/game/exercise"
	"leaselab/game/lesson"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/sandbox"
	"leaselab/game/tick"
	"leaselab/game/ui"
)

// Options are what the host (browser or desktop) tells the game.
type Options struct {
	ReducedMotion bool // see State.ReducedMotion
	WrapFocus     bool // see State.WrapFocus

	// OnFocusEscape is called when Tab moves focus out of the canvas, so the
	// browser can focus the HTML beside it.
	OnFocusEscape func(ui.Escape)

	// PanelOutside: the page shows the lesson panel itself (see
	// draw.Style.PanelOutside) and sends its controls with Game.Host.
	PanelOutside bool

	// OnUpdate is called after every Update with the new snapshot, on the
	// game's goroutine; the browser uses it to refresh the HTML mirror.
	OnUpdate func(Snapshot)

	// CaptureFrame, when positive, makes the game read back the screen after
	// drawing that many frames, hand it to OnCapture, and then stop:
	// ebiten.RunGame returns nil, or OnCapture's error. For screenshots.
	CaptureFrame int64
	OnCapture    func(*image.RGBA) error

	// Now is the wall clock that ticks are measured with (nil: time.Now);
	// tests pass a fake one. See tick.Clock.
	Now func() time.Time

	// OneTickPerFrame runs exactly one Update per frame (the desktop sets
	// it). Ebitengine reads the keys once a frame and, at its default 60
	// ticks a second, runs no Update in some frames (always some when the
	// display refreshes faster than 60 Hz, or nothing waits for vsync, as
	// under Xvfb): a key pressed and released around such a frame was
	// never seen by any tick. With one tick per frame every key seen down
	// reaches a tick (GLFW's sticky keys keep a key pressed and released
	// between two frames down for one), and the tick's length is measured
	// (State.Elapsed) instead of assumed.
	OneTickPerFrame bool

	// SleepWhenIdle naps between frames while the lab is idle (see
	// Stiller and Game.sleep), so a lab left paused costs next to no CPU
	// (the desktop sets it; the browser, whose page may change the game
	// from outside and whose frames the page schedules, keeps ticking).
	SleepWhenIdle bool
}

// Snapshot is the game's state as the browser bridge reports it.
type Snapshot struct {
	Frame       int64   `json:"frame"` // frames drawn
	Tick        int64   `json:"tick"`  // updates run
	Width       float64 `json:"width"` // screen size in pixels
	Height      float64 `json:"height"`
	Scale       float64 `json:"scale"` // device scale factor
	Unit        float64 `json:"unit"`  // layout unit, in screen pixels
	Supersample float64 `json:"supersample"`
	Drawn       int64   `json:"drawn"` // frames drawn anew (an idle frame draws nothing)
	// Quality says why the picture has less detail than it could: set
	// once the lab saw the machine draw too slowly (see tick.SlowWatch).
	Quality       string    `json:"quality,omitempty"`
	ReducedMotion bool      `json:"reducedMotion"`
	Scene         SceneInfo `json:"scene"`
}

// Game runs one scene at a time and implements ebiten.Game (with LayoutF,
// so it draws at device resolution).
type Game struct {
	scene Scene
	opts  Options
	state State
	input inputReader

	width, height, scale float64 // the screen, in device pixels

	// ss is the supersampling factor: scenes draw into offscreen at ss
	// times the screen's resolution, which is then scaled down, so every
	// edge is anti-aliased in one pass (see draw.paint for why not per
	// shape). HiDPI screens and very large ones draw directly (ss = 1).
	ss        float64
	offscreen *ebiten.Image

	// laidOut is the window and unit of the last Layout.
	laidOut struct {
		window ui.Rect
		unit   float64
	}

	// host are the page's control uses waiting for the next Update.
	hostMu sync.Mutex
	host   []ui.HostAction
	clicks ui.Clicks

	frames atomic.Int64
	drawn  atomic.Int64
	idle   idleTracker

	// clock measures the ticks; slow watches the frames drawn, whose
	// times lastDraw and drewLast track; reduced is set once it found
	// them slow, and turns supersampling off for good.
	clock    tick.Clock
	slow     tick.SlowWatch
	lastDraw time.Time
	drewLast bool
	reduced  string
	// The learner is told over the screen, for toastFor from toastUntil's
	// start, whatever the scene; toastOn is whether it shows this tick.
	toastUntil time.Time
	toastOn    bool

	snapshot atomic.Pointer[Snapshot]
	stop     error // returned by Update once the capture is taken
}

// New returns a game showing scene.
func New(scene Scene, opts Options) *Game {
	g := &Game{scene: scene, opts: opts, scale: 1, ss: 1}
	g.clock.Now = opts.Now
	if g.clock.Now == nil {
		g.clock.Now = time.Now
	}
	if opts.OneTickPerFrame {
		ebiten.SetTPS(ebiten.SyncWithFPS)
	}
	g.state.ReducedMotion = opts.ReducedMotion
	g.state.WrapFocus = opts.WrapFocus
	g.snapshot.Store(&Snapshot{})
	// Draw paints every pixel of the screen, so Ebitengine need not clear
	// it, and keeping it lets an idle frame draw nothing (see Stiller).
	ebiten.SetScreenClearedEveryFrame(false)
	return g
}

// Host queues the use of a control the page shows (a Control of the
// scene's snapshot) for the next Update. It is safe to call from any
// goroutine; at most maxHost wait, the oldest dropped first.
func (g *Game) Host(a ui.HostAction) {
	g.hostMu.Lock()
	defer g.hostMu.Unlock()
	if len(g.host) >= maxHost {
		g.host = g.host[1:]
	}
	g.host = append(g.host, a)
}

// PointerEdge records a press (down) or release of the primary pointer
// the platform reported as an event, at x, y in screen pixels: a click
// pressed and released between two ticks, which Ebitengine's polled state
// never shows, still reaches the widgets (see ui.Clicks). Safe to call
// from any goroutine.
func (g *Game) PointerEdge(down bool, x, y float64) { g.clicks.Add(down, ui.Point{X: x, Y: y}) }

// maxHost bounds the page's queued control uses (one is applied a tick).
const maxHost = 32

// SetScene switches to another scene from the next tick on.
func (g *Game) SetScene(s Scene) { g.scene = s }

// Update implements ebiten.Game.
func (g *Game) Update() error {
	if g.stop != nil {
		return g.stop
	}
	st := &g.state
	st.Tick++
	st.Elapsed = g.clock.Tick()
	g.reduceIfSlow()
	st.Window = ui.Rect{W: g.width * g.ss, H: g.height * g.ss}
	st.Input = g.input.read(st.Window, g.scale, g.clock.Last())
	g.clicks.Apply(&st.Input)
	supersampleInput(&st.Input, g.ss)
	// One page control use per tick, the oldest first: a scene applies
	// a tick's uses in its own widget order, so two in one tick (a
	// preset, then a field) could land the wrong way round.
	g.hostMu.Lock()
	st.Input.Host = nil
	if len(g.host) > 0 {
		st.Input.Host, g.host = g.host[:1:1], g.host[1:]
	}
	g.hostMu.Unlock()
	hostIntents(&st.Input)
	unit := ui.UnitFor
	if g.opts.PanelOutside {
		unit = ui.UnitForBare
	}
	st.Style = draw.NewStyle(unit(st.Window.W, st.Window.H, st.Input.Scale))
	st.Style.PanelOutside = g.opts.PanelOutside
	st.Frame = g.frames.Load()
	if st.Window != g.laidOut.window || st.Style.Unit != g.laidOut.unit {
		// The window changed since the last layout (a resize, the switch
		// to supersampling): this tick's input is in its pixels, so lay
		// out for it before reading the input.
		g.scene.Layout(st.Window, st.Style)
	}
	if err := Step(g.scene, st); err != nil {
		return err
	}
	g.laidOut.window, g.laidOut.unit = st.Window, st.Style.Unit
	if st.FocusEscape != ui.NoEscape {
		if g.opts.OnFocusEscape != nil {
			g.opts.OnFocusEscape(st.FocusEscape)
		}
		st.FocusEscape = ui.NoEscape
	}
	snap := &Snapshot{
		Tick: st.Tick, Width: g.width, Height: g.height, Scale: g.scale,
		Unit: st.Style.Unit / g.ss, Supersample: g.ss, ReducedMotion: st.ReducedMotion, Quality: g.reduced,
	}
	if in, ok := g.scene.(Inspector); ok {
		snap.Scene = in.Inspect()
		snap.Scene.Regions = scaleRegions(snap.Scene.Regions, 1/g.ss)
	}
	g.snapshot.Store(snap)
	g.idle.observe(&st.Input, g.scene, snap)
	g.toastOn = g.clock.Last().Before(g.toastUntil)
	if g.toastOn {
		g.idle.wake() // drawn while it shows, and once more to clear it
	}
	if g.opts.SleepWhenIdle && g.opts.CaptureFrame == 0 {
		// (A capture waits for its frame: it must not sleep.)
		g.sleep(g.idle.idle())
	}
	if g.opts.OnUpdate != nil {
		g.opts.OnUpdate(g.Snapshot())
	}
	return nil
}

// Draw implements ebiten.Game.
func (g *Game) Draw(screen *ebiten.Image) {
	g.timeFrame()
	if g.idle.idle() {
		// The screen still holds the last frame, which is what this one
		// would be; drawing nothing lets Ebitengine skip presenting it.
		g.drewLast = false
		g.endFrame(screen)
		return
	}
	g.drewLast = g.frames.Load() >= warmupFrames
	g.drawn.Add(1)
	screen.Fill(draw.Dark.Background)
	if g.state.Tick == 0 {
		return // no Update yet: nothing is laid out
	}
	if g.ss == 1 {
		g.scene.Draw(screen)
	} else {
		w, h := int(g.width*g.ss), int(g.height*g.ss)
		if g.offscreen == nil || g.offscreen.Bounds().Dx() != w || g.offscreen.Bounds().Dy() != h {
			if g.offscreen != nil {
				g.offscreen.Deallocate()
			}
			g.offscreen = ebiten.NewImage(w, h)
		}
		g.offscreen.Fill(draw.Dark.Background)
		g.scene.Draw(g.offscreen)
		draw.Flush() // before the offscreen is drawn from
		// Linear filtering at exactly 1/2 averages each 2×2 block.
		op := &ebiten.DrawImageOptions{Filter: ebiten.FilterLinear}
		op.GeoM.Scale(1/g.ss, 1/g.ss)
		screen.DrawImage(g.offscreen, op)
	}
	if g.toastOn && !g.opts.PanelOutside {
		// (The page says it in its panel.)
		g.drawToast(screen)
	}
	draw.EndFrame()
	g.endFrame(screen)
}

// endFrame counts a frame shown and takes the capture when it is due.
func (g *Game) endFrame(screen *ebiten.Image) {
	n := g.frames.Add(1)
	if g.opts.CaptureFrame > 0 && n == g.opts.CaptureFrame && g.stop == nil {
		g.stop = ebiten.Termination
		if g.opts.OnCapture != nil {
			if err := g.opts.OnCapture(capture(screen)); err != nil {
				g.stop = err
			}
		}
	}
}

func capture(screen *ebiten.Image) *image.RGBA {
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	return img
}

// Layout implements ebiten.Game; Ebitengine calls LayoutF instead.
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	w, h := g.LayoutF(float64(outsideWidth), float64(outsideHeight))
	return int(w), int(h)
}

// LayoutF makes the screen as many pixels as the display has, so text and
// lines are drawn crisp on HiDPI screens instead of being scaled up.
func (g *Game) LayoutF(outsideWidth, outsideHeight float64) (float64, float64) {
	s := ebiten.Monitor().DeviceScaleFactor()
	if s <= 0 {
		s = 1
	}
	g.scale = s
	g.width, g.height = math.Ceil(outsideWidth*s), math.Ceil(outsideHeight*s)
	g.ss = supersampling(g.width, g.height, s)
	if g.frames.Load() < warmupFrames || g.reduced != "" {
		// The first frames draw at screen resolution: a quarter of the
		// pixels, so the first picture appears sooner (a software
		// renderer takes seconds over a double-size first frame); the
		// smoother supersampled frames follow a moment later.
		g.ss = 1
	}
	return g.width, g.height
}

// warmupFrames are drawn without supersampling.
const warmupFrames = 10

// supersampling picks the factor for a w×h screen at device scale s: 2 on
// ordinary displays, 1 on HiDPI ones (whose pixels are too small for jagged
// edges to show) and where the offscreen would exceed maxOffscreen pixels
// on a side.
func supersampling(w, h, s float64) float64 {
	const maxOffscreen = 4096
	if s >= 1.5 || 2*w > maxOffscreen || 2*h > maxOffscreen {
		return 1
	}
	return 2
}

// supersampleInput moves input from screen pixels to offscreen pixels.
func supersampleInput(in *ui.Input, ss float64) {
	if ss == 1 {
		return
	}
	in.Cursor = ui.Point{X: in.Cursor.X * ss, Y: in.Cursor.Y * ss}
	for i := range in.Touches {
		in.Touches[i].Pos = ui.Point{X: in.Touches[i].Pos.X * ss, Y: in.Touches[i].Pos.Y * ss}
	}
	in.WindowW *= ss
	in.WindowH *= ss
	in.Scale *= ss
}

func scaleRegions(regions map[string]ui.Rect, k float64) map[string]ui.Rect {
	if k == 1 || regions == nil {
		return regions
	}
	out := make(map[string]ui.Rect, len(regions))
	for name, r := range regions {
		out[name] = ui.Rect{X: r.X * k, Y: r.Y * k, W: r.W * k, H: r.H * k}
	}
	return out
}

// Snapshot returns the latest state; it is safe to call from any goroutine.
func (g *Game) Snapshot() Snapshot {
	s := *g.snapshot.Load()
	s.Frame = g.frames.Load()
	s.Drawn = g.drawn.Load()
	return s
}

// timeFrame gives the slow watch the time since the last frame, if that
// frame was drawn at full quality.
func (g *Game) timeFrame() {
	now := g.clock.Now()
	if g.drewLast && g.ss > 1 {
		g.slow.Frame(now.Sub(g.lastDraw))
	}
	g.lastDraw = now
}

// reduceIfSlow turns supersampling off once the slow watch found the
// frames too slow, and tells the learner, once.
func (g *Game) reduceIfSlow() {
	if !g.slow.Slow() || g.reduced != "" {
		return
	}
	g.reduced = g.slow.Notice()
	g.toastUntil = g.clock.Last().Add(toastFor)
	if n, ok := g.scene.(slowNotifier); ok {
		n.NotifySlow(g.reduced)
	}
}

// toastFor is how long the reduced-quality notice shows over the screen:
// the desktop shows no narration, and the learner may be anywhere.
const toastFor = 8 * time.Second

// toastText is the notice over the screen; the narration's is longer.
const toastText = "Drawing is slow on this machine: reduced quality to keep up."

// drawToast draws the notice where the scene has room with no control
// under it (a lesson's text), else centred at the top of the screen, in
// screen pixels.
func (g *Game) drawToast(screen *ebiten.Image) {
	s := draw.NewStyle(ui.UnitFor(g.width, g.height, g.scale))
	r := g.toastRect(s)
	draw.FillRoundRect(screen, r, s.U(6), s.Theme.Raised)
	draw.StrokeRoundRect(screen, r, s.U(6), s.U(1), s.Theme.Warning)
	draw.Paragraph(screen, toastText, s.Small(), r.InsetXY(s.U(12), s.U(8)), s.Theme.Text)
}

// toastRect is where drawToast puts the notice: at the top of the
// scene's ToastArea, wrapped to its width, if it has one; else centred
// at the top of the screen.
func (g *Game) toastRect(s draw.Style) ui.Rect {
	face := s.Small()
	if p, ok := g.scene.(toastPlacer); ok {
		if a, ok := p.ToastArea(); ok && a.W > s.U(120) {
			return ui.Rect{X: a.X, Y: a.Y, W: a.W, H: draw.ParagraphHeight(toastText, face, a.W-s.U(24)) + s.U(16)}
		}
	}
	w := min(g.width-s.U(24), draw.Measure(face)(toastText)+s.U(32))
	return ui.Rect{X: (g.width - w) / 2, Y: s.U(8), W: w, H: draw.ParagraphHeight(toastText, face, w-s.U(24)) + s.U(16)}
}

// toastPlacer is implemented by scenes with a place for a notice over
// the screen that covers no control (the App, for a lesson).
type toastPlacer interface {
	ToastArea() (ui.Rect, bool)
}

// ToastArea implements toastPlacer: a lesson's text, which scrolls and
// has no control but its scroll bar, at its right, left clear.
func (a *App) ToastArea() (ui.Rect, bool) {
	sc, ok := a.top().(*lesson.Scene)
	if !ok || sc.Player.Placed().LessonText.Empty() {
		return ui.Rect{}, false
	}
	r := sc.Player.Placed().LessonText
	r.W -= sc.Player.TextGutter()
	return r, true
}

// slowNotifier is implemented by scenes that can tell the learner the
// lab draws with less detail (the App).
type slowNotifier interface {
	NotifySlow(line string)
}

// NotifySlow implements slowNotifier: the line joins the narration of the
// scene on show, and the menu's notice after anything it says already (a
// notice about the learner's progress must not be lost to it).
func (a *App) NotifySlow(line string) {
	switch sc := a.top().(type) {
	case *lesson.Scene:
		sc.Player.Narrate(line)
	case *exercise.Scene:
		sc.Narrate(line)
	case *sandbox.Scene:
		if sc.Run != nil {
			sc.Run.Player.Narrate(line)
		}
	}
	a.menu.NoteSlow(line)
}

// sleep naps between the frames of an idle lab, so the loop polls the
// window some 10 times a second instead of 60 and a lab left paused costs
// next to no CPU. It does not use Ebitengine's lowest-power mode
// (FPSModeVsyncOffMinimum), which waits for events with GLFW's sticky mouse
// buttons and keys off: a press and release that came in during one wait
// (a quick click, a tapped key) left the polled button up, and the lab
// never saw it. With sticky buttons on, a button pressed and released
// between two polls reads as down for one, so no click is lost however
// long the nap.
func (g *Game) sleep(idle bool) {
	if idle {
		time.Sleep(idleNap)
	}
}
