package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Optimistic concurrency: an Update with an old resourceVersion is a
// conflict, and the record does not change.
func TestKubeLeaseUpdateNeedsTheCurrentResourceVersion(t *testing.T) {
	s := NewSim(1)
	c := s.Coord
	rec := LeaseRecord{HolderIdentity: "A", LeaseDurationSeconds: 15}
	r := c.kubeLease("A", kubeLeaseReq{Op: kubeCreate, Lock: "locks/leader", Rec: rec})
	require.Empty(t, r.Err)
	r2 := c.kubeLease("A", kubeLeaseReq{Op: kubeCreate, Lock: "locks/leader", Rec: rec})
	assert.Contains(t, r2.Err, "already exists")
	b := LeaseRecord{HolderIdentity: "B", LeaseDurationSeconds: 15, LeaseTransitions: 1}
	ok := c.kubeLease("B", kubeLeaseReq{Op: kubeUpdate, Lock: "locks/leader", RV: r.RV, Rec: b})
	require.Empty(t, ok.Err)
	stale := c.kubeLease("C", kubeLeaseReq{Op: kubeUpdate, Lock: "locks/leader", RV: r.RV, Rec: LeaseRecord{HolderIdentity: "C"}})
	assert.Contains(t, stale.Err, "the object has been modified")
	got, rv, _ := c.LeaseObject("locks/leader")
	assert.Equal(t, b, got)
	assert.Equal(t, ok.RV, rv)
}

func TestLeaseRecordRoundTrips(t *testing.T) {
	r := LeaseRecord{HolderIdentity: "api-1", LeaseDurationSeconds: 15, AcquireTime: 1500 * time.Millisecond, RenewTime: 61234 * time.Millisecond, LeaseTransitions: 4}
	got, err := ParseLeaseRecord(r.encode())
	require.NoError(t, err)
	assert.Equal(t, r, got)
	_, err = ParseLeaseRecord("holder")
	assert.Error(t, err)
}
