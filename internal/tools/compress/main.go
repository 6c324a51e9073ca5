// Command compress writes precompressed siblings for web assets: for each
// file X it writes X.gz (gzip -9) and X.br (brotli at its best quality), which
// `labctl serve` sends to browsers that accept them.
//
//	go run ./internal/tools/compress web/leaselab.wasm web/wasm_exec.js
//
// Each output is written to a temporary file and renamed into place, and
// gets the source's modification time, so a half-written file is never served
// and caches see one Last-Modified for all three encodings.
package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: compress FILE...")
		os.Exit(2)
	}
	failed := false
	for _, name := range os.Args[1:] {
		s, err := compressFile(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "compress: %v\n", err)
			failed = true
			continue
		}
		fmt.Println(s)
	}
	if failed {
		os.Exit(1)
	}
}

// sizes are a file's size raw and in each encoding.
type sizes struct {
	name            string
	raw, gzip, brot int64
}

func (s sizes) String() string {
	mb := func(n int64) string {
		if n < 1e6 {
			return fmt.Sprintf("%.1f kB", float64(n)/1e3)
		}
		return fmt.Sprintf("%.2f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%s: %s raw, %s gzip, %s brotli", s.name, mb(s.raw), mb(s.gzip), mb(s.brot))
}

// compressFile writes name.gz and name.br.
func compressFile(name string) (sizes, error) {
	s := sizes{name: name}
	info, err := os.Stat(name)
	if err != nil {
		return s, err
	}
	if !info.Mode().IsRegular() {
		return s, fmt.Errorf("%s: not a regular file", name)
	}
	s.raw = info.Size()
	if s.gzip, err = writeEncoded(name, ".gz", info, func(w io.Writer) (io.WriteCloser, error) {
		return gzip.NewWriterLevel(w, gzip.BestCompression)
	}); err != nil {
		return s, err
	}
	if s.brot, err = writeEncoded(name, ".br", info, func(w io.Writer) (io.WriteCloser, error) {
		return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24}), nil
	}); err != nil {
		return s, err
	}
	return s, nil
}

// writeEncoded compresses name into name+suffix through the encoder that
// newEncoder wraps around the output, and returns the output's size.
func writeEncoded(name, suffix string, src os.FileInfo, newEncoder func(io.Writer) (io.WriteCloser, error)) (n int64, err error) {
	in, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+suffix+".tmp*")
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	enc, err := newEncoder(tmp)
	if err != nil {
		return 0, err
	}
	if _, err = io.Copy(enc, in); err != nil {
		return 0, fmt.Errorf("%s%s: %w", name, suffix, err)
	}
	if err = enc.Close(); err != nil {
		return 0, fmt.Errorf("%s%s: %w", name, suffix, err)
	}
	if err = tmp.Close(); err != nil {
		return 0, err
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return 0, err
	}
	if err = os.Chtimes(tmp.Name(), src.ModTime(), src.ModTime()); err != nil {
		return 0, err
	}
	out := name + suffix
	if err = os.Rename(tmp.Name(), out); err != nil {
		return 0, err
	}
	info, err := os.Stat(out)
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}
