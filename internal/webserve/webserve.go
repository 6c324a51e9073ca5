// Package webserve serves LeaseLab's web directory: the page, its script and
// style, and the WebAssembly build, precompressed where possible, under a
// strict Content-Security-Policy. `labctl serve` and the browser tests use it.
package webserve

import (
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// ContentSecurityPolicy allows the page to load only its own files. WebAssembly
// compilation needs 'wasm-unsafe-eval' (and nothing looser); images may be
// data: URLs for the favicon and screenshots.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; " +
	"base-uri 'none'; frame-ancestors 'none'"

// contentTypes fixes the types that matter instead of trusting the host's
// mime tables: a browser refuses to stream-compile .wasm served as anything
// but application/wasm.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
}

// ContentType returns the Content-Type for a file name.
func ContentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// encodings are the precompressed siblings the handler looks for, best first.
var encodings = []struct{ token, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

type handler struct {
	root *os.Root
}

// NewHandler serves the files under dir. It opens dir through an [os.Root],
// so no request can reach a file outside it, whatever its path or symlinks
// say; it never lists a directory (a directory with index.html serves that);
// it hides dot files; it redirects a file named with a trailing slash to
// its own name (an index.html to its directory); and it answers only GET
// and HEAD.
//
// For a request for X it serves X.br or X.gz instead when the client accepts
// that encoding and the sibling exists, with Content-Encoding set and the
// Content-Type of X. Every response carries the security headers.
func NewHandler(dir string) (http.Handler, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &handler{root: root}, nil
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Content-Security-Policy", ContentSecurityPolicy)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	// Cross-origin isolation: the page loads only its own files, so it
	// loses nothing by refusing anyone else's, and no other site may
	// embed or load these files.
	hdr.Set("Cross-Origin-Opener-Policy", "same-origin")
	hdr.Set("Cross-Origin-Embedder-Policy", "require-corp")
	hdr.Set("Cross-Origin-Resource-Policy", "same-origin")

	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := cleanName(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	info, err := h.root.Stat(name)
	if err == nil && info.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			// Relative links in index.html need the trailing slash.
			http.Redirect(w, r, path.Base(r.URL.Path)+"/", http.StatusMovedPermanently)
			return
		}
		name = path.Join(name, "index.html")
		info, err = h.root.Stat(name)
	} else if err == nil && info.Mode().IsRegular() && strings.HasSuffix(r.URL.Path, "/") {
		// A file named as a directory ("/index.html/"): its relative
		// links would resolve under it and fail. Send the browser to the
		// file's own name, or for an index to its directory.
		target := "../" + path.Base(name)
		if path.Base(name) == "index.html" {
			target = "../"
		}
		http.Redirect(w, r, target, http.StatusMovedPermanently)
		return
	}
	if err != nil || !info.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}

	hdr.Set("Content-Type", ContentType(name))
	// Revalidate every time (a rebuilt .wasm must not be stale), but by
	// ETag, so a second visit costs a 304 instead of the whole download.
	hdr.Set("Cache-Control", "no-cache")
	hdr.Add("Vary", "Accept-Encoding")
	serveName, encoding := name, "identity"
	for _, enc := range encodings {
		if !accepts(r.Header.Get("Accept-Encoding"), enc.token) {
			continue
		}
		if si, err := h.root.Stat(name + enc.suffix); err == nil && si.Mode().IsRegular() {
			serveName, encoding = name+enc.suffix, enc.token
			hdr.Set("Content-Encoding", enc.token)
			break
		}
	}
	f, err := h.root.Open(serveName)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.Error(w, "cannot read file", http.StatusInternalServerError)
		return
	}
	hdr.Set("ETag", etag(fi, encoding))
	http.ServeContent(w, r, name, fi.ModTime(), f)
}

// etag names one version of one encoding of a file: its modification time
// and size (the build writes a new file, and the compress tool gives X.gz
// and X.br the time of X) and the encoding, since each is its own body.
func etag(fi fs.FileInfo, encoding string) string {
	return `"` + strconv.FormatInt(fi.ModTime().UnixNano(), 36) + "-" + strconv.FormatInt(fi.Size(), 36) + "-" + encoding + `"`
}

// cleanName turns a URL path into a name inside the root: no leading slash,
// no "..", "." for the root itself. It refuses dot files (such as .git) and
// NUL bytes.
func cleanName(urlPath string) (string, bool) {
	if strings.ContainsRune(urlPath, 0) || strings.Contains(urlPath, "\\") {
		return "", false
	}
	p := path.Clean("/" + urlPath)
	name := strings.TrimPrefix(p, "/")
	if name == "" {
		return ".", true
	}
	for part := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(part, ".") {
			return "", false
		}
	}
	if !fs.ValidPath(name) {
		return "", false
	}
	return name, true
}

// accepts reports whether an Accept-Encoding header allows token: it names
// it (or "*") with a q-value above zero.
func accepts(header, token string) bool {
	star := false
	for item := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(item), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch coding {
		case token:
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}

// ErrNoIndex is returned by [CheckDir] for a directory without index.html.
var ErrNoIndex = errors.New("webserve: directory has no index.html")

// CheckDir reports whether dir looks like a web directory to serve.
func CheckDir(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return &fs.PathError{Op: "serve", Path: dir, Err: errors.New("not a directory")}
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		return ErrNoIndex
	}
	return nil
}
