package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 19, item 12: in the browser, progress imports from a file (merged
// into what the browser holds, saved in localStorage) and exports to one,
// so a learner can carry it to another browser or to the desktop program.
func TestBrowserProgressImportExport(t *testing.T) {
	ctx, srv := startChromium(t, 1280, 800)
	file := filepath.Join(t.TempDir(), "leaselab-progress.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"version":1,"lessons":{"leases":{"completed":true,"goalsMet":["lease-granted"]}},"exercises":{}}`), 0o600))

	err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		poll(`(() => { try { return JSON.parse(globalThis.leaselab.state()).frame > 0 } catch (e) { return false } })()`),
		chromedp.SetUploadFiles(chromedp.ID("import-progress"), []string{file}),
		poll(`document.getElementById("progress-status").textContent.startsWith("Progress imported")`),
	)
	require.NoError(t, err)
	stored, err := chromedp.Run(ctx, chromedp.Evaluate[string](`localStorage.getItem("leaselab.progress.v1") || ""`))
	require.NoError(t, err)
	assert.Contains(t, stored, `"leases":{"completed":true`, "the import was saved in this browser")

	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("export-progress")),
		poll(`(globalThis.leaselabDownloads || []).some(d => d.name === "leaselab-progress.json")`),
	)
	require.NoError(t, err)
	exported, err := chromedp.Run(ctx, chromedp.Evaluate[string](`globalThis.leaselabDownloads.find(d => d.name === "leaselab-progress.json").text`))
	require.NoError(t, err)
	assert.Contains(t, exported, `"lease-granted"`, "the export carries the imported progress")

	// A file that is not progress is refused with a reason, and nothing
	// saved changes.
	stored, err = chromedp.Run(ctx, chromedp.Evaluate[string](`localStorage.getItem("leaselab.progress.v1") || ""`))
	require.NoError(t, err)
	bad := filepath.Join(t.TempDir(), "notes.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"version":7}`), 0o600))
	err = chromedp.Do(ctx,
		chromedp.SetUploadFiles(chromedp.ID("import-progress"), []string{bad}),
		poll(`document.getElementById("progress-status").textContent.startsWith("Not imported")`),
	)
	require.NoError(t, err)
	after, err := chromedp.Run(ctx, chromedp.Evaluate[string](`localStorage.getItem("leaselab.progress.v1") || ""`))
	require.NoError(t, err)
	assert.Equal(t, stored, after)
}
