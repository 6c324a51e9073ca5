package e2e

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/lessons"
)

// memoryFigures is the page's leaselab.memory() (wasm/bridge.go), in bytes.
type memoryFigures struct {
	WasmMemory uint64 `json:"wasm_memory"`
	HeapInuse  uint64 `json:"heap_inuse"`
	HeapSys    uint64 `json:"heap_sys"`
	Sys        uint64 `json:"sys"`
	TotalAlloc uint64 `json:"total_alloc"`
	NumGC      uint64 `json:"num_gc"`
}

func (b *browser) memory(t *testing.T) memoryFigures {
	t.Helper()
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`leaselab.memory()`))
	require.NoError(t, err)
	var m memoryFigures
	require.NoError(t, json.Unmarshal([]byte(raw), &m), "leaselab.memory() = %s", raw)
	return m
}

// TestMeasureMemoryEveryLesson is issue 18's memory figure, run by make
// bench (not make test: it plays every lesson and takes minutes). It opens
// each lesson from the menu as a learner would, shows its solution, plays
// it fast to the end and goes back to the menu; then it reads the tab's
// peak. A WebAssembly memory never shrinks, so its size at the end is the
// most the Go side ever held at once. The JavaScript heap is the page's
// own (performance.memory, Chromium only).
func TestMeasureMemoryEveryLesson(t *testing.T) {
	const target = 150 << 20
	b := openBrowser(t, 1280, 800)
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	start := b.memory(t)
	t.Logf("at the menu: wasm memory %.1f MB, Go heap in use %.1f MB", mb(start.WasmMemory), mb(start.HeapInuse))
	for _, l := range lessons.All() {
		b.click(t, "lesson:"+l.ID)
		b.until(t, l.ID, 30*time.Second, func(s fullState) bool {
			return s.Scene.Name == "lesson" && s.Scene.Run != nil && s.Scene.Run.Lesson == l.ID
		})
		b.click(t, "solution")
		for range 4 {
			b.press(t, bracketRight)
		}
		b.until(t, l.ID+" complete", 4*time.Minute, func(s fullState) bool { return s.Scene.Run != nil && s.Scene.Run.Complete })
		m := b.memory(t)
		t.Logf("%-22s wasm memory %6.1f MB   Go heap in use %6.1f MB   allocated so far %7.1f MB   GCs %d",
			l.ID, mb(m.WasmMemory), mb(m.HeapInuse), mb(m.TotalAlloc), m.NumGC)
		b.press(t, escKey)
		b.until(t, "the menu after "+l.ID, 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	}
	end := b.memory(t)
	js, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`performance.memory ? performance.memory.usedJSHeapSize : 0`))
	require.NoError(t, err)
	t.Logf("after every lesson: peak (wasm memory) %.1f MB, Go heap in use %.1f MB of %.1f MB reserved, JS heap %.1f MB; target: peak <= %d MB",
		mb(end.WasmMemory), mb(end.HeapInuse), mb(end.HeapSys), js/(1<<20), target>>20)
	require.NotZero(t, end.WasmMemory, "boot.js reports the WebAssembly memory")
	assert.LessOrEqual(t, end.WasmMemory, uint64(target), "the tab's peak memory after playing every lesson once")
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }
