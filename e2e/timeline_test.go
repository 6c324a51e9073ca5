package e2e

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

var (
	equalKey = key{key: "=", code: "Equal", text: "=", vk: 187}
	zeroKey  = key{key: "0", code: "Digit0", text: "0", vk: 48}
)

// TestBrowserTimelineZoomsAtEverySize opens, at 1024x640, 1280x800 and on
// a phone, the fenced-writes lesson, the sandbox's default ten-minute run
// and its fencing comparison, saving a screenshot of each in artifacts/;
// in the sandbox the + key zooms the timeline about the play head, so a
// click three quarters along the lanes lands inside the zoomed window,
// not at 450 s of the whole run, and 0 shows the whole run again.
func TestBrowserTimelineZoomsAtEverySize(t *testing.T) {
	for _, sz := range everySize[:3] {
		t.Run(sz.name, func(t *testing.T) {
			b := openBrowserSized(t, sz)
			shot := func(screen string) {
				t.Helper()
				time.Sleep(300 * time.Millisecond) // a frame or two to draw it
				b.screenshot(t, fmt.Sprintf("timeline-%s-%s.png", sz.name, screen))
			}
			b.useControl(t, "lesson:fenced-writes")
			b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
			b.seek(t, 25, 90)
			shot("lesson")
			b.useControl(t, "menu")
			b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })

			b.useControl(t, "sandbox")
			b.until(t, "the sandbox setup", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "sandbox-setup" })
			b.useControl(t, "start")
			b.until(t, "the sandbox run", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "sandbox" && s.Scene.Run != nil })
			// A pixel of the phone's lanes is two seconds of this run.
			b.clickFrac(t, "lanes", 0.5, 0.5)
			b.until(t, "the play head near 300 s", 30*time.Second, func(s fullState) bool { return math.Abs(s.Scene.Run.Now-300) < 3 })
			shot("sandbox-600s")
			for range 3 {
				b.press(t, equalKey) // 600 s / 1.5^3: about 178 s, about 300 s
			}
			shot("sandbox-zoomed")
			b.clickFrac(t, "lanes", 0.75, 0.5)
			st := b.until(t, "the play head moved", 30*time.Second, func(s fullState) bool { return math.Abs(s.Scene.Run.Now-300) > 5 })
			assert.InDelta(t, 300+178.0/4, st.Scene.Run.Now, 5, "the click landed in the zoomed window")
			b.press(t, zeroKey)
			b.clickFrac(t, "lanes", 0.75, 0.5)
			st = b.until(t, "the play head near 450 s", 30*time.Second, func(s fullState) bool { return math.Abs(s.Scene.Run.Now-450) < 3 })
			assert.InDelta(t, 450, st.Scene.Run.Now, 3, "0 showed the whole run")

			b.click(t, "compare")
			b.until(t, "the comparison", time.Minute, func(s fullState) bool { return s.Scene.Compare != nil })
			shot("compare")
		})
	}
}
