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
// full name), and more of the environment if given, and returns what it
// printed and its exit code.
func runDeps(t *testing.T, path string, env ...string) (string, int) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	require.NoError(t, err)
	cmd := exec.Command(bash, filepath.Join("..", "..", ".ci", "deps"))
	cmd.Env = append([]string{"PATH=" + path, "HOME=" + t.TempDir()}, env...)
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

// linkBin adds the machine's own commands names to bin, for a script that
// needs them (grep reads /etc/os-release).
func linkBin(t *testing.T, bin string, names ...string) {
	t.Helper()
	for _, n := range names {
		p, err := exec.LookPath(n)
		require.NoError(t, err, "%s is on this machine", n)
		require.NoError(t, os.Symlink(p, filepath.Join(bin, n)))
	}
}

// runDepsOn runs .ci/deps as a user without root or sudo, on a machine
// described by osRelease (its /etc/os-release) and dpkg's architecture,
// with no browser at any of the places internal/browser looks, and
// returns what it printed and its exit code.
func runDepsOn(t *testing.T, osRelease, arch string) (string, int) {
	t.Helper()
	bin := fakeBin(t, map[string]string{
		"id":      `echo 1000`,
		"apt-get": `echo "apt-get must not run" >&2; exit 3`,
		"dirname": `echo "${1%/*}"`,
		"dpkg":    `echo ` + arch,
	})
	linkBin(t, bin, "grep")
	release := filepath.Join(t.TempDir(), "os-release")
	require.NoError(t, os.WriteFile(release, []byte(osRelease), 0o644))
	nowhere := filepath.Join(t.TempDir(), "chromium")
	return runDeps(t, bin, "LEASELAB_OS_RELEASE="+release, "LEASELAB_BROWSER_CANDIDATES="+nowhere)
}

// installLine is the one command .ci/deps asks the user to run.
func installLine(t *testing.T, out string) string {
	t.Helper()
	var cmd string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "sudo sh -c") {
			require.Empty(t, cmd, "one command: %s", out)
			cmd = line
		}
	}
	require.NotEmpty(t, cmd, "the command to run: %s", out)
	return cmd
}

// On Debian the browser is the chromium package.
func TestDepsInstallsChromiumOnDebian(t *testing.T) {
	out, code := runDepsOn(t, "ID=debian\nVERSION_ID=\"13\"\n", "amd64")
	assert.Equal(t, 1, code, out)
	cmd := installLine(t, out)
	assert.Contains(t, strings.Fields(strings.ReplaceAll(cmd, "'", "")), "chromium")
	assert.NotContains(t, cmd, "google-chrome")
}

// On Ubuntu the chromium package only installs a snap, which the browser
// tests cannot run (no snapd in a container; a snap cannot read their
// temporary folders): the one command installs Google Chrome's .deb, and
// curl to fetch it, instead.
func TestDepsInstallsGoogleChromeOnUbuntu(t *testing.T) {
	for _, release := range []string{"ID=ubuntu\nVERSION_ID=\"24.04\"\n", "ID=linuxmint\nID_LIKE=\"ubuntu debian\"\n"} {
		out, code := runDepsOn(t, release, "amd64")
		assert.Equal(t, 1, code, out)
		cmd := installLine(t, out)
		words := strings.Fields(strings.ReplaceAll(cmd, "'", ""))
		assert.NotContains(t, words, "chromium", "not the snap's door")
		assert.Contains(t, cmd, "https://dl.google.com/linux/direct/google-chrome-stable_current_amd64.deb")
		assert.Contains(t, cmd, "apt-get install -y -q /tmp/google-chrome.deb")
		assert.Contains(t, words, "curl")
		assert.Contains(t, out, "Ubuntu's chromium is a snap")
	}
}

// Chrome has no Linux build but amd64's: on an arm64 Ubuntu .ci/deps says
// what to do instead of installing a snap that cannot run.
func TestDepsSaysWhatToDoOnArmUbuntu(t *testing.T) {
	out, code := runDepsOn(t, "ID=ubuntu\n", "arm64")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "Google Chrome has no arm64 build for Linux")
	assert.Contains(t, out, "set LEASELAB_BROWSER")
	assert.NotContains(t, out, "apt-get must not run")
}
