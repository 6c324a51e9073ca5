package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCleanJSONDropsAByteOrderMark(t *testing.T) {
	b, err := CleanJSON([]byte("\xEF\xBB\xBF[1]"))
	require.NoError(t, err)
	assert.Equal(t, "[1]", string(b))
}

func TestCleanJSONRefusesAKeyGivenTwiceAndSaysWhere(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1,"a":2}`: `the key "a" is given twice in the top-level object; keep one`,
		`[{"at":"5s","do":"pause","proc":"A","for":"20s","for":"1s"}]`: `"for" is given twice in [0]`,
		`[{"at":"1s"},{"x":{"y":[1,{"z":1,"z":2}]}}]`:                  `"z" is given twice in [1].x.y[1]`,
		`{"choices":{"cause":["a"]},"numbers":{"n":1,"n":2}}`:          `"n" is given twice in numbers`,
	} {
		_, err := CleanJSON([]byte(in))
		require.ErrorIs(t, err, ErrDuplicateKey, in)
		assert.ErrorContains(t, err, want, in)
	}
}

func TestCleanJSONLeavesOtherInputToTheDecoder(t *testing.T) {
	for _, in := range []string{`{"a":1,"b":{"a":2}}`, `[{"a":1},{"a":1}]`, `{"a":`, `]`, ``, `"a"`, strings.Repeat("[", 10000)} {
		b, err := CleanJSON([]byte(in))
		require.NoError(t, err, in)
		assert.Equal(t, in, string(b))
	}
}
