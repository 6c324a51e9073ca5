// Command wasmsize says where the bytes of a Go .wasm go: the code of each
// package (function bodies, attributed by the function names in the module's
// "name" section) and the size of every other section.
//
//	go run ./internal/tools/wasmsize -depth 3 ./wasm
//	go run ./internal/tools/wasmsize -modfile .build/leaselab.mod ./wasm   # as make wasm builds it
//
// It builds the package for js/wasm the way the Makefile does but without
// -ldflags=-s (which drops the names), and asks go list for the package
// paths, because the linker writes "leaselab/game.(*Player).Draw" as
// "leaselab_game.__Player_.Draw" and the mangled form alone is ambiguous.
//
// -depth cuts package paths to that many elements, so a module's packages can
// be seen as one line (github.com/go-text/typesetting) or one by one. Code is
// most of a Go .wasm; the data section (type descriptors, pclntab, string
// constants) cannot be attributed this way and is reported as one line.
// make size runs it on the browser build.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	depth := flag.Int("depth", 0, "cut package paths to this many elements (0: whole path)")
	top := flag.Int("top", 40, "print this many packages (0: all)")
	funcs := flag.String("funcs", "", "list the largest functions of the packages whose path starts with this, instead of packages")
	modfile := flag.String("modfile", "", "build with this go.mod instead (go build -modfile), as make wasm does")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-depth N] [-top N] [-funcs PATH-PREFIX] PACKAGE")
		os.Exit(2)
	}
	if err := run(os.Stdout, flag.Arg(0), *modfile, *depth, *top, *funcs); err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, pkg, modfile string, depth, top int, funcs string) error {
	dir, err := os.MkdirTemp("", "wasmsize")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "main.wasm")
	var mod []string
	if modfile != "" {
		mod = []string{"-modfile=" + modfile}
	}
	build := exec.Command("go", append(append([]string{"build", "-trimpath"}, mod...), "-o", out, pkg)...)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	list := exec.Command("go", append(append([]string{"list"}, mod...), "-deps", "-f", "{{.ImportPath}}", pkg)...)
	list.Env = build.Env
	list.Stderr = os.Stderr
	paths, err := list.Output()
	if err != nil {
		return fmt.Errorf("go list: %w", err)
	}
	bin, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	m, err := parseModule(bin)
	if err != nil {
		return err
	}
	pkgs := newPackages(strings.Fields(string(paths)))
	if funcs != "" {
		reportFuncs(w, m, pkgs, funcs, top)
		return nil
	}
	report(w, m, pkgs, depth, top)
	return nil
}

// module is what wasmsize reads from a .wasm: section sizes, the size of
// each function body by function index, and the function names.
type module struct {
	sections []section
	imports  int            // imported functions come first in the index space
	bodies   []int          // body sizes of the defined functions
	names    map[int]string // function index -> name
}

type section struct {
	name string
	size int
}

var sectionNames = map[byte]string{
	1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
	7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount",
}

func parseModule(b []byte) (*module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, fmt.Errorf("not a wasm module")
	}
	m := &module{names: map[int]string{}}
	r := reader{b: b, off: 8}
	for r.off < len(b) {
		id := r.byte()
		n := r.uleb()
		body := reader{b: r.bytes(n)}
		if r.err != nil {
			return nil, r.err
		}
		name := sectionNames[id]
		switch id {
		case 0:
			name = "custom " + body.name()
			if name == "custom name" {
				readNames(&body, m.names)
			}
		case 2:
			m.imports = countFuncImports(&body)
		case 10:
			for i, c := 0, body.uleb(); i < c && body.err == nil; i++ {
				sz := body.uleb()
				body.bytes(sz)
				m.bodies = append(m.bodies, sz)
			}
		}
		if body.err != nil {
			return nil, fmt.Errorf("section %s: %w", name, body.err)
		}
		m.sections = append(m.sections, section{name, n})
	}
	return m, nil
}

func countFuncImports(r *reader) int {
	funcs := 0
	for i, c := 0, r.uleb(); i < c && r.err == nil; i++ {
		r.name() // module
		r.name() // field
		switch kind := r.byte(); kind {
		case 0: // function: type index
			r.uleb()
			funcs++
		case 1: // table: element type, limits
			r.byte()
			r.limits()
		case 2: // memory: limits
			r.limits()
		case 3: // global: value type, mutability
			r.byte()
			r.byte()
		}
	}
	return funcs
}

func readNames(r *reader, names map[int]string) {
	for r.off < len(r.b) && r.err == nil {
		id := r.byte()
		sub := reader{b: r.bytes(r.uleb())}
		if id != 1 { // function names
			continue
		}
		for i, c := 0, sub.uleb(); i < c && sub.err == nil; i++ {
			idx := sub.uleb()
			names[idx] = sub.name()
		}
	}
}

