package mermaid

import (
	"bytes"
	"leaselab/core/sandbox"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A fenced-register run draws its actors, the pause as a note and the
// register's refusal of the stale write as a crossed arrow, and every line
// is a Mermaid statement.
func TestWrite(t *testing.T) {
	p, err := sandbox.FindPreset("fenced-register")
	require.NoError(t, err)
	c := p.Config
	c.Duration = 40 * time.Second
	s, _, err := c.Run()
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, Write(&b, s.Trace, c.Duration))
	out := b.String()
	for _, want := range []string{
		"sequenceDiagram\n", "participant P0 as coordinator", "participant P1 as A",
		"Note over P1: t=2.100s paused for 30s",
		"Note over P0: t=", "B holds locks/leader, token 8",
		"P1->>P3: t=32.105s write token 7", "P3--xP1: t=32.105s rejected stale token",
	} {
		assert.Contains(t, out, want)
	}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		statement := strings.HasPrefix(line, "    participant ") || strings.HasPrefix(line, "    Note over ") ||
			strings.Contains(line, ">>") || strings.Contains(line, "--x")
		assert.True(t, statement, "line %d is not a Mermaid statement: %q", i+2, line)
	}
}

// A long run is cut with a note, not drawn in full.
func TestWriteCutsALongRun(t *testing.T) {
	k, err := sandbox.FindPreset("kubernetes")
	require.NoError(t, err)
	s, _, err := k.Config.Run()
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, Write(&b, s.Trace, k.Config.Duration))
	assert.LessOrEqual(t, strings.Count(b.String(), "\n"), MaxSteps+40)
	assert.Contains(t, b.String(), "more steps left out")
}
