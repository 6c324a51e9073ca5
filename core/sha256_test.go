package core

import (
	stdsha256 "crypto/sha256"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The trace hash's SHA-256 gives the standard library's digest for inputs of
// every length around the 64-byte block and its 56-byte padding boundary,
// written in one piece, in pieces, and as strings.
func TestSHA256MatchesTheStandardLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(rng.Uint32())
		}
		want := stdsha256.Sum256(msg)

		whole := newSHA256()
		whole.Write(msg)
		assert.Equal(t, want, whole.Sum(), "length %d in one write", n)

		pieces := newSHA256()
		for rest := msg; len(rest) > 0; {
			k := min(len(rest), 1+rng.IntN(70))
			if k%2 == 0 {
				pieces.Write(rest[:k])
			} else {
				pieces.WriteString(string(rest[:k]))
			}
			rest = rest[k:]
		}
		assert.Equal(t, want, pieces.Sum(), "length %d in pieces", n)
	}
	big := strings.Repeat("lease expired; token 8 > 7\n", 10000)
	h := newSHA256()
	h.WriteString(big)
	assert.Equal(t, stdsha256.Sum256([]byte(big)), h.Sum())
}