// packages maps the mangled form of each package path in the build
// ("github.com_go_text_typesetting_font") back to the path.
type packages map[string]string

func newPackages(paths []string) packages {
	p := packages{}
	for _, path := range paths {
		p[mangle(path)] = path
	}
	return p
}

// mangle is what the wasm linker does to a name: every byte but a letter,
// a digit, '_' and '.' becomes '_'.
func mangle(path string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '_' || r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, path)
}

// pkgOf returns the package path of a function's mangled link name: the
// longest known package that is the name's prefix up to a dot. Names the
// linker makes up (type:.eq.*, go:buildid) are grouped by their first word.
func (p packages) pkgOf(fn string, depth int) string {
	pkg := ""
	for i := len(fn) - 1; i > 0; i-- {
		if fn[i] == '.' {
			if path, ok := p[fn[:i]]; ok {
				pkg = path
				break
			}
		}
	}
	if pkg == "" {
		cut := strings.IndexAny(fn, ".:")
		if cut < 0 {
			cut = len(fn)
		}
		return "(" + fn[:cut] + ")"
	}
	if depth > 0 {
		if parts := strings.Split(pkg, "/"); len(parts) > depth {
			pkg = strings.Join(parts[:depth], "/")
		}
	}
	return pkg
}

func report(w io.Writer, m *module, pkgs packages, depth, top int) {
	total := 8
	for _, s := range m.sections {
		total += s.size
	}
	code := map[string]int{}
	for i, sz := range m.bodies {
		name, ok := m.names[m.imports+i]
		if !ok {
			name = "(unnamed)"
		}
		code[pkgs.pkgOf(name, depth)] += sz
	}
	type row struct {
		name string
		size int
	}
	var rows []row
	for p, sz := range code {
		rows = append(rows, row{p, sz})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].size != rows[j].size {
			return rows[i].size > rows[j].size
		}
		return rows[i].name < rows[j].name
	})
	fmt.Fprintf(w, "%10s %6s  %s\n", "bytes", "share", "code by package")
	rest := 0
	for i, r := range rows {
		if top > 0 && i >= top {
			rest += r.size
			continue
		}
		fmt.Fprintf(w, "%10d %5.1f%%  %s\n", r.size, 100*float64(r.size)/float64(total), r.name)
	}
	if rest > 0 {
		fmt.Fprintf(w, "%10d %5.1f%%  (%d more packages)\n", rest, 100*float64(rest)/float64(total), len(rows)-top)
	}
	fmt.Fprintf(w, "\n%10s %6s  %s\n", "bytes", "share", "section")
	for _, s := range m.sections {
		fmt.Fprintf(w, "%10d %5.1f%%  %s\n", s.size, 100*float64(s.size)/float64(total), s.name)
	}
	fmt.Fprintf(w, "%10d 100.0%%  total\n", total)
}

// reportFuncs lists the largest function bodies of the packages whose path
// starts with prefix: where to look first when a package's line grows.
func reportFuncs(w io.Writer, m *module, pkgs packages, prefix string, top int) {
	type fn struct {
		name string
		size int
	}
	var fns []fn
	sum := 0
	for i, sz := range m.bodies {
		name := m.names[m.imports+i]
		if strings.HasPrefix(pkgs.pkgOf(name, 0), prefix) {
			fns = append(fns, fn{name, sz})
			sum += sz
		}
	}
	sort.Slice(fns, func(i, j int) bool {
		if fns[i].size != fns[j].size {
			return fns[i].size > fns[j].size
		}
		return fns[i].name < fns[j].name
	})
	fmt.Fprintf(w, "%10s  functions of %s* (%d, %d bytes)\n", "bytes", prefix, len(fns), sum)
	for i, f := range fns {
		if top > 0 && i >= top {
			break
		}
		fmt.Fprintf(w, "%10d  %s\n", f.size, f.name)
	}
}

// reader decodes the LEB128 integers and length-prefixed names of the wasm
// binary format; the first error sticks and later reads return zero.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.fail()
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

func (r *reader) uleb() int {
	var v, shift uint
	for {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= uint(c&0x7f) << shift
		if c&0x80 == 0 {
			return int(v)
		}
		shift += 7
	}
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || r.off+n > len(r.b) {
		r.fail()
		return nil
	}
	r.off += n
	return r.b[r.off-n : r.off]
}

func (r *reader) name() string { return string(r.bytes(r.uleb())) }

func (r *reader) limits() {
	if flags := r.byte(); flags&1 != 0 {
		r.uleb()
		r.uleb()
	} else {
		r.uleb()
	}
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = io.ErrUnexpectedEOF
	}
}
