package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The zookeeper preset runs on ZooKeeper itself: the frozen leader's
// client is Disconnected (SUSPENDED) when it wakes, and learns Expired
// (LOST) only from the server when it reconnects.
func TestRunPresetZooKeeperShowsSuspendedThenLost(t *testing.T) {
	out, errs, code := labctl(t, "", "run", "--preset", "zookeeper", "--duration", "2m")
	require.Equal(t, 0, code, errs)
	suspended := strings.Index(out, "A client.state state=disconnected curator=SUSPENDED")
	lost := strings.Index(out, "A client.state state=expired curator=LOST")
	require.Positive(t, suspended, "no SUSPENDED for A in:\n%.3000s", out)
	assert.Greater(t, lost, suspended, "LOST comes after SUSPENDED")
	assert.Contains(t, out, "holder changes: 2;")
	assert.Contains(t, out, "preset zookeeper: ZooKeeper")
}

// A session timeout outside 4-40 s is clamped, and labctl says so.
func TestRunPresetZooKeeperReportsTheClamp(t *testing.T) {
	out, errs, code := labctl(t, "", "run", "--preset", "zookeeper", "--ttl", "60s", "--format", "summary")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "note: ZooKeeper clamps a session timeout of 60 s to 40 s")
}

// The consul preset keeps its leader through the 20 s pause (the session
// lives 2 x 15 s), and refuses a TTL Consul refuses.
func TestRunPresetConsul(t *testing.T) {
	out, errs, code := labctl(t, "", "run", "--preset", "consul", "--format", "summary")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "holder changes: 1;")
	assert.Contains(t, out, `invariant "at most one believer per lock or shard": holds`)

	_, errs, code = labctl(t, "", "run", "--preset", "consul", "--ttl", "5s")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "ttl: a session TTL of 5 s is refused by Consul: it must be between 10 s and 24 h")
}

// --system runs a preset's world on another system; the summary says so.
func TestRunPresetOnAnotherSystem(t *testing.T) {
	out, errs, code := labctl(t, "", "run", "--preset", "fenced-register", "--system", "consul")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "system: Consul (the preset's world and actions, run on Consul)")
	assert.Contains(t, out, "lock-delay until 35.005s", "Consul's lock-delay holds B off")

	_, errs, code = labctl(t, "", "run", "--preset", "fenced-register", "--system", "chubby")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, `unknown system "chubby"`)
	_, errs, code = labctl(t, "", "run", "hands-on-lab", "--system", "zookeeper")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "--system applies to presets")
}
