package browser

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A browser named by LEASELAB_BROWSER is used when it is an executable
// file, and refused by name when it is not (a folder, a missing file, a
// file that cannot run).
func TestPathTakesTheBrowserNamedInTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	chrome := filepath.Join(dir, "chrome")
	require.NoError(t, os.WriteFile(chrome, []byte("#!/bin/sh\n"), 0o755))
	t.Setenv(EnvVar, chrome)
	p, err := Path()
	require.NoError(t, err)
	assert.Equal(t, chrome, p)

	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, []byte("x"), 0o644))
	for _, bad := range []string{dir, filepath.Join(dir, "missing"), plain} {
		t.Setenv(EnvVar, bad)
		_, err := Path()
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), bad+" is not an executable file")
	}
}

// Without the variable, Path takes the first candidate there is, and with
// none it says how to install one.
func TestPathLooksForEachCandidateInOrder(t *testing.T) {
	t.Setenv(EnvVar, "")
	dir := t.TempDir()
	saved := Candidates
	t.Cleanup(func() { Candidates = saved })
	chrome := filepath.Join(dir, "google-chrome-stable")
	require.NoError(t, os.WriteFile(chrome, []byte("#!/bin/sh\n"), 0o755))
	Candidates = []string{filepath.Join(dir, "chromium"), chrome}
	p, err := Path()
	require.NoError(t, err)
	assert.Equal(t, chrome, p, "Chrome, where there is no Chromium")

	Candidates = []string{filepath.Join(dir, "chromium")}
	_, err = Path()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "install one with make deps")
}
