package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// projectRoot is the lab's module directory, where go.mod is.
func projectRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	require.NoError(t, err)
	return filepath.Dir(strings.TrimSpace(string(out)))
}

var (
	patchOnce  sync.Once
	patchMod   string
	patchDir   string
	patchError error
)

// patched makes the copy and the go.mod once for the tests that build with
// them, in a directory of its own (it is 9 MB; TestMain removes it).
func patched(t *testing.T) (modfile, dir string) {
	t.Helper()
	root := projectRoot(t)
	patchOnce.Do(func() {
		patchDir, patchError = os.MkdirTemp("", "shaderpatch-test-")
		if patchError == nil {
			patchMod, patchError = Write(root, patchDir)
		}
	})
	require.NoError(t, patchError)
	return patchMod, patchDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if patchDir != "" {
		os.RemoveAll(patchDir)
	}
	os.Exit(code)
}

func upstreamFile(t *testing.T) string {
	t.Helper()
	dir, _, err := moduleDir(projectRoot(t))
	require.NoError(t, err)
	return filepath.Join(dir, filepath.FromSlash(File))
}

// The point of the patch: with it, nothing in the browser build reaches
// text/template; without it, Ebitengine brings it in.
func TestBrowserBuildLinksTextTemplateOnlyWithoutThePatch(t *testing.T) {
	modfile, _ := patched(t)
	deps := func(args ...string) []string {
		cmd := exec.Command("go", append(append([]string{"list"}, args...), "-deps", "./wasm")...)
		cmd.Dir = projectRoot(t)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		require.NoError(t, err, "go list %v", args)
		return strings.Fields(string(out))
	}
	assert.Contains(t, deps(), "text/template", "the unpatched build is what the patch is for")
	with := deps("-modfile=" + modfile)
	assert.NotContains(t, with, "text/template")
	assert.Contains(t, with, "github.com/hajimehoshi/ebiten/v2/internal/builtinshader")
}

// The patched ShaderSource gives, for each of the twelve shaders, exactly
// the bytes upstream's template renders. The check runs inside the patched
// package (go test on the copy), rendering the template it reads from the
// untouched file in the module cache with the package's own types, as
// upstream's ShaderSource does.
func TestPatchedShadersAreTheTemplatesOutput(t *testing.T) {
	modfile, dir := patched(t)
	pkgDir := filepath.Join(dir, "ebiten", "internal", "builtinshader")
	require.NoError(t, os.WriteFile(filepath.Join(pkgDir, "leaselab_equal_test.go"), []byte(equalTest), 0o644))
	t.Cleanup(func() { os.Remove(filepath.Join(pkgDir, "leaselab_equal_test.go")) })

	cmd := exec.Command("go", "test", "-count=1", "-v", "-modfile="+modfile, Module+"/internal/builtinshader")
	cmd.Dir = projectRoot(t)
	cmd.Env = append(os.Environ(), "LEASELAB_UPSTREAM_SHADER="+upstreamFile(t))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "--- PASS: TestLeaseLabPatchIsTheTemplate")
	assert.Contains(t, string(out), "12 shaders equal")
}

// equalTest is put into the patched copy of the package. It uses only the
// standard library: the package's module does not require testify.
const equalTest = `package builtinshader

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"testing"
	"text/template"
)

func TestLeaseLabPatchIsTheTemplate(t *testing.T) {
	path := os.Getenv("LEASELAB_UPSTREAM_SHADER")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Parse" && len(call.Args) == 1 {
			if lit, ok := call.Args[0].(*ast.BasicLit); ok {
				text, _ = strconv.Unquote(lit.Value)
			}
		}
		return true
	})
	if text == "" {
		t.Fatalf("no template in %s", path)
	}
	tmpl := template.Must(template.New("tmpl").Parse(text))
	n := 0
	for filter := Filter(0); filter < FilterCount; filter++ {
		for address := Address(0); address < AddressCount; address++ {
			for _, colorM := range []bool{false, true} {
				var want bytes.Buffer
				err := tmpl.Execute(&want, struct {
					Filter, FilterNearest, FilterLinear                     Filter
					Address, AddressUnsafe, AddressClampToZero, AddressRepeat Address
					UseColorM                                               bool
				}{filter, FilterNearest, FilterLinear, address, AddressUnsafe, AddressClampToZero, AddressRepeat, colorM})
				if err != nil {
					t.Fatal(err)
				}
				got := ShaderSource(filter, address, colorM)
				if !bytes.Equal(got, want.Bytes()) {
					t.Errorf("ShaderSource(%d, %d, %v) differs from the template's:\n%s\nwant:\n%s", filter, address, colorM, got, want.Bytes())
				}
				if again := ShaderSource(filter, address, colorM); &again[0] != &got[0] {
					t.Errorf("ShaderSource(%d, %d, %v) is not cached", filter, address, colorM)
				}
				n++
			}
		}
	}
	if got := len(AppendShaderSources(nil)); got != n+2 {
		t.Errorf("AppendShaderSources gives %d sources, want %d", got, n+2)
	}
	t.Logf("%d shaders equal", n)
}
`

