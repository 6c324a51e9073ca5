package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSystemNamesRoundTrip(t *testing.T) {
	for _, name := range SystemNames() {
		s, err := ParseSystem(name)
		require.NoError(t, err, name)
		assert.Equal(t, name, s.String())
	}
	assert.Equal(t, SystemEtcd, System(0), "the zero value keeps every existing world on etcd")
}

func TestParseSystemRejectsUnknownNames(t *testing.T) {
	_, err := ParseSystem("chubby")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "zookeeper", "the message lists the known systems")
}
