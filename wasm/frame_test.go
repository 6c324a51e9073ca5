//go:build js && wasm

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A closing tab's save must not be lost when the page's event finds a
// frame in progress: it runs as that frame leaves, once.
func TestASaveThatFindsAFrameInProgressRunsAsTheFrameLeaves(t *testing.T) {
	var g frameGate
	saves := 0
	save := func() { saves++ }

	g.enter()
	require.False(t, g.between(save), "work between frames must wait while a frame is in progress")
	g.atLeave(save)
	assert.Equal(t, 0, saves, "the save must not run in the middle of the frame")
	g.leave()
	assert.Equal(t, 1, saves, "the save runs as the frame leaves")

	g.enter()
	g.leave()
	assert.Equal(t, 1, saves, "the save runs once, not again at the next frame")
}

func TestASaveBetweenFramesRunsAtOnce(t *testing.T) {
	var g frameGate
	saves := 0
	g.atLeave(func() { saves++ })
	assert.Equal(t, 1, saves, "no frame is in progress: nothing to wait for")
	assert.True(t, g.between(func() { saves++ }))
	assert.Equal(t, 2, saves)
	g.enter()
	g.leave()
	assert.Equal(t, 2, saves, "nothing was left to the frame")
}
