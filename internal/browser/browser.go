// Package browser finds the Chromium the browser tests and measurements
// drive (chromedp): Debian's chromium, or Google Chrome where the
// distribution's Chromium is a snap (Ubuntu), which cannot run in a
// container without snapd and whose confinement cannot read a test's
// temporary folders. .ci/deps installs one of them and looks for the same
// list.
package browser

import (
	"fmt"
	"os"
)

// EnvVar names a browser to use instead of the ones found by Candidates.
const EnvVar = "LEASELAB_BROWSER"

// Candidates are the browsers looked for, in order.
var Candidates = []string{"/usr/bin/chromium", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome"}

// Install is what to run when no browser is found.
const Install = "make deps (Debian: apt-get install -y chromium; Ubuntu: Google Chrome's .deb, as .ci/deps installs it)"

// Path is the browser to run: $LEASELAB_BROWSER when set, else the first
// of Candidates that is an executable file. Without one it says how to
// install one.
func Path() (string, error) {
	if p := os.Getenv(EnvVar); p != "" {
		if !executable(p) {
			return "", fmt.Errorf("%s=%s is not an executable file", EnvVar, p)
		}
		return p, nil
	}
	for _, p := range Candidates {
		if executable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("no Chromium or Chrome found (looked for %v): install one with %s", Candidates, Install)
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
