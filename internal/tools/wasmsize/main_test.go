package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wasmOf builds a wasm binary from sections given as (id, payload).
func wasmOf(sections ...[]byte) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		b = append(b, s[0], byte(len(s)-1))
		b = append(b, s[1:]...)
	}
	return b
}

func str(s string) []byte { return append([]byte{byte(len(s))}, s...) }

func TestParseModuleAttributesBodiesToNamesAfterImportedFunctions(t *testing.T) {
	imports := append([]byte{2, 1}, append(append(str("go"), str("debug")...), 0, 0)...)
	code := []byte{10, 2, 3, 0, 0, 0x0b, 1, 0x0b} // two bodies: 3 and 1 bytes
	names := append([]byte{0}, str("name")...)
	fnames := []byte{2}
	fnames = append(fnames, append([]byte{1}, str("leaselab_game.__Player_.Draw")...)...)
	fnames = append(fnames, append([]byte{2}, str("runtime.mallocgc")...)...)
	names = append(names, append([]byte{1, byte(len(fnames))}, fnames...)...)

	m, err := parseModule(wasmOf(imports, code, names))
	require.NoError(t, err)
	assert.Equal(t, 1, m.imports)
	assert.Equal(t, []int{3, 1}, m.bodies)
	assert.Equal(t, "leaselab_game.__Player_.Draw", m.names[1])

	var out bytes.Buffer
	report(&out, m, newPackages([]string{"leaselab/game", "runtime"}), 0, 0)
	assert.Regexp(t, `(?m)^\s+3 .*leaselab/game$`, out.String())
	assert.Regexp(t, `(?m)^\s+1 .*runtime$`, out.String())
}

func TestParseModuleRejectsTruncatedInput(t *testing.T) {
	_, err := parseModule([]byte("\x00asm\x01\x00\x00\x00\x0a\x05\x01"))
	assert.Error(t, err)
	_, err = parseModule([]byte("ELF"))
	assert.Error(t, err)
}

func TestPkgOfUndoesTheLinkersMangling(t *testing.T) {
	p := newPackages([]string{"github.com/go-text/typesetting/font", "github.com/go-text/typesetting", "leaselab/game/ui"})
	assert.Equal(t, "github.com/go-text/typesetting/font", p.pkgOf("github.com_go_text_typesetting_font.__Face_.Glyph", 0))
	assert.Equal(t, "github.com/go-text/typesetting", p.pkgOf("github.com_go_text_typesetting_font.Load", 3))
	assert.Equal(t, "leaselab/game/ui", p.pkgOf("leaselab_game_ui.Wrap.func1", 0))
	assert.Equal(t, "(type)", p.pkgOf("type:.eq.leaselab_core.Event", 0))
}
