package draw

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every string literal in the code that builds what the lab shows (core's
// narration and errors, the lessons and exercises, the front end's labels),
// once Drawable has spelled out what the fonts lack, has a glyph for each of
// its characters in each embedded font. The fonts are subsets
// (internal/tools/fontsubset); this is what keeps them wide enough.
func TestEveryStringTheLabShowsHasGlyphsInEveryFont(t *testing.T) {
	fonts, err := NewFonts()
	require.NoError(t, err)
	lits := stringLiterals(t, "../../core", "../../lessons", "../../game")
	require.Greater(t, len(lits), 1000, "the scan found too few strings to mean anything")
	for kind := range fontKinds {
		face := fonts.Face(kind, 14)
		missing := map[rune]string{}
		for _, lit := range lits {
			for _, r := range Drawable(lit.s) {
				if r >= ' ' && !face.Has(r) && missing[r] == "" {
					missing[r] = lit.at
				}
			}
		}
		for r, at := range missing {
			assert.Failf(t, "no glyph", "font %d has no glyph for %q (U+%04X), used at %s: add it to fontsubset's unicodes or to Drawable", kind, r, r, at)
		}
	}
}

func TestDrawableSpellsOutWhatTheFontsLack(t *testing.T) {
	assert.Equal(t, "ceil(n/2) > ok x", Drawable("⌈n/2⌉ ▶ ✓ ✗"))
	assert.Equal(t, "2 × 10 + 12 ≤ 30 — ok", Drawable("2 × 10 + 12 ≤ 30 — ok"))
}

type literal struct{ s, at string }

// stringLiterals returns the string literals of the non-test Go files below
// dirs.
func stringLiterals(t *testing.T, dirs ...string) []literal {
	t.Helper()
	var out []literal
	fset := token.NewFileSet()
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						out = append(out, literal{s, fset.Position(lit.Pos()).String()})
					}
				}
				return true
			})
			return nil
		})
		require.NoError(t, err)
	}
	return out
}
