package core

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A typed verb changes no byte of a saved log: the JSON name is the
// verb's plain name, both ways.
func TestVerbsReadAndWriteTheirPlainNames(t *testing.T) {
	b, err := json.Marshal(Pause("A", 20*time.Second))
	require.NoError(t, err)
	assert.JSONEq(t, `{"do":"pause","proc":"A","for":"20s"}`, string(b))

	var a Action
	require.NoError(t, json.Unmarshal([]byte(`{"do":"set-ttl","proc":"B","ttl":"16s"}`), &a))
	assert.Equal(t, SetTTL("B", 16*time.Second), a)
}

func TestConstructorsBuildTheActionTheyName(t *testing.T) {
	assert.Equal(t, Action{Do: "pause", Proc: "A", For: Duration(time.Second)}, Pause("A", time.Second))
	assert.Equal(t, Action{Do: "partition", Proc: "A", Peer: CoordinatorName}, Partition("A", CoordinatorName))
	assert.Equal(t, Action{Do: "fencing", On: true}, Fencing(true))
	assert.Equal(t, Action{Do: "delay", Proc: "B", For: Duration(2 * time.Second)}, Delay("B", 2*time.Second))
	assert.Equal(t, Action{Do: "release", Proc: "A"}, Release("A"))
	for _, a := range []Action{Pause("A", time.Second), Resume("A"), Crash("A"), Restart("A"), Partition("A", "B"),
		Heal("A", "B"), Write("A", "x"), Release("A"), Expire("A"), SetTTL("A", 16*time.Second), Fencing(false), Idempotency(true), Delay("A", time.Second)} {
		assert.NoError(t, a.Validate(), "%s", a)
	}
}

func TestAnUnknownVerbIsRefusedByName(t *testing.T) {
	assert.False(t, Verb("jump").Known())
	err := Action{Do: "jump", Proc: "A"}.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown action "jump" (want one of pause, resume, crash,`)
	assert.Error(t, Pause("A", 0).Validate(), "a pause needs a length")
}
