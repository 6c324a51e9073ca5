package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core/permalink"
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

// Issue 30, item 4: two tabs of the lab share localStorage but no lock.
// A save one tab's write replaced came back only into that tab's memory,
// to be written again at its next save, which never came when the tab was
// closed; and closing a tab saved nothing of the lesson open in it. Here
// tab A opens a shared run (work not yet saved), tab B imports progress,
// then B writes over the store as a racing tab does (its own progress,
// without the import); A must write the import back at once, and save the
// open run when it goes away.
func TestBrowserTwoTabsLoseNothing(t *testing.T) {
	ctx, srv := startChromium(t, 1280, 800)
	const stored = `localStorage.getItem("leaselab.progress.v1") || ""`
	started := `(() => { try { return JSON.parse(globalThis.leaselab.state()).frame > 2 } catch (e) { return false } })()`

	link := permalink.LessonLink("fenced-writes", 1, nil, brokenFencing(t))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"+link.Fragment()),
		poll(started),
		poll(`JSON.parse(globalThis.leaselab.state()).scene.run?.lesson === "fenced-writes"`),
	))
	tabA := ctx

	tabB, closeB := chromedp.NewContext(ctx) // a second tab of the same browser
	defer closeB()
	file := filepath.Join(t.TempDir(), "leaselab-progress.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"version":1,"lessons":{"leases":{"completed":true}},"exercises":{}}`), 0o600))
	require.NoError(t, chromedp.Do(tabB,
		chromedp.Navigate(srv.URL+"/"),
		poll(started),
		chromedp.SetUploadFiles(chromedp.ID("import-progress"), []string{file}),
		poll(`document.getElementById("progress-status").textContent.startsWith("Progress imported")`),
	))

	// Tab B writes over the store without the import, as a tab that read
	// before the import and saved after it does.
	require.NoError(t, chromedp.Do(tabB,
		chromedp.Evaluate[chromedp.Void](`localStorage.setItem("leaselab.progress.v1", '{"version":1,"lessons":{"scheduler":{"completed":true}},"exercises":{}}')`),
		poll(`(() => { const s = localStorage.getItem("leaselab.progress.v1") || ""; return s.includes('"leases"') && s.includes('"scheduler"') })()`),
	), "tab A writes the import back at once, on the storage event")

	// Tab A goes away (pagehide): the run open in it is saved.
	require.NoError(t, chromedp.Do(tabA, chromedp.Navigate("about:blank")))
	require.NoError(t, chromedp.Do(tabB, chromedp.Reload(), poll(started)))
	after, err := chromedp.Run(tabB, chromedp.Evaluate[string](stored))
	require.NoError(t, err)
	var p struct {
		Lessons map[string]struct {
			Completed bool            `json:"completed"`
			Log       json.RawMessage `json:"log"`
		} `json:"lessons"`
	}
	require.NoError(t, json.Unmarshal([]byte(after), &p), after)
	assert.True(t, p.Lessons["leases"].Completed, "the import tab B's write dropped")
	assert.True(t, p.Lessons["scheduler"].Completed, "tab B's own progress")
	assert.Contains(t, string(p.Lessons["fenced-writes"].Log), `"pause"`, "the run open in tab A when it closed")
}
