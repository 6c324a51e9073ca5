# LeaseLab build and test entry points.
#
#   make wasm          build web/leaselab.wasm (+ wasm_exec.js, .gz/.br siblings)
#   make serve         build, then serve web/ on $(ADDR)
#   make desktop       run the desktop program
#   make size          where the .wasm's bytes go, package by package
#   make bench         every performance figure, with its target and anchor
#   make test          everything CI runs (composed of the targets below),
#                      after make deps installs what the tests need
#   make test-ui       the front end's display-free tests: fast, no browser
#   make test-browser  headless Chromium end-to-end test (needs chromium)
#   make test-desktop  display tests and the desktop screenshot under Xvfb
#   make test-wasm     core's determinism tests, every run's trace hash against
#                      the native one, and the browser progress store,
#                      compiled to wasm and run in headless Chromium
#   make test-conform  the simulator against a real (embedded) etcd 3.7.3 and
#                      a real ZooKeeper 3.8 (the Debian package, started by
#                      the tests), and three embedded etcd members crashed
#                      and cut off (conform/ETCD_CLUSTER.md)
#   make conform       the same suite as a report: both sides, side by side
#   make shots         a screenshot of every screen, in the browser (phone,
#                      1024x640, 1280x800) and on the desktop under Xvfb
#                      (1024x640, 1280x800), into $(SHOTS) to look at;
#                      not part of make test
#   make test-fuzz     every parser's fuzz target, a fixed count of runs each
#                      (about 3 s; make test-fuzz FUZZTIME=60s for a long run)

GO         ?= go
# Tools that go install puts in GOBIN (staticcheck, go_js_wasm_exec) are
# found there even when it is not on the caller's PATH.
GOBIN_DIR  := $(or $(shell $(GO) env GOBIN),$(shell $(GO) env GOPATH)/bin)
export PATH := $(GOBIN_DIR):$(PATH)
STATICCHECK ?= staticcheck
ADDR       ?= 127.0.0.1:8080
WEB_DIR    ?= web
ARTIFACTS  ?= artifacts
XVFB_RUN   ?= xvfb-run -a -s "-screen 0 1920x1080x24"
# test-wasm runs js/wasm test binaries through go_js_wasm_exec, which must be
# wasmbrowsertest (.ci/run installs this version): it serves the test binary
# to headless Chromium over chromedp (with --no-sandbox when run as root).
WASMBROWSERTEST_VERSION := v0.11.0

WASM       := $(WEB_DIR)/leaselab.wasm
BUILD_DIR  ?= .build
WASM_EXEC  := $(WEB_DIR)/wasm_exec.js
# Go 1.24 moved wasm_exec.js from misc/wasm to lib/wasm.
GOROOT     := $(shell $(GO) env GOROOT)
WASM_EXEC_SRC := $(firstword $(wildcard $(GOROOT)/lib/wasm/wasm_exec.js $(GOROOT)/misc/wasm/wasm_exec.js))
GO_SOURCES := $(shell find . -name '*.go' -not -path './e2e/*' -not -path './.git/*' -not -path './.build/*') go.mod go.sum

# The module boot.leaselab: the desktop program's flags and what it does before
# Ebitengine starts, and the progress and inputfile packages everything uses
# (cmd/leaselab/boot/boot.go says why it is a module of its own). ./... does
# not reach into another module, so vet, staticcheck, the tests and the fuzz
# targets name it as well.
BOOT_DIR   := cmd/leaselab/boot

# Packages whose test binaries import Ebitengine and so need a display, the
# js/wasm main, and the end-to-end tests are kept out of the plain run.
DISPLAY_PKGS := ./game ./game/draw ./game/view ./game/player ./game/scene ./game/lesson ./game/menu ./game/sandbox ./game/exercise ./cmd/leaselab
PLAIN_PKGS    = $(shell $(GO) list ./... | grep -v -e '/game$$' -e '/game/draw$$' -e '/game/view$$' -e '/game/player$$' -e '/game/scene$$' -e '/game/lesson$$' -e '/game/menu$$' -e '/game/sandbox$$' -e '/game/exercise$$' -e '/cmd/leaselab$$' -e '/wasm$$' -e '/e2e$$')

.PHONY: shots wasm serve desktop conform size bench test deps fmt-check vet staticcheck test-plain test-ui test-wasm test-browser test-desktop test-conform test-fuzz

## Builds

wasm: $(WASM).br $(WASM_EXEC)