// A new Ebitengine whose shader.go is shaped differently stops the build
// with what was not found, rather than building something else.
func TestPatchRefusesAShaderFileOfAnotherShape(t *testing.T) {
	src, err := os.ReadFile(upstreamFile(t))
	require.NoError(t, err)
	_, err = Patch(src)
	require.NoError(t, err, "the file of the Ebitengine in go.mod is patched")

	for _, c := range []struct{ name, old, new, want string }{
		{"no template variable", "var tmpl = ", "var shaderTemplate = ", `no "var tmpl = template.Must(template.New(...).Parse(<string>))"`},
		{"ShaderSource renamed", "func ShaderSource(", "func Source(", "no func ShaderSource"},
		{"ShaderSource takes other arguments", "func ShaderSource(filter Filter, address Address, useColorM bool)", "func ShaderSource(filter Filter, address Address)", "ShaderSource takes (filter Filter, address Address), not"},
		{"another template field", "UseColorM          bool\n\t}{", "UseColorM          bool\n\t\tPremultiplied bool\n\t}{", "executes the template with fields [Filter FilterNearest FilterLinear Address AddressUnsafe AddressClampToZero AddressRepeat UseColorM Premultiplied]"},
		{"a constant gone", "\tFilterLinear\n)", ")", "FilterLinear"},
	} {
		t.Run(c.name, func(t *testing.T) {
			changed := strings.Replace(string(src), c.old, c.new, 1)
			require.NotEqual(t, string(src), changed, "the case changes the file")
			_, err := Patch([]byte(changed))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// The patched file imports neither text/template nor what only the
// template's execution used, and still declares what the rest of Ebitengine
// calls.
func TestPatchedFileKeepsThePackagesAPI(t *testing.T) {
	src, err := os.ReadFile(upstreamFile(t))
	require.NoError(t, err)
	out, err := Patch(src)
	require.NoError(t, err)
	s := string(out)
	for _, gone := range []string{`"text/template"`, `"bytes"`, `"fmt"`, "tmpl"} {
		assert.NotContains(t, s, gone)
	}
	for _, kept := range []string{"func ShaderSource(filter Filter, address Address, useColorM bool) []byte", "func AppendShaderSources(", "var ScreenShaderSource", "var ClearShaderSource", `"sync"`, "Copyright"} {
		assert.Contains(t, s, kept)
	}
}

// The go.mod written is the project's with one replace directive more, and
// a second Write with nothing changed rewrites nothing (make then sees no
// newer file and does not rebuild).
func TestWriteMakesTheGoModOnceAndKeepsIt(t *testing.T) {
	root := projectRoot(t)
	dir := t.TempDir()
	modfile, err := Write(root, dir)
	require.NoError(t, err)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	written, err := os.ReadFile(modfile)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(written), string(gomod)), "the project's go.mod, unchanged, first")
	assert.Contains(t, string(written), "replace "+Module+` => "`+filepath.Join(dir, "ebiten")+`"`)
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(dir, "leaselab.sum"))
	require.NoError(t, err)
	assert.Equal(t, gosum, sum)

	stat := func(p string) os.FileInfo {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		return fi
	}
	patchedFile := filepath.Join(dir, "ebiten", filepath.FromSlash(File))
	before := []os.FileInfo{stat(modfile), stat(patchedFile), stat(filepath.Join(dir, "ebiten", "go.mod"))}
	again, err := Write(root, dir)
	require.NoError(t, err)
	assert.Equal(t, modfile, again)
	for i, p := range []string{modfile, patchedFile, filepath.Join(dir, "ebiten", "go.mod")} {
		assert.Equal(t, before[i].ModTime(), stat(p).ModTime(), "%s is not rewritten", p)
	}
}
