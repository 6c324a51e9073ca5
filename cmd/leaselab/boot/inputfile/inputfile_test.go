//go:build unix

package inputfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadGivesTheBytesOfARegularFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.json")
	require.NoError(t, os.WriteFile(p, []byte("[1]"), 0o600))
	b, err := Read(p, 10)
	require.NoError(t, err)
	assert.Equal(t, "[1]", string(b))
}

func TestReadFollowsASymlinkToARegularFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	require.NoError(t, os.WriteFile(p, []byte("x"), 0o600))
	l := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(p, l))
	b, err := Read(l, 10)
	require.NoError(t, err)
	assert.Equal(t, "x", string(b))
}

func TestReadRefusesAFIFOAtOnceInsteadOfWaitingForAWriter(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(p, 0o600))
	done := make(chan error, 1)
	go func() { _, err := Read(p, 10); done <- err }()
	select {
	case err := <-done:
		require.ErrorIs(t, err, ErrNotRegular)
		assert.Contains(t, err.Error(), "named pipe (FIFO)")
	case <-time.After(10 * time.Second):
		t.Fatal("Read blocked on a FIFO")
	}
}

func TestReadRefusesADirectoryAndADevice(t *testing.T) {
	_, err := Read(t.TempDir(), 10)
	require.ErrorIs(t, err, ErrNotRegular)
	assert.Contains(t, err.Error(), "a directory")

	_, err = Read("/dev/zero", 10)
	require.ErrorIs(t, err, ErrNotRegular)
	assert.Contains(t, err.Error(), "character device")
}

func TestReadRefusesMoreThanTheLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	require.NoError(t, os.WriteFile(p, make([]byte, 11), 0o600))
	_, err := Read(p, 10)
	require.ErrorIs(t, err, ErrTooLarge)
	b, err := Read(p, 11)
	require.NoError(t, err)
	assert.Len(t, b, 11)
}

func TestReadSaysWhenThePathDoesNotExist(t *testing.T) {
	_, err := Read(filepath.Join(t.TempDir(), "none"), 10)
	require.ErrorIs(t, err, os.ErrNotExist)
}
