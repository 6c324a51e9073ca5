package sharefile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"boot.leaselab/progress"
)

// TestTheDesktopWritesASharedAnswerNextToTheProgressFile: the share goes
// beside the progress file, and the learner is told where.
func TestTheDesktopWritesASharedAnswerNextToTheProgressFile(t *testing.T) {
	dir := t.TempDir()
	store := progress.NewFileStore(filepath.Join(dir, "progress.json"))
	path, where, err := Write(store, "/elsewhere", "no-fencing", "#share=abc")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "share-no-fencing.txt"), path)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "#share=abc\n", string(b))
	assert.Contains(t, where, path, "the learner is told where the file is")
	assert.Contains(t, where, "--verify", "and how it is checked")
}

// TestASharedAnswerWithoutAProgressFileGoesToTheExportFolder: progress
// kept in memory has no folder; the export folder is used.
func TestASharedAnswerWithoutAProgressFileGoesToTheExportFolder(t *testing.T) {
	dir := t.TempDir()
	path, _, err := Write(progress.NewMemStore(nil, ""), dir, "renew-ttl-pause", "#share=x")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "share-renew-ttl-pause.txt"), path)
	_, _, err = Write(progress.NewMemStore(nil, ""), dir, "../x", "#share=x")
	assert.Error(t, err, "an id that is not one names no file")
}
