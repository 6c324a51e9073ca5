package webserve

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// site makes a web directory:
//
//	index.html, style.css, boot.js, leaselab.wasm (+ .br and .gz), only.js (+ .gz),
//	sub/index.html, empty/, .git/config, and a symlink out of the root.
func site(t *testing.T) (dir, outside string) {
	t.Helper()
	base := t.TempDir()
	dir = filepath.Join(base, "web")
	outside = filepath.Join(base, "secret.txt")
	files := map[string]string{
		"index.html":       "<!doctype html><title>LeaseLab</title>",
		"style.css":        "body{}",
		"boot.js":          "'use strict';",
		"leaselab.wasm":    "\x00asm raw",
		"leaselab.wasm.br": "brotli bytes",
		"only.js":          "plain",
		"sub/index.html":   "sub page",
		".git/config":      "[core]",
		"data.bin":         "\x01\x02",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"leaselab.wasm.gz", "only.js.gz"} {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write([]byte("gzipped " + name))
		zw.Close()
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("do not serve"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "escape.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	return dir, outside
}

func newTestHandler(t *testing.T) http.Handler {
	t.Helper()
	dir, _ := site(t)
	h, err := NewHandler(dir)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func get(h http.Handler, method, target, acceptEncoding string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "http://lab.test/", nil)
	// Set the decoded path directly so traversal attempts arrive as a
	// server would hand them over, unparsed and uncleaned.
	req.URL.Path = target
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestServesFilesWithTypesAndEncodings(t *testing.T) {
	h := newTestHandler(t)
	tests := []struct {
		name, path, accept string
		status             int
		ctype, encoding    string
		bodyPrefix         string
	}{
		{"index at root", "/", "", 200, "text/html; charset=utf-8", "", "<!doctype html>"},
		{"index by name", "/index.html", "", 200, "text/html; charset=utf-8", "", "<!doctype html>"},
		{"css", "/style.css", "", 200, "text/css; charset=utf-8", "", "body{}"},
		{"js", "/boot.js", "gzip", 200, "text/javascript; charset=utf-8", "", "'use strict';"},
		{"wasm raw", "/leaselab.wasm", "", 200, "application/wasm", "", "\x00asm raw"},
		{"wasm prefers brotli", "/leaselab.wasm", "gzip, deflate, br, zstd", 200, "application/wasm", "br", "brotli bytes"},
		{"wasm gzip", "/leaselab.wasm", "gzip", 200, "application/wasm", "gzip", "\x1f\x8b"},
		{"brotli refused by q=0", "/leaselab.wasm", "br;q=0, gzip;q=0.5", 200, "application/wasm", "gzip", "\x1f\x8b"},
		{"star accepts brotli", "/leaselab.wasm", "*", 200, "application/wasm", "br", "brotli bytes"},
		{"identity only", "/leaselab.wasm", "identity", 200, "application/wasm", "", "\x00asm raw"},
		{"falls back to gzip sibling", "/only.js", "br, gzip", 200, "text/javascript; charset=utf-8", "gzip", "\x1f\x8b"},
		{"unknown type", "/data.bin", "", 200, "application/octet-stream", "", "\x01\x02"},
		{"sub index", "/sub/", "", 200, "text/html; charset=utf-8", "", "sub page"},
		{"HEAD", "/style.css", "", 200, "text/css; charset=utf-8", "", ""},
	}
	for _, tt := range tests {
		method := http.MethodGet
		if tt.name == "HEAD" {
			method = http.MethodHead
		}
		rec := get(h, method, tt.path, tt.accept)
		res := rec.Result()
		if res.StatusCode != tt.status {
			t.Errorf("%s: status %d, want %d", tt.name, res.StatusCode, tt.status)
			continue
		}
		if got := res.Header.Get("Content-Type"); got != tt.ctype {
			t.Errorf("%s: Content-Type %q, want %q", tt.name, got, tt.ctype)
		}
		if got := res.Header.Get("Content-Encoding"); got != tt.encoding {
			t.Errorf("%s: Content-Encoding %q, want %q", tt.name, got, tt.encoding)
		}
		if got := res.Header.Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%s: Vary %q", tt.name, got)
		}
		if body := rec.Body.String(); !strings.HasPrefix(body, tt.bodyPrefix) {
			t.Errorf("%s: body %q, want prefix %q", tt.name, body, tt.bodyPrefix)
		}
		checkSecurityHeaders(t, tt.name, res.Header)
	}
}

func checkSecurityHeaders(t *testing.T, name string, h http.Header) {
	t.Helper()
	if got := h.Get("Content-Security-Policy"); got != ContentSecurityPolicy {
		t.Errorf("%s: CSP %q", name, got)
	}
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("%s: X-Content-Type-Options %q", name, got)
	}
	// Issue 30, item 5: cross-origin isolated (e2e's TestBrowserFirstFrame
	// checks the page still starts under it).
	assert.Equal(t, "same-origin", h.Get("Cross-Origin-Opener-Policy"), name)
	assert.Equal(t, "require-corp", h.Get("Cross-Origin-Embedder-Policy"), name)
	assert.Equal(t, "same-origin", h.Get("Cross-Origin-Resource-Policy"), name)
}

func TestCSPIsStrict(t *testing.T) {
	for _, want := range []string{
		"default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self'",
		"img-src 'self' data:", "connect-src 'self'", "object-src 'none'", "base-uri 'none'",
		"frame-ancestors 'none'",
	} {
		if !strings.Contains(ContentSecurityPolicy, want) {
			t.Errorf("CSP lacks %q", want)
		}
	}
	for _, bad := range []string{"unsafe-inline", "'unsafe-eval'", "*", "http:", "https:"} {
		if strings.Contains(ContentSecurityPolicy, bad) {
			t.Errorf("CSP allows %q", bad)
		}
	}
}

func TestRefusesWhatItMustNotServe(t *testing.T) {
	h := newTestHandler(t)
	tests := []struct {
		name, path string
		status     int
	}{
		{"missing", "/nope.js", 404},
		{"directory without index: no listing", "/empty/", 404},
		{"dot directory", "/.git/config", 404},
		{"dot file at root", "/.git", 404},
		{"dot-dot traversal", "/../secret.txt", 404},
		{"deep traversal", "/sub/../../secret.txt", 404},
		{"backslash traversal", "/..\\secret.txt", 404},
		{"symlink out of the root", "/escape.txt", 404},
		{"symlinked directory out of the root", "/up/secret.txt", 404},
		{"NUL byte", "/index.html\x00.png", 404},
	}
	for _, tt := range tests {
		rec := get(h, http.MethodGet, tt.path, "")
		if rec.Code != tt.status {
			t.Errorf("%s: %s -> %d, want %d", tt.name, tt.path, rec.Code, tt.status)
		}
		if strings.Contains(rec.Body.String(), "do not serve") || strings.Contains(rec.Body.String(), "[core]") {
			t.Errorf("%s: leaked a file: %q", tt.name, rec.Body.String())
		}
		checkSecurityHeaders(t, tt.name, rec.Result().Header)
	}
}

func TestMethodsAndRedirects(t *testing.T) {
	h := newTestHandler(t)
	rec := get(h, http.MethodPost, "/index.html", "")
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d Allow=%q", rec.Code, rec.Header().Get("Allow"))
	}
	rec = get(h, http.MethodGet, "/sub", "")
	if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/sub/" {
		t.Errorf("/sub: %d Location=%q", rec.Code, rec.Header().Get("Location"))
	}
}

