package progress

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 30, item 4: what a file brings in (an import, a saved file a
// learner edited, an older LeaseLab's) cannot stick, wrap or outrank the
// learner's own work.

// setClock makes now read ms for the rest of the test.
func setClock(t *testing.T, ms int64) {
	old := now
	now = func() int64 { return ms }
	t.Cleanup(func() { now = old })
}

// known is the catalog of these tests: two lessons, one exercise.
var known = &Catalog{Lessons: []string{"leases", "scheduler"}, Exercises: []string{"no-fencing"}}

// An imported stamp of 9223372036854775807 used to win every later merge
// (and the next stamp after it wrapped to -2^63): the learner's newer run
// and answer were dropped at the next save.
func TestAForeignStampNeverOutranksTheLearnersNewerWork(t *testing.T) {
	setClock(t, 1_700_000_000_000)
	s := NewMemStore(nil, "")
	file := fmt.Sprintf(`{"version":1,"lessons":{"leases":{"log":["theirs"],"updated":%d}},`+
		`"exercises":{"no-fencing":{"answer":"theirs","updated":%[1]d}}}`, int64(math.MaxInt64))
	p, _, err := Import(s, []byte(file), known)
	require.NoError(t, err)
	assert.Equal(t, int64(1_700_000_000_000), p.Lesson("leases").Updated, "a stamp from the far future is brought back to now")

	setClock(t, 1_700_000_005_000) // five seconds later, the learner plays on
	l := p.Lesson("leases")
	l.Log = json.RawMessage(`["mine"]`)
	p.SetLesson("leases", l)
	p.SetAnswer("no-fencing", json.RawMessage(`"mine"`))
	assert.Equal(t, int64(1_700_000_005_000), p.Lesson("leases").Updated, "the next stamp does not wrap")

	// Another window saved the import again in between: the merge still
	// keeps the learner's run and answer.
	require.NoError(t, s.Save([]byte(file)))
	merged, _, err := Sync(s, p, known)
	require.NoError(t, err)
	assert.JSONEq(t, `["mine"]`, string(merged.Lesson("leases").Log))
	assert.JSONEq(t, `"mine"`, string(merged.Exercise("no-fencing").Answer))
	saved, _ := Open(s, known)
	assert.JSONEq(t, `["mine"]`, string(saved.Lesson("leases").Log), "and saves them")
}

// Saved progress already holding such a stamp (from an import before this
// fix) is repaired when opened: the stamp is written back as it was
// bounded, so a read a moment later does not bound it to a later now,
// ahead of what the learner did meanwhile.
func TestASavedFutureStampIsRepairedWhenOpened(t *testing.T) {
	setClock(t, 1_700_000_000_000)
	s := NewMemStore(fmt.Appendf(nil, `{"version":1,"lessons":{"leases":{"log":["old"],"updated":%d}},"exercises":{}}`, int64(math.MaxInt64)), "")
	p, notice := Open(s, known)
	assert.Empty(t, notice, "a stamp is not the learner's concern")
	saved, err := Decode(s.Data())
	require.NoError(t, err)
	assert.Equal(t, int64(1_700_000_000_000), saved.Lesson("leases").Updated, "written back bounded")

	setClock(t, 1_700_000_001_000)
	p.SetLesson("leases", Lesson{Log: json.RawMessage(`["new"]`)})
	setClock(t, 1_700_000_002_000)
	merged, _, err := Sync(s, p, known)
	require.NoError(t, err)
	assert.JSONEq(t, `["new"]`, string(merged.Lesson("leases").Log))
}

// Stamps a little ahead of the clock stand: several changes within one
// millisecond stamp one after another, and another machine's clock may
// be ahead of this one's by a few seconds. Negative stamps read as 0.
func TestStampsSlightlyAheadStandAndNegativeOnesReadAsZero(t *testing.T) {
	setClock(t, 1_000_000)
	p, err := Decode([]byte(`{"version":1,"lessons":{"a":{"updated":1030000},"b":{"updated":-5}},"exercises":{"e":{"updated":1060001}}}`))
	require.NoError(t, err)
	assert.Equal(t, int64(1_030_000), p.Lesson("a").Updated)
	assert.Equal(t, int64(0), p.Lesson("b").Updated)
	assert.Equal(t, int64(1_000_000), p.Exercise("e").Updated, "more than a minute ahead: brought back to now")
}

// Stamping after the largest stamp stays there instead of wrapping.
func TestRestampCannotWrap(t *testing.T) {
	setClock(t, 5)
	assert.Equal(t, int64(math.MaxInt64), restamp(math.MaxInt64))
	assert.Equal(t, int64(8), restamp(7))
	assert.Equal(t, int64(5), restamp(0))
}

// Issue 30, item 4: an import listing made-up lessons was accepted, after
// which every save failed ("lists more lessons or exercises than exist")
// until the file was deleted by hand.

// madeUp is a progress document with n made-up lessons and one real one.
func madeUp(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"version":1,"lessons":{"leases":{"completed":true}`)
	for i := range n {
		fmt.Fprintf(&b, `,"made-up-%04d":{"completed":true}`, i)
	}
	b.WriteString(`},"exercises":{"nope":{"passed":true}}}`)
	return []byte(b.String())
}

func TestAnImportKeepsOnlyKnownLessonsAndSaysSo(t *testing.T) {
	s := NewMemStore([]byte(`{"version":1,"lessons":{"scheduler":{"completed":true}},"exercises":{}}`), "")
	merged, notice, err := Import(s, madeUp(999), known)
	require.NoError(t, err)
	assert.Equal(t, `The imported file had progress in 999 lessons and 1 exercise this LeaseLab does not have `+
		`("made-up-0000", "made-up-0001", "made-up-0002" and 997 more); it was left out.`, notice)
	assert.Len(t, merged.Lessons, 2, "leases and scheduler")
	assert.True(t, merged.Lesson("leases").Completed)

	// Later saves work: the made-up ids were never saved.
	merged.MeetGoal("scheduler", "one-leader")
	_, _, err = Sync(s, merged, known)
	require.NoError(t, err)
	assert.NotContains(t, string(s.Data()), "made-up")
}

// Progress saved in that state (by an import before this fix) opens with
// the made-up ids dropped and said so, and saves again: no learner is
// left stuck.
func TestSavedUnknownLessonsAreDroppedWhenOpened(t *testing.T) {
	s := NewMemStore(madeUp(999), "")
	p, notice := Open(s, known)
	assert.Contains(t, notice, "Your saved progress had progress in 999 lessons and 1 exercise this LeaseLab does not have")
	assert.Equal(t, []string{"leases"}, keys(p.Lessons))
	p.MeetGoal("scheduler", "one-leader")
	_, _, err := Sync(s, p, known)
	require.NoError(t, err, "the save that used to fail")
	again, notice := Open(s, known)
	assert.Empty(t, notice, "said once: the repaired progress was written back")
	assert.Equal(t, []string{"leases", "scheduler"}, keys(again.Lessons))
}

func keys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// Issue 30, item 4: exporting damaged saved progress exited 0, said
// "progress written", wrote empty progress and said nothing of the damage;
// each export kept one more .corrupt-N copy.
func TestExportingDamagedProgressSaysSoAndLeavesItAsItWas(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "progress.json")
	damaged := []byte(`{"version":1,"lessons":{"leases":{"completed":tru`)
	require.NoError(t, os.WriteFile(path, damaged, 0o600))
	s := NewFileStore(path)
	for range 3 {
		data, _, err := Export(s, known)
		var ue *UnreadableError
		require.ErrorAs(t, err, &ue)
		assert.Nil(t, data, "no empty progress in its place")
		assert.Contains(t, err.Error(), "the saved progress could not be read (it is not valid progress data: damaged, or cut short), so nothing was exported")
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, damaged, got, "the damaged file is left as it was")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "and no copy of it is made, however often one exports")
}

// Exporting leaves out what this LeaseLab does not have, and says so.
func TestExportLeavesOutUnknownLessons(t *testing.T) {
	data, notice, err := Export(NewMemStore(madeUp(3), ""), known)
	require.NoError(t, err)
	assert.Contains(t, notice, "3 lessons and 1 exercise")
	assert.NotContains(t, string(data), "made-up")
	assert.Contains(t, string(data), `"leases"`)
}

// Issue 30, minor: a progress.json that is a symbolic link (to a synced
// folder, say) stayed a link only until the first save, which renamed a
// plain file over it.
func TestASymlinkedProgressFileStaysALink(t *testing.T) {
	dir := t.TempDir()
	synced := filepath.Join(dir, "synced")
	require.NoError(t, os.Mkdir(synced, 0o700))
	real := filepath.Join(synced, "progress.json")
	require.NoError(t, os.WriteFile(real, []byte(`{"version":1,"lessons":{"leases":{"completed":true}},"exercises":{}}`), 0o600))
	link := filepath.Join(dir, "progress.json")
	require.NoError(t, os.Symlink("synced/progress.json", link)) // relative, as ln -s makes them

	s := NewFileStore(link)
	p, _ := Open(s, nil)
	p.MeetGoal("scheduler", "one-leader")
	_, _, err := Sync(s, p, nil)
	require.NoError(t, err)

	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type(), "still a link")
	saved, err := os.ReadFile(real)
	require.NoError(t, err)
	assert.Contains(t, string(saved), "one-leader", "the save went through to the linked file")
	assert.Contains(t, string(saved), `"leases":{"completed":true`)
	left, err := filepath.Glob(filepath.Join(synced, ".progress.json-*.tmp"))
	require.NoError(t, err)
	assert.Empty(t, left, "no temporary file left beside it")
}

// A link to a file not there yet is written through too, and a loop of
// links is an error, not a hang.
func TestSymlinkEdges(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "progress.json")
	require.NoError(t, os.Symlink(filepath.Join(dir, "elsewhere.json"), link))
	require.NoError(t, Save(NewFileStore(link), New()))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type())
	_, err = os.Stat(filepath.Join(dir, "elsewhere.json"))
	assert.NoError(t, err)

	loop := filepath.Join(dir, "loop.json")
	require.NoError(t, os.Symlink(loop, loop))
	assert.ErrorContains(t, Save(NewFileStore(loop), New()), "symbolic links in a row")
}

// A damaged file behind a link is kept aside beside the file it leads to,
// and the link stays.
func TestDamagedFileBehindALinkIsKeptBesideIt(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	require.NoError(t, os.WriteFile(real, []byte(`{"version":1,`), 0o600))
	link := filepath.Join(dir, "progress.json")
	require.NoError(t, os.Symlink(real, link))
	_, notice := Open(NewFileStore(link), nil)
	assert.Contains(t, notice, "kept as "+real+".corrupt-1")
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type())
}
