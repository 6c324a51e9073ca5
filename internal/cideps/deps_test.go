// Package cideps holds the tests of .ci/deps, the one list of what make test
// needs beyond Go and its installer (make deps, and .ci/run through make
// test).
package cideps

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeBin is a directory of commands for .ci/deps to find on its PATH:
// each name runs script.
func fakeBin(t *testing.T, scripts map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, script := range scripts {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script+"\n"), 0o755))
	}
	return dir
}

// runDeps runs .ci/deps with PATH set to path (bash itself found by its
// full name) and returns what it printed and its exit code.
func runDeps(t *testing.T, path string) (string, int) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	require.NoError(t, err)
	cmd := exec.Command(bash, filepath.Join("..", "..", ".ci", "deps"))
	cmd.Env = []string{"PATH=" + path, "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return string(out), code
}

// On a Debian or Ubuntu machine that has none of the commands make test
// needs, run by a user who is not root and has no sudo, .ci/deps installs
// nothing and stops with the one command to run: apt-get for every
// missing package of its list, in one line.
func TestDepsStopsWithTheOneCommandWithoutRoot(t *testing.T) {
	bin := fakeBin(t, map[string]string{
		"id":      `echo 1000`,
		"apt-get": `echo "apt-get must not run" >&2; exit 3`,
		"dirname": `echo "${1%/*}"`,
	})
	out, code := runDeps(t, bin)
	assert.Equal(t, 1, code, "it stops: %s", out)
	assert.NotContains(t, out, "apt-get must not run", "nothing is installed")
	assert.Contains(t, out, "make test needs: ")
	assert.Contains(t, out, "Installing them needs root. Run this once, then make test again:")
	var cmd string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "apt-get install") {
			require.Empty(t, cmd, "one command: %s", out)
			cmd = line
		}
	}
	require.NotEmpty(t, cmd, "the command to run: %s", out)
	assert.True(t, strings.HasPrefix(strings.TrimSpace(cmd), "sudo sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "), cmd)
	// The packages found by their command (the others by a file, which
	// this machine may have).
	words := strings.Fields(strings.ReplaceAll(cmd, "'", ""))
	for _, pkg := range []string{"gcc", "make", "git", "xvfb", "xauth", "xdotool", "default-jre-headless", "redis-server"} {
		assert.Contains(t, words, pkg, "%s is installed by the command", pkg)
	}
}

// Where there is no apt-get, .ci/deps says it is not a Debian or Ubuntu
// machine and stops.
func TestDepsSaysSoOffDebian(t *testing.T) {
	out, code := runDeps(t, fakeBin(t, map[string]string{"id": `echo 1000`, "dirname": `echo "${1%/*}"`}))
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "This is not a Debian or Ubuntu machine")
}