// Issue 30, item 5: "/index.html/" served the page, whose relative links
// then pointed under it ("/index.html/boot.js") and failed. A file named
// with a trailing slash is sent to its own name, an index to its directory.
func TestAFileNamedAsADirectoryRedirectsToItsName(t *testing.T) {
	h := newTestHandler(t)
	for target, want := range map[string]string{
		"/index.html/":      "/",
		"/index.html//":     "/",
		"/sub/index.html/":  "/sub/",
		"/style.css/":       "/style.css",
		"/sub//index.html/": "/sub/",
	} {
		rec := get(h, http.MethodGet, target, "")
		assert.Equal(t, http.StatusMovedPermanently, rec.Code, target)
		assert.Equal(t, want, rec.Header().Get("Location"), target)
		assert.NotContains(t, rec.Body.String(), "<title>LeaseLab</title>", target)
		checkSecurityHeaders(t, target, rec.Result().Header)
	}
	assert.Equal(t, http.StatusNotFound, get(h, http.MethodGet, "/index.html/boot.js", "").Code)

	srv := httptest.NewServer(h)
	defer srv.Close()
	res, err := srv.Client().Get(srv.URL + "/index.html/")
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "/", res.Request.URL.Path, "the page ends up at its directory, where its relative links work")
	assert.Contains(t, string(body), "<title>LeaseLab</title>")
}

