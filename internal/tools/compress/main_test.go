package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

func TestCompressFileRoundTrips(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "leaselab.wasm")
	want := bytes.Repeat([]byte("lease renewed; fencing token 42 accepted. "), 5000)
	if err := os.WriteFile(name, want, 0o644); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(name, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	s, err := compressFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if s.raw != int64(len(want)) || s.gzip <= 0 || s.gzip >= s.raw || s.brot <= 0 || s.brot >= s.raw {
		t.Fatalf("sizes %+v", s)
	}
	if !strings.Contains(s.String(), "brotli") {
		t.Errorf("String() = %q", s)
	}
	decoders := map[string]func(io.Reader) (io.Reader, error){
		".gz": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		".br": func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	}
	for suffix, dec := range decoders {
		f, err := os.Open(name + suffix)
		if err != nil {
			t.Fatal(err)
		}
		r, err := dec(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		f.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s does not decode to the original (err %v)", suffix, err)
		}
		info, _ := os.Stat(name + suffix)
		if !info.ModTime().Equal(mtime) {
			t.Errorf("%s mtime %v, want %v", suffix, info.ModTime(), mtime)
		}
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("directory holds %d files, want 3", len(entries))
	}
}

func TestCompressFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := compressFile(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file: no error")
	}
	if _, err := compressFile(dir); err == nil {
		t.Error("directory: no error")
	}
}