# The browser build uses a copy of Ebitengine whose built-in shaders are
# rendered at build time rather than by text/template, which would make the
# linker keep every exported method in the program: 0.6 MB less to download
# with gzip (internal/tools/shaderpatch says why and how). BUILD_DIR holds the
# copy and the go.mod that uses it; nothing there is committed.
$(WASM): $(GO_SOURCES)
	modfile="$$($(GO) run ./internal/tools/shaderpatch -dir $(BUILD_DIR))" && \
	GOOS=js GOARCH=wasm $(GO) build -modfile="$$modfile" -trimpath -ldflags="-s -w" -o $@ ./wasm

$(WASM_EXEC): $(WASM_EXEC_SRC)
	cp $< $@

# The compress tool gives X.gz and X.br the mtime of X, so they stay up to date
# until X changes. (wasm_exec.js is 17 kB: not worth compressing.)
%.wasm.br: %.wasm
	$(GO) run ./internal/tools/compress $<

serve: wasm
	$(GO) run ./cmd/labctl serve --addr $(ADDR) --dir $(WEB_DIR)

desktop:
	$(GO) run ./cmd/leaselab

# conform/ is its own module (etcd's dependencies stay out of the lab's).
# ARGS=--endpoints host:port,... runs it against a cluster you started.
conform:
	cd conform && $(GO) run ./cmd/conform $(ARGS)

# The browser build's code by package (module by module at depth 3), then by
# section: run it before and after a change meant to make the .wasm smaller.
size:
	@modfile="$$($(GO) run ./internal/tools/shaderpatch -dir $(BUILD_DIR))" && \
	$(GO) run ./internal/tools/wasmsize -modfile "$$modfile" -depth 3 ./wasm && \
	$(GO) run ./internal/tools/wasmsize -modfile "$$modfile" -top 25 ./wasm | sed -n '1,27p'

# Size, start-up, frame CPU, idle CPU, simulator speed and the break finder,
# each beside its target and (where there is one) its anchor, measured in the
# same run. SHARED is the directory with bench/ and anchors/.
SHARED ?= ../shared
bench: deps wasm
	internal/tools/bench.sh $(SHARED)

## Checks and tests. `test` is a list of prerequisites: add core and lesson
## targets to it.

test: deps fmt-check vet staticcheck test-plain test-fuzz test-conform test-wasm test-browser test-desktop

# What the tests need beyond Go (Chromium, Xvfb, ZooKeeper, Redis, the cgo
# headers, staticcheck, wasmbrowsertest), in one list: .ci/deps installs what
# is missing (root or sudo; otherwise it prints the one command to run).
deps:
	@bash .ci/deps

fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go') $$(git ls-files --others --exclude-standard '*.go'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	$(GO) -C $(BOOT_DIR) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/
	cd conform && $(GO) vet ./...

staticcheck:
	$(STATICCHECK) ./...
	cd $(BOOT_DIR) && $(STATICCHECK) ./...
	GOOS=js GOARCH=wasm $(STATICCHECK) ./wasm/
	cd conform && $(STATICCHECK) ./...

test-plain:
	$(GO) test $(PLAIN_PKGS)
	$(GO) -C $(BOOT_DIR) test ./...

# Every parser a learner's input reaches, as package:target:budget. The
# bounds, sandbox and answer targets start from the overflow cases of issue
# 19. A budget is a count of runs (about 3 s each here), not a duration: Go
# 1.26's fuzzer can fail a duration run with a bare "context deadline
# exceeded" when the time runs out mid-run on a busy machine
# (go.dev/issue/75804, fixed in Go 1.27), and a count has no deadline to
# race. FUZZTIME, if given, replaces every budget (make test-fuzz
# FUZZTIME=60s for a long run). Each target runs from its package's directory
# (go test -fuzz takes only packages of the module it runs in, and progress is
# in $(BOOT_DIR)'s).
FUZZTIME ?=
FUZZ_TARGETS := ./core:FuzzParseActionLog:30000x ./core:FuzzActionLog:3000x ./core/explore:FuzzParseBounds:40000x \
	./core/permalink:FuzzDecodeLink:40000x ./core:FuzzSandboxConfig:40000x ./lessons:FuzzParseAnswer:40000x \
	./$(BOOT_DIR)/progress:FuzzDecode:30000x ./$(BOOT_DIR)/progress:FuzzMerge:20000x