func TestThroughARealServer(t *testing.T) {
	srv := httptest.NewServer(newTestHandler(t))
	defer srv.Close()
	// The client adds Accept-Encoding: gzip and decodes transparently.
	res, err := srv.Client().Get(srv.URL + "/only.js")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "gzipped only.js.gz" || !res.Uncompressed {
		t.Errorf("body %q uncompressed=%v", body, res.Uncompressed)
	}
	// A conditional request gets 304.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/style.css", nil)
	req.Header.Set("If-Modified-Since", res.Header.Get("Last-Modified"))
	res, err = srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotModified {
		t.Errorf("conditional GET: %d", res.StatusCode)
	}
}

func TestRawTraversalOverTheWire(t *testing.T) {
	srv := httptest.NewServer(newTestHandler(t))
	defer srv.Close()
	for _, target := range []string{"/%2e%2e/secret.txt", "/..%2fsecret.txt", "/../secret.txt", "/sub/%2e%2e/%2e%2e/secret.txt"} {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: lab.test\r\nConnection: close\r\n\r\n", target)
		raw, _ := io.ReadAll(conn)
		conn.Close()
		if strings.Contains(string(raw), "do not serve") {
			t.Errorf("%s leaked the file outside the root", target)
		}
		if !strings.HasPrefix(string(raw), "HTTP/1.1 404") && !strings.HasPrefix(string(raw), "HTTP/1.1 400") {
			t.Errorf("%s: %q", target, strings.SplitN(string(raw), "\r\n", 2)[0])
		}
	}
}

func TestAccepts(t *testing.T) {
	tests := []struct {
		header, token string
		want          bool
	}{
		{"", "br", false},
		{"br", "br", true},
		{"BR", "br", true},
		{"gzip, br", "br", true},
		{"gzip;q=1.0, br; q=0", "br", false},
		{"br;q=0.001", "br", true},
		{"*", "gzip", true},
		{"*;q=0", "gzip", false},
		{"*, gzip;q=0", "gzip", false},
		{"deflate", "gzip", false},
		{"gzip;q=bogus", "gzip", true},
	}
	for _, tt := range tests {
		if got := accepts(tt.header, tt.token); got != tt.want {
			t.Errorf("accepts(%q, %q) = %v", tt.header, tt.token, got)
		}
	}
}

func TestContentTypeAndCheckDir(t *testing.T) {
	for name, want := range map[string]string{
		"a.wasm": "application/wasm", "A.JS": "text/javascript; charset=utf-8", "x": "application/octet-stream",
	} {
		if got := ContentType(name); got != want {
			t.Errorf("ContentType(%q) = %q", name, got)
		}
	}
	dir, outside := site(t)
	if err := CheckDir(dir); err != nil {
		t.Errorf("CheckDir(site) = %v", err)
	}
	if err := CheckDir(filepath.Join(dir, "empty")); err != ErrNoIndex {
		t.Errorf("CheckDir(empty) = %v", err)
	}
	if err := CheckDir(outside); err == nil {
		t.Error("CheckDir(file) = nil")
	}
	if err := CheckDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("CheckDir(missing) = nil")
	}
	if _, err := NewHandler(filepath.Join(dir, "missing")); err == nil {
		t.Error("NewHandler(missing) = nil error")
	}
}

// A second visit revalidates by ETag and downloads nothing; each encoding of
// a file has its own ETag, and a rebuilt file a new one.
func TestETagMakesASecondVisitFree(t *testing.T) {
	dir, _ := site(t)
	h, err := NewHandler(dir)
	require.NoError(t, err)
	first := get(h, http.MethodGet, "/leaselab.wasm", "br")
	tag := first.Header().Get("ETag")
	require.NotEmpty(t, tag)
	assert.Equal(t, "no-cache", first.Header().Get("Cache-Control"))

	req := httptest.NewRequest(http.MethodGet, "/leaselab.wasm", nil)
	req.Header.Set("Accept-Encoding", "br")
	req.Header.Set("If-None-Match", tag)
	again := httptest.NewRecorder()
	h.ServeHTTP(again, req)
	assert.Equal(t, http.StatusNotModified, again.Code)
	assert.Empty(t, again.Body.Bytes())

	raw := get(h, http.MethodGet, "/leaselab.wasm", "")
	assert.NotEqual(t, tag, raw.Header().Get("ETag"), "the raw and the brotli body share an ETag")

	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "leaselab.wasm.br"), later, later))
	rebuilt := get(h, http.MethodGet, "/leaselab.wasm", "br")
	assert.NotEqual(t, tag, rebuilt.Header().Get("ETag"), "a rebuilt file keeps its ETag")
}
