package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"leaselab/core/permalink"
	"leaselab/lessons"
)

// TestScreenshotsOfEveryScreen saves a full-page screenshot of every
// screen — the menu, each lesson at its start and completed (its solution
// played to the end), each exercise's answer and simulator, the sandbox's
// setup and a run, Compare systems — on the phone and at 1024x640 and
// 1280x800, into $LEASELAB_SHOTS (make shots: artifacts/shots), for a
// person to look at. It is not part of make test (about three minutes).
func TestScreenshotsOfEveryScreen(t *testing.T) {
	dir := os.Getenv("LEASELAB_SHOTS")
	require.NotEmpty(t, dir, "set LEASELAB_SHOTS to the folder for the screenshots (make shots does)")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, sz := range everySize[:3] {
		t.Run(sz.name, func(t *testing.T) {
			b := openBrowserSized(t, sz)
			shot := func(name string) {
				t.Helper()
				time.Sleep(400 * time.Millisecond) // a few frames to draw it
				png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
				require.NoError(t, err)
				path := filepath.Join(dir, fmt.Sprintf("browser-%s-%s.png", sz.name, name))
				require.NoError(t, os.WriteFile(path, png, 0o644))
			}
			visit := func(frag string, ok func(fullState) bool) {
				t.Helper()
				b.eval(t, fmt.Sprintf(`(location.hash = %q, "")`, frag))
				b.until(t, frag, 60*time.Second, ok)
			}
			shot("menu")
			for _, l := range lessons.All() {
				visit("#lesson="+l.ID, func(s fullState) bool { return s.Scene.Run != nil && s.Scene.Run.Lesson == l.ID })
				shot("lesson-" + l.ID)
				visit(permalink.LessonLink(l.ID, 1, l.SolutionKnobs, l.Solution).Fragment(), func(s fullState) bool {
					return s.Scene.Run != nil && s.Scene.Run.Lesson == l.ID
				})
				b.setControlFrac(t, "scrub", 1)
				b.until(t, l.ID+" complete", 60*time.Second, func(s fullState) bool { return s.Scene.Run.Complete })
				shot("lesson-" + l.ID + "-done")
				visit("#", func(s fullState) bool { return s.Scene.Name == "menu" })
			}
			for _, ex := range lessons.Exercises() {
				visit("#exercise="+ex.ID, func(s fullState) bool { return s.Scene.Name == "exercise" })
				shot("exercise-" + ex.ID)
				if ex.Lab != nil {
					visit("#exercise="+ex.ID+"/simulator", func(s fullState) bool { return s.Scene.Run != nil })
					shot("exercise-" + ex.ID + "-sim")
				}
			}
			visit("#sandbox", func(s fullState) bool { return s.Scene.Name == "sandbox-setup" })
			shot("sandbox-setup")
			b.useControl(t, "start")
			b.until(t, "the run", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
			b.setControl(t, "scrub", 3)
			b.useControl(t, "act:A:pause")
			b.setControl(t, "scrub", 30)
			shot("sandbox-run")
			b.useControl(t, "runCompareSystems")
			b.until(t, "Compare systems", 60*time.Second, func(s fullState) bool { return s.Scene.Name == "compare-systems" })
			shot("compare-systems")
		})
	}
}