test-fuzz:
	@for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; rest=$${t#*:}; name=$${rest%%:*}; budget=$(if $(FUZZTIME),$(FUZZTIME),$${rest#*:}); \
	  echo "fuzz $$pkg $$name ($$budget)"; \
	  $(GO) -C $$pkg test -run '^$$' -fuzz "^$$name\$$" -fuzztime $$budget . >/tmp/leaselab-fuzz.$$$$ 2>&1 || \
	    { cat /tmp/leaselab-fuzz.$$$$; rm -f /tmp/leaselab-fuzz.$$$$; exit 1; }; \
	  rm -f /tmp/leaselab-fuzz.$$$$; \
	done

test-ui:
	$(GO) test ./game/ui/... ./cmd/labctl/...

# Each scenario runs on its own embedded etcd (free loopback ports, a
# temporary data directory), all in parallel: about a minute of wall time.
test-conform:
	cd conform && $(GO) test -count=1 -timeout 20m ./...

# The same seed must give the same trace hash in the browser as natively:
# core's golden-hash tests, compiled to wasm and run inside Chromium, and
# every scenario and preset x 3 seeds and every lesson solution, whose
# hashes lessons' native test writes to a file the browser run compares with. The
# -require-browser check fails the run if go_js_wasm_exec is anything but a
# browser (Go's own script would run them under Node). wasmbrowsertest
# The wasm package's tests (the localStorage progress store) run there too.
# v0.11.0's DevTools client logs "could not unmarshal event" for events newer
# Chromium sends; those lines are noise and are filtered out.
test-wasm:
	@command -v go_js_wasm_exec >/dev/null || { echo "test-wasm: go_js_wasm_exec is not on PATH; install it with:"; \
	  echo "  go install github.com/agnivade/wasmbrowsertest@$(WASMBROWSERTEST_VERSION) && cp \"\$$(go env GOPATH)/bin/wasmbrowsertest\" \"\$$(go env GOPATH)/bin/go_js_wasm_exec\""; exit 1; }
	@test -n "$$LEASELAB_BROWSER" || test -x /usr/bin/chromium || test -x /usr/bin/google-chrome-stable || test -x /usr/bin/google-chrome || \
	  { echo "test-wasm: no Chromium or Chrome: install one with make deps (Debian: apt-get install -y chromium)"; exit 1; }
	@out="$$(GOOS=js GOARCH=wasm $(GO) test -count=1 -v -run 'Golden|TraceHash|Determin' ./core/ -args -require-browser=HeadlessChrome 2>&1)"; \
	status=$$?; printf '%s\n' "$$out" | grep -v 'could not unmarshal event'; exit $$status
	@out="$$(GOOS=js GOARCH=wasm $(GO) test -count=1 ./wasm/ 2>&1)"; \
	status=$$?; printf '%s\n' "$$out" | grep -v 'could not unmarshal event'; exit $$status
	@hashes="$$(mktemp)"; trap 'rm -f "$$hashes"' EXIT; \
	$(GO) test -count=1 -run '^TestTraceHashesAreDeterministic$$' ./lessons/ -args -write-hashes="$$hashes" >/dev/null || exit 1; \
	out="$$(LEASELAB_NATIVE_HASHES="$$hashes" GOOS=js GOARCH=wasm $(GO) test -count=1 -v -run '^TestTraceHashesMatchNative$$' ./lessons/ 2>&1)"; \
	status=$$?; printf '%s\n' "$$out" | grep -v 'could not unmarshal event' | grep -v '^=== RUN'; exit $$status

# Each browser test starts its own Chromium; on a loaded machine ten of them
# take longer than go test's default 10 minutes.
test-browser: wasm
	mkdir -p $(ARTIFACTS)
	$(GO) test -count=1 -timeout 30m -v -run 'TestBrowser' ./e2e/

# Every screen as a learner sees it, for a person to look at: the desktop's
# (the game package's screen tests draw each screen and save it under
# LEASELAB_SHOTS) and the browser's (a full-page screenshot of each).
SHOTS ?= $(ARTIFACTS)/shots
shots: wasm
	rm -rf $(SHOTS) && mkdir -p $(SHOTS)
	LEASELAB_SHOTS="$(abspath $(SHOTS))" $(XVFB_RUN) $(GO) test -count=1 -run 'TestNothingIsClipped' ./game/
	LEASELAB_SHOTS="$(abspath $(SHOTS))" $(GO) test -count=1 -timeout 30m -run 'TestScreenshotsOfEveryScreen' ./e2e/
	@echo "screenshots in $(SHOTS)"

test-desktop:
	mkdir -p $(ARTIFACTS)
	$(XVFB_RUN) $(GO) test $(DISPLAY_PKGS)
	$(GO) test -count=1 -v -run 'TestDesktop' ./e2e/
