package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Each system names its server, its write counter and its token in its
// own terms; Redlock has neither a shared counter nor a token.
func TestSystemWordsAreEachSystemsOwn(t *testing.T) {
	assert.Equal(t, SystemWords{"Coordinator", "revision", "token", "rev"}, SystemEtcd.Words(), "etcd keeps the words every lesson uses")
	assert.Equal(t, "czxid", SystemZooKeeper.Words().Created, "a ZooKeeper lock node's queue place is its czxid")
	assert.Equal(t, "czxid", SystemZooKeeper.Words().Token)
	assert.Equal(t, "LockIndex", SystemConsul.Words().Token)
	assert.Equal(t, "leaseTransitions", SystemKubernetes.Words().Token)
	red := SystemRedlock.Words()
	assert.Empty(t, red.Token, "Redlock hands out no token")
	assert.Empty(t, red.Version, "independent Redis servers share no counter")
	seen := map[string]bool{}
	for _, name := range SystemNames() {
		s, _ := ParseSystem(name)
		assert.False(t, seen[s.Words().Server], "%s has a server name of its own", name)
		seen[s.Words().Server] = true
	}
}
