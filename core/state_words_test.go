package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// What a learner reads of a process's state is words, never the trace's
// names ("stepping_down"); the trace keeps its names.
func TestStatesReadAsWords(t *testing.T) {
	assert.Equal(t, []string{"waiting", "in line", "leader", "stepping down"},
		[]string{Follower.Words(), Candidate.Words(), Leader.Words(), SteppingDown.Words()})
	assert.Equal(t, "stepping_down", SteppingDown.String(), "the trace's name is unchanged")
	assert.Equal(t, "stepping down", StateWords("stepping_down"))
	assert.Equal(t, "leader", StateWords("leader"))
	assert.Equal(t, "elsewhere", StateWords("elsewhere"), "a name it does not know is kept")
}
