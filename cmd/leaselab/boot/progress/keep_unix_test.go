//go:build unix

package progress

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A FIFO at the progress path used to block Open forever; now it is
// refused at once, moved aside whole, and progress is saved beside it.
func TestFIFOAtTheProgressPathDoesNotBlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	s := NewFileStore(path)
	done := make(chan string, 1)
	go func() { _, notice := Open(s, nil); done <- notice }()
	select {
	case notice := <-done:
		assert.Contains(t, notice, "is not a regular file")
		assert.Contains(t, notice, "kept as "+path+".corrupt-1")
	case <-time.After(5 * time.Second):
		t.Fatal("Open blocked on a FIFO")
	}
	fi, err := os.Lstat(path + ".corrupt-1")
	require.NoError(t, err)
	assert.Equal(t, os.ModeNamedPipe, fi.Mode().Type(), "the FIFO itself was moved aside")
	_, _, err = Sync(s, New(), nil)
	assert.NoError(t, err)
}

// Many savers at once, each with its own file handle, lose nothing: the
// lock makes each read-merge-write whole.
func TestConcurrentSaversLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	const n = 16
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			s := NewFileStore(path)
			p, _ := Open(s, nil)
			p.MeetGoal("leases", fmt.Sprintf("goal-%d", i))
			_, _, err := Sync(s, p, nil)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	p, notice := Open(NewFileStore(path), nil)
	require.Empty(t, notice)
	assert.Len(t, p.Lesson("leases").GoalsMet, n)
}
