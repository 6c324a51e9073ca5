package game

import (
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/internal/scenetest"
	"leaselab/game/lesson"
	"leaselab/game/place"
	"leaselab/game/player"
	"leaselab/game/sandbox"
	"leaselab/game/ui"

	"boot.leaselab/progress"
)

// clipSizes are the window sizes every screen must fit (issue 16): a
// small laptop and an ordinary one.
var clipSizes = [][2]float64{{1024, 640}, {1280, 800}}

// screenText is what one screen drew: every string, for the clipping
// check.
type screenText struct {
	name  string
	drawn []draw.Drawn
}

// record draws the app after a quiet tick and keeps every string drawn, saving
// the frame under LEASELAB_SHOTS (if set) as name.png.
func (r *appRig) record(name string) screenText {
	r.t.Helper()
	r.tick(ui.Input{})
	return r.drawn(name)
}

// drawn is record without the tick, for a frame after the test's own.
func (r *appRig) drawn(name string) screenText {
	r.t.Helper()
	shot := scenetest.Draw(r.t, name, int(r.st.Window.W), int(r.st.Window.H), r.a.Draw)
	return screenText{name: shot.Name, drawn: shot.Drawn}
}

// shot is the screen as scenetest checks it.
func (s screenText) shot() scenetest.Shot { return scenetest.Shot{Name: s.name, Drawn: s.drawn} }

// offenders, ellipsised and overlapping are scenetest.Shot's checks.
func (s screenText) offenders() []string   { return s.shot().Offenders() }
func (s screenText) ellipsised() []string  { return s.shot().Ellipsised() }
func (s screenText) overlapping() []string { return s.shot().Overlapping() }

// tipped lists the strings cut with their whole text on hover.
func (s screenText) tipped() []draw.Drawn {
	var out []draw.Drawn
	for _, d := range s.drawn {
		if d.Cut && d.Tip {
			out = append(out, d)
		}
	}
	return out
}

// screens are everyScreen's records by size, drawn once for the tests
// that read them.
var screens = map[[2]float64][]screenText{}

func screensAt(t *testing.T, w, h float64) []screenText {
	k := [2]float64{w, h}
	if _, ok := screens[k]; !ok {
		screens[k] = everyScreen(t, w, h)
	}
	return screens[k]
}

// Every string on every screen is drawn in one of the theme's text
// colours, whose contrast on each background TextPairs lists is checked
// (draw's TestEveryTextPairOfTheThemeHasContrast); the shard cells' labels
// are Text on the owners' colours, checked by
// TestShardCellLabelsHaveContrast.
func TestEveryTextColourIsOneTheThemeChecks(t *testing.T) {
	checked := map[color.RGBA]bool{}
	for _, p := range draw.Dark.TextPairs() {
		checked[p.Text] = true
	}
	for _, size := range clipSizes {
		for _, s := range screensAt(t, size[0], size[1]) {
			for _, d := range s.drawn {
				if d.Text != "" {
					assert.True(t, checked[d.Colour], "%s: %q in %v", s.name, d.Text, d.Colour)
				}
			}
		}
	}
}

// lessonMoment is a time in the middle of a lesson's action: its
// solution's last step and a little more, or 20 s.
func lessonMoment(sc *lesson.Scene) time.Duration {
	at := 20 * time.Second
	for _, a := range sc.Lab.Lesson.Solution {
		at = max(at, a.At.D()+5*time.Second)
	}
	return min(at, 90*time.Second)
}

// Every screen of the lab, at both sizes: no string is cut without a way
// to read it whole, and none runs outside its box (issue 16, "nothing
// clipped").
func TestNothingIsClipped(t *testing.T) {
	for _, size := range clipSizes {
		t.Run(fmt.Sprintf("%.0fx%.0f", size[0], size[1]), func(t *testing.T) {
			var bad []string
			for _, s := range screensAt(t, size[0], size[1]) {
				require.NotEmpty(t, s.drawn, "%s drew no text", s.name)
				bad = append(bad, s.offenders()...)
				for _, d := range s.tipped() {
					t.Logf("%s: %q cut, whole on hover: %q", s.name, d.Text, d.Full)
				}
			}
			assert.Empty(t, bad, "text cut without a way to read it:\n%s", strings.Join(bad, "\n"))
		})
	}
}

// The notice a corrupt save gives wraps, and the menu makes room for it,
// down to a window 700 px wide (issue 17: it was one line, cut at 1024
// and 700 px).
func TestTheCorruptProgressNoticeWrapsInNarrowWindows(t *testing.T) {
	for _, w := range []float64{700, 1024} {
		r := rigWith(t, progress.NewMemStore([]byte(`{"version": 1, "lessons": {"fenced-writes": {"goalsMet": 7}}`), ""))
		r.resize(w, 640)
		notice := r.a.menu.Notice
		require.NotEmpty(t, notice, "a corrupt save gives a notice")
		s := r.record(fmt.Sprintf("menu-notice-%.0f", w))
		assert.Empty(t, s.offenders(), "at %.0f px", w)
		var shown []string
		for _, d := range s.drawn {
			if d.Box.Y < r.a.menu.LessonsHead().Y && strings.Contains(notice, d.Text) && d.Text != "" {
				shown = append(shown, d.Text)
			}
		}
		assert.Equal(t, notice, strings.Join(shown, " "), "the whole notice is on screen at %.0f px", w)
	}
}

