//go:build js && wasm

package core_test

import (
	"flag"
	"strings"
	"syscall/js"
	"testing"
)

// requireBrowser is set by `make test-wasm` so that a green run proves the
// golden hash was computed inside Chromium's WebAssembly engine, not by
// whatever go_js_wasm_exec happened to be on PATH (Node also runs js/wasm).
var requireBrowser = flag.String("require-browser", "",
	"fail unless navigator.userAgent contains this `substring` (js/wasm only)")

func TestDeterminismRunsInBrowser(t *testing.T) {
	nav := js.Global().Get("navigator")
	ua := ""
	if nav.Truthy() {
		ua = nav.Get("userAgent").String()
	}
	t.Logf("user agent: %s", ua)
	if *requireBrowser != "" && !strings.Contains(ua, *requireBrowser) {
		t.Fatalf("running under %q, want a user agent containing %q: install wasmbrowsertest as go_js_wasm_exec on PATH", ua, *requireBrowser)
	}
	if got := HandsOnLabHash(t, 1); got != GoldenHandsOnLabHash {
		t.Errorf("in %s: hands-on-lab seed 1 hash = %s, want the native %s", ua, got, GoldenHandsOnLabHash)
	}
}
