// Command startbench measures how long a learner waits for the lab in
// headless Chromium, against the Ebitengine text hello-world built the same
// way and served the same way in the same run (the anchor of issue 18):
//
//	go run ./internal/tools/startbench -runs 5     # after make wasm
//
// For each page and run it opens a fresh browser (an empty cache), navigates,
// and records the first WebGL draw call (a script injected before the page's
// own wraps getContext), which is when the first frame is on its way to the
// screen for both programs alike. For the lab it also reports the first Draw
// (draw0..draw1, wasm/timing.go). Then, the lab's page left idle on
// the menu for two seconds, how many frames the canvas was drawn in per second.
// It prints medians. The hello-world is the anchor's main.go
// (../shared/anchors/ebiten-hello), built into a temporary directory; with
// -modfile against the same patched Ebitengine as the lab (make bench does).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"leaselab/internal/browser"
	"leaselab/internal/webserve"
)

// shot is -screenshot's path.
var shot string

// probe counts WebGL draw calls and frames: __firstGL is when the first draw
// call was made (ms since navigation), __glFrames how many animation frames
// had at least one.
const probe = `(() => {
  const orig = HTMLCanvasElement.prototype.getContext;
  globalThis.__firstGL = 0; globalThis.__glFrames = 0;
  let counted = false;
  const wrap = (ctx) => {
    if (!ctx || ctx.__wrapped) return ctx;
    ctx.__wrapped = true;
    for (const name of ["drawElements", "drawArrays"]) {
      const f = ctx[name].bind(ctx);
      ctx[name] = (...a) => {
        if (!globalThis.__firstGL) globalThis.__firstGL = performance.now();
        if (!counted) { counted = true; globalThis.__glFrames++; requestAnimationFrame(() => { counted = false; }); }
        return f(...a);
      };
    }
    return ctx;
  };
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    const ctx = orig.call(this, type, ...rest);
    return type === "webgl" || type === "webgl2" ? wrap(ctx) : ctx;
  };
})();`

func main() {
	runs := flag.Int("runs", 5, "page loads per program")
	web := flag.String("web", "web", "the lab's built web directory (make wasm)")
	anchor := flag.String("anchor", "../shared/anchors/ebiten-hello", "the hello-world's source directory")
	modfile := flag.String("modfile", "", "build the hello-world with this go.mod (go build -modfile), as make wasm builds the lab")
	flag.StringVar(&shot, "screenshot", "", "also save the lab's idle page as PNG to `path`, to look at")
	flag.Parse()
	if err := run(*runs, *web, *anchor, *modfile); err != nil {
		fmt.Fprintln(os.Stderr, "startbench:", err)
		os.Exit(1)
	}
}

func run(runs int, web, anchor, modfile string) error {
	hello, err := buildHello(anchor, web, modfile)
	if err != nil {
		return err
	}
	defer os.RemoveAll(hello)
	var labFirst, labDraw, helloFirst []float64
	var idleFPS float64
	for i := range runs {
		f, d, fps, err := load(web, "draw0", i == 0)
		if err != nil {
			return fmt.Errorf("lab: %w", err)
		}
		labFirst, labDraw = append(labFirst, f), append(labDraw, d)
		if i == 0 {
			idleFPS = fps
		}
		h, _, _, err := load(hello, "", false)
		if err != nil {
			return fmt.Errorf("hello: %w", err)
		}
		helloFirst = append(helloFirst, h)
	}
	lf, hf := median(labFirst), median(helloFirst)
	fmt.Printf("first frame      lab %6.0f ms   hello %6.0f ms   ratio %.2f   (median of %d, navigation to first WebGL draw)\n", lf, hf, lf/hf, runs)
	fmt.Printf("first Draw       lab %6.1f ms   (draw0..draw1, median)\n", median(labDraw))
	fmt.Printf("idle frames      lab %6.1f /s   (menu, nothing moving, 5..8 s after load)\n", idleFPS)
	return nil
}