// A text said shorter on screen shows whole once the pointer rests on
// it: here a sandbox field's help at the small size.
func TestACutLabelShowsWholeOnHover(t *testing.T) {
	r := rigWith(t, nil)
	r.resize(1024, 640)
	r.click("sandbox")
	r.record("hover-before")
	cuts := draw.CutTexts()
	require.NotEmpty(t, cuts, "the fields' help is said shorter at this size")
	c := cuts[0]
	for range player.TooltipDelay + 2 {
		r.tick(ui.Input{Cursor: c.Box.Center()})
	}
	require.True(t, r.a.tip.Visible())
	s := r.drawn("hover-after")
	var tip []string
	for _, d := range s.drawn {
		if d.Text != "" && strings.Contains(c.Text, d.Text) && !d.Cut && d.Box.Overlaps(ui.Rect{X: c.Box.X - 400, Y: c.Box.Y - 200, W: 800, H: 400}) {
			tip = append(tip, d.Text)
		}
	}
	assert.Contains(t, strings.Join(tip, " "), c.Text, "the tip draws %q whole (its lines wrapped)", c.Text)
	assert.Empty(t, s.offenders())
}

// Every screen of the lab, at both sizes: no text is cut with an
// ellipsis (issue 29: menu summaries, hints, goals, badges and the
// sandbox's help were readable only on hover at 1024x640).
func TestNoTextIsCutWithAnEllipsis(t *testing.T) {
	for _, size := range clipSizes {
		t.Run(fmt.Sprintf("%.0fx%.0f", size[0], size[1]), func(t *testing.T) {
			for _, s := range screensAt(t, size[0], size[1]) {
				for _, cut := range s.ellipsised() {
					assert.Fail(t, "cut with an ellipsis", cut)
				}
			}
		})
	}
}

// On a phone held upright (the page shows the panel, the canvas is 390 px
// wide) the compare view's system chips say each name whole or as people
// shorten it ("ZK", "k8s"), never cut with an ellipsis ("Zoo…", "Kub…").
func TestPhoneCompareChipsAreNotCut(t *testing.T) {
	r := newAppRig(t)
	// The browser's phone canvas in device pixels (390 CSS px at 3x), as
	// game.go lays it out: no panel beside it, an upright window.
	r.st.Window = ui.Rect{W: 1170, H: 1390}
	r.st.Style = draw.NewStyle(ui.UnitForBare(1170, 1390, 3))
	r.st.Style.PanelOutside = true
	r.tick(ui.Input{})
	require.NoError(t, r.a.Goto(place.Place{Kind: place.Sandbox}))
	r.tick(ui.Input{})
	r.click("start")
	sb := r.a.top().(*sandbox.Scene)
	require.NotNil(t, sb.Run)
	sb.Run.Lab.Advance(3 * time.Second)
	r.key(ui.IntentBack)
	r.click("compareSystems")
	shot := r.record("compare-systems-phone")
	assert.Empty(t, shot.ellipsised(), "nothing on the phone's compare view is cut with an ellipsis")
}

// phoneWindow is the browser's phone canvas in device pixels: 390 CSS px
// at 3x, 55 % of an 844 px screen (web/style.css), no panel beside it.
var phoneWindow = ui.Rect{W: 1170, H: 1392}

// phoneRig is an app laid out as the page lays it out on a phone.
func phoneRig(t *testing.T) *appRig { return bareRig(t, phoneWindow, 3) }

// bareRig is an app laid out as the page lays it out beside its panel, in
// a canvas window big at scale.
func bareRig(t *testing.T, window ui.Rect, scale float64) *appRig {
	r := rigWith(t, nil)
	r.st.Window = window
	r.st.Style = draw.NewStyle(ui.UnitForBare(window.W, window.H, scale))
	r.st.Style.PanelOutside = true
	r.tick(ui.Input{})
	return r
}

// phoneScreens opens every screen the phone shows a canvas for (the menu,
// an exercise's answer and the sandbox's setup are the page alone there)
// and records each.
func phoneScreens(t *testing.T) []screenText { return bareScreens(t, phoneWindow, 3, "phone") }

// browserWindows are the browser's canvas beside the page's 22 rem panel
// in a 1024x640 and a 1280x800 window, at 1x.
var browserWindows = map[string]ui.Rect{"browser-1024x640": {W: 1024 - 22*16, H: 640}, "browser-1280x800": {W: 1280 - 22*16, H: 800}}

// On the phone, too, no canvas text is cut with an ellipsis (issue 29:
// "held by report-1, to…", "4/4 shards…", "compact…" in the lessons), and
// none is cut without a way to read it or drawn outside its box.
func TestNoTextIsCutOnThePhone(t *testing.T) {
	var bad []string
	for _, s := range phoneScreens(t) {
		require.NotEmpty(t, s.drawn, "%s drew no text", s.name)
		bad = append(bad, s.ellipsised()...)
		bad = append(bad, s.offenders()...)
		bad = append(bad, s.overlapping()...)
	}
	assert.Empty(t, bad, "text cut or overlapping on the phone:\n%s", strings.Join(bad, "\n"))
}

// In the browser beside the page's panel, at 1024x640 and 1280x800, no
// canvas text is cut, drawn outside its box or over another, and none is
// smaller than 11 px (issue 29: at 1024x640 the small face was 8.5 px).
func TestNoTextIsCutInTheBrowsersCanvas(t *testing.T) {
	for size, window := range browserWindows {
		var bad []string
		smallest := 100.0
		for _, s := range bareScreens(t, window, 1, size) {
			require.NotEmpty(t, s.drawn, "%s drew no text", s.name)
			bad = append(bad, s.ellipsised()...)
			bad = append(bad, s.offenders()...)
			bad = append(bad, s.overlapping()...)
			for _, d := range s.drawn {
				smallest = min(smallest, d.Size)
			}
		}
		assert.Empty(t, bad, "%s: text cut or overlapping:\n%s", size, strings.Join(bad, "\n"))
		assert.GreaterOrEqual(t, smallest, 11.0, "%s: the smallest text drawn", size)
	}
}
