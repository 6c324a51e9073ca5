package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Each system names its server, its write counter and its token in its
// own terms; Redlock has neither a shared counter nor a token.
func TestSystemWordsAreEachSystemsOwn(t *testing.T) {
	etcd := SystemEtcd.Words()
	assert.Equal(t, [4]string{"Coordinator", "revision", "token", "rev"}, [4]string{etcd.Server, etcd.Version, etcd.Token, etcd.Created}, "etcd keeps the words every lesson uses")
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

// The lease policy's verdict speaks each system's words: etcd's is the
// one every lesson and labctl print; Kubernetes' says that no server
// expires anything, the candidates judge by their own clocks
// (client-go's leaderelection.go: a candidate takes the Lease once its
// observedTime + LeaseDuration has passed; the API server has no TTL).
func TestPolicyVerdictInEachSystemsWords(t *testing.T) {
	ok := LeasePolicy{TTL: 15 * time.Second, RenewEvery: 2 * time.Second}.Check()
	bad := LeasePolicy{TTL: 15 * time.Second, RenewEvery: 5 * time.Second, PauseBudget: 20 * time.Second}.Check()
	assert.Equal(t, ok.Explanation, ok.Explain(SystemEtcd.Words()))
	assert.Contains(t, ok.Explanation, "before the coordinator expires the lease")

	k8s := ok.Explain(SystemKubernetes.Words())
	assert.NotContains(t, k8s, "coordinator")
	assert.Contains(t, k8s, "by its own clock")
	assert.Contains(t, k8s, "nothing expires on the server")
	assert.Contains(t, bad.Explain(SystemKubernetes.Words()), "another candidate will take the Lease")
	assert.Contains(t, ok.Explain(SystemZooKeeper.Words()), "before ZooKeeper expires the session")
	assert.Contains(t, ok.Explain(SystemConsul.Words()), "before Consul invalidates the session")
	assert.Contains(t, bad.Explain(SystemRedlock.Words()), "another client will win a majority")
	for _, name := range SystemNames() {
		s, _ := ParseSystem(name)
		w := s.Words()
		assert.NotEmpty(t, w.Recipe, name)
		assert.NotEmpty(t, w.LeaseEnds, name)
		assert.NotEmpty(t, w.Takes, name)
		if s != SystemEtcd {
			assert.NotContains(t, ok.Explain(w), "the coordinator", "%s in its own words", name)
			assert.NotContains(t, bad.Explain(w), "the coordinator", "%s in its own words", name)
		}
	}
}