// load opens dir's index.html in a fresh headless Chromium and returns the
// time of the first WebGL draw call, the first Draw's length (when
// drawMark names the mark its start is), and, when idle is set, the frames
// per second drawn in two seconds with nothing happening.
func load(dir, drawMark string, idle bool) (first, draw, fps float64, err error) {
	h, err := webserve.NewHandler(dir)
	if err != nil {
		return 0, 0, 0, err
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	chromium, err := browser.Path()
	if err != nil {
		return 0, 0, 0, err
	}
	tmp, err := os.MkdirTemp("", "startbench-profile")
	if err != nil {
		return 0, 0, 0, err
	}
	defer os.RemoveAll(tmp)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium), chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true),
		chromedp.Flag("enable-unsafe-swiftshader", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true), chromedp.UserDataDir(tmp), chromedp.WindowSize(1280, 800))
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelT()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: probe}); err != nil {
		return 0, 0, 0, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), poll(`globalThis.__firstGL > 0`)); err != nil {
		return 0, 0, 0, err
	}
	if first, err = chromedp.Run(ctx, chromedp.Evaluate[float64](`globalThis.__firstGL`)); err != nil {
		return 0, 0, 0, err
	}
	if drawMark != "" {
		if err := chromedp.Do(ctx, poll(`JSON.parse(globalThis.leaselab.timings()).frame > 0`)); err != nil {
			return 0, 0, 0, err
		}
		marks, err := chromedp.Run(ctx, chromedp.Evaluate[string](`globalThis.leaselab.timings()`))
		if err != nil {
			return 0, 0, 0, err
		}
		var m map[string]float64
		if err := json.Unmarshal([]byte(marks), &m); err != nil {
			return 0, 0, 0, err
		}
		draw = m["draw1"] - m["draw0"]
	}
	if idle {
		frames := chromedp.Evaluate[float64](`globalThis.__glFrames`)
		if err := chromedp.Do(ctx, chromedp.Sleep(5*time.Second)); err != nil {
			return 0, 0, 0, err
		}
		a, err := chromedp.Run(ctx, frames)
		if err != nil {
			return 0, 0, 0, err
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(3*time.Second)); err != nil {
			return 0, 0, 0, err
		}
		b, err := chromedp.Run(ctx, frames)
		if err != nil {
			return 0, 0, 0, err
		}
		fps = (b - a) / 3
		if shot != "" {
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				return 0, 0, 0, err
			}
			if err := os.WriteFile(shot, png, 0o644); err != nil {
				return 0, 0, 0, err
			}
		}
	}
	return first, draw, fps, nil
}

// buildHello builds the anchor for js/wasm inside this module (so it uses
// the lab's Ebitengine), the way the Makefile builds the lab, next to a page
// that starts it as boot.js starts the lab, and precompresses it as the lab's
// build is. A modfile, if given, is the go.mod make wasm built the lab with.
func buildHello(anchor, web, modfile string) (string, error) {
	dir, err := os.MkdirTemp("", "startbench-hello")
	if err != nil {
		return "", err
	}
	pkg := filepath.Join("internal", "zz-startbench-hello")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		return "", err
	}
	defer os.RemoveAll(pkg)
	src, err := os.ReadFile(filepath.Join(anchor, "main.go"))
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(pkg, "main.go"), src, 0o644); err != nil {
		return "", err
	}
	build := []string{"go", "build"}
	if modfile != "" {
		build = append(build, "-modfile="+modfile)
	}
	build = append(build, "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "hello.wasm"), "./"+pkg)
	steps := [][]string{
		build,
		{"go", "run", "./internal/tools/compress", filepath.Join(dir, "hello.wasm")},
	}
	for i, s := range steps {
		cmd := exec.Command(s[0], s[1:]...)
		if i == 0 {
			cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%v: %w", s, err)
		}
	}
	exec, err := os.ReadFile(filepath.Join(web, "wasm_exec.js"))
	if err != nil {
		return "", fmt.Errorf("%w (run make wasm)", err)
	}
	files := map[string]string{
		"wasm_exec.js": string(exec),
		"index.html":   `<!doctype html><html><head><meta charset="utf-8"><title>hello</title><script src="wasm_exec.js"></script><script src="boot.js" defer></script></head><body></body></html>`,
		"boot.js": `"use strict";
(async () => {
  const go = new Go();
  const { instance } = await WebAssembly.instantiateStreaming(fetch("hello.wasm"), go.importObject);
  await go.run(instance);
})();`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func poll(expr string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Poll[chromedp.Void](expr,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(time.Minute))(ctx, t)
		return chromedp.Void{}, err
	}
}
