package progress

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 19, item 10: saved progress that cannot be read is kept, never
// replaced by the next save.

// A store that fails to read (no permission, an I/O error) has its data
// kept aside before anything is saved: the first save used to replace it.
func TestUnreadableProgressIsKeptBeforeSaving(t *testing.T) {
	s := NewMemStore([]byte(`{"version":1,"lessons":{"leases":{"completed":true}}}`), "")
	s.LoadErr = fmt.Errorf("input/output error")
	p, notice := Open(s, nil)
	assert.Contains(t, notice, "could not be read (input/output error)")
	assert.Contains(t, notice, "kept as memory backup 1")
	p.MeetGoal("scheduler", "one-leader")
	_, _, err := Sync(s, p, nil)
	require.NoError(t, err, "kept aside, so saving is safe")
	assert.Len(t, s.Backups(), 2, "each unreadable read is kept")
}

// When it cannot be kept either, nothing is saved over it.
func TestUnkeepableProgressIsNeverOverwritten(t *testing.T) {
	old := []byte(`{"version":1,"lessons":{"leases":{"completed":true}}}`)
	s := NewMemStore(old, "")
	s.LoadErr = fmt.Errorf("permission denied")
	s.BackupErr = fmt.Errorf("disk full")
	p, notice := Open(s, nil)
	assert.Contains(t, notice, "Nothing will be saved over it.")
	p.MeetGoal("scheduler", "one-leader")
	_, _, err := Sync(s, p, nil)
	assert.ErrorContains(t, err, "not saved, so as not to replace saved progress")
	assert.Equal(t, old, s.Data())
}

// A damaged file with 1000 backups beside it (no name left for one more)
// stays as it is: it used to be overwritten by the first save.
func TestDamagedFileWithNoRoomForABackupStays(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "progress.json")
	damaged := []byte(`{"version":1,"lessons":{"leases":{"completed":tru`)
	require.NoError(t, os.WriteFile(path, damaged, 0o600))
	for n := 1; n <= maxBackups; n++ {
		require.NoError(t, os.WriteFile(fmt.Sprintf("%s.corrupt-%d", path, n), nil, 0o600))
	}
	s := NewFileStore(path)
	p, notice := Open(s, nil)
	assert.Contains(t, notice, "1000 backups")
	p.MeetGoal("leases", "lease-granted")
	_, _, err := Sync(s, p, nil)
	assert.Error(t, err)
	got, _ := os.ReadFile(path)
	assert.Equal(t, damaged, got)
}

// A version-1 document with a field a newer LeaseLab added loads (it was
// set aside as corrupt) and keeps the field through a save.
func TestNewerOptionalFieldsLoadAndSurviveASave(t *testing.T) {
	doc := `{"version":1,"theme":"dark","lessons":{"leases":{"completed":true,"stars":3}},"exercises":{"no-fencing":{"passed":true,"streak":{"days":2}}}}`
	s := NewMemStore([]byte(doc), "")
	p, notice := Open(s, nil)
	require.Empty(t, notice)
	assert.True(t, p.Lesson("leases").Completed)
	p.MeetGoal("scheduler", "one-leader")
	_, _, err := Sync(s, p, nil)
	require.NoError(t, err)
	var saved map[string]any
	require.NoError(t, json.Unmarshal(s.Data(), &saved))
	assert.Equal(t, "dark", saved["theme"])
	lessons := saved["lessons"].(map[string]any)
	assert.Equal(t, 3.0, lessons["leases"].(map[string]any)["stars"])
	ex := saved["exercises"].(map[string]any)["no-fencing"].(map[string]any)
	assert.Equal(t, map[string]any{"days": 2.0}, ex["streak"])
}

// Issue 19, item 11: two windows saving are merged, not last-writer-wins.

// Window A completes "leases", window B then saves "scheduler": both stay.
func TestTwoWindowsSavingKeepBoth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	a, b := NewFileStore(path), NewFileStore(path)
	pa, _ := Open(a, nil)
	pb, _ := Open(b, nil)
	pa.SetLesson("leases", Lesson{Completed: true, GoalsMet: []string{"lease-granted"}})
	_, _, err := Sync(a, pa, nil)
	require.NoError(t, err)
	pb.SetLesson("scheduler", Lesson{Completed: true})
	merged, _, err := Sync(b, pb, nil)
	require.NoError(t, err)
	assert.True(t, merged.Lesson("leases").Completed, "B adopts what A saved")

	final, notice := Open(NewFileStore(path), nil)
	require.Empty(t, notice)
	assert.True(t, final.Lesson("leases").Completed, "A's completion is not lost")
	assert.True(t, final.Lesson("scheduler").Completed)
}

// Merge is a union of completion; the later run of a lesson and the later
// answer of an exercise are kept.
func TestMergeKeepsCompletionAndTheLaterRun(t *testing.T) {
	a, b := New(), New()
	a.Lessons["leases"] = Lesson{Completed: true, GoalsMet: []string{"g1", "g2"}, HintsSeen: 3, Log: json.RawMessage(`["a"]`), Updated: 200}
	b.Lessons["leases"] = Lesson{GoalsMet: []string{"g2", "g3"}, HintsSeen: 1, Log: json.RawMessage(`["b"]`), Updated: 100}
	a.Exercises["x"] = Exercise{Attempts: 2, Answer: json.RawMessage(`"a"`), Updated: 10}
	b.Exercises["x"] = Exercise{Passed: true, Attempts: 1, Answer: json.RawMessage(`"b"`), Updated: 20}
	b.Exercises["y"] = Exercise{Attempts: 1}

	m := Merge(a, b)
	l := m.Lesson("leases")
	assert.True(t, l.Completed)
	assert.Equal(t, []string{"g1", "g2", "g3"}, l.GoalsMet)
	assert.Equal(t, 3, l.HintsSeen)
	assert.JSONEq(t, `["a"]`, string(l.Log), "a's run is the later one")
	x := m.Exercise("x")
	assert.True(t, x.Passed)
	assert.Equal(t, 2, x.Attempts)
	assert.JSONEq(t, `"b"`, string(x.Answer), "b's answer is the later one")
	assert.Equal(t, 1, m.Exercise("y").Attempts)
	assert.Equal(t, Merge(a, b), Merge(Merge(a, b), b), "merging again changes nothing")
}

// FuzzMerge: merging any two documents Decode accepts loses nothing either
// holds, and saving the merge fails only by saying so.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"version":1,"lessons":{"leases":{"completed":true,"goalsMet":["a"]}}}`),
		[]byte(`{"version":1,"lessons":{"leases":{"goalsMet":["b"],"hintsSeen":2}},"x":1}`))
	f.Add([]byte(`{"version":1,"exercises":{"e":{"attempts":3,"updated":5}}}`), []byte(`{"version":1,"exercises":{"e":{"passed":true}}}`))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		a, err := Decode(x)
		if err != nil {
			return
		}
		b, err := Decode(y)
		if err != nil {
			return
		}
		m := Merge(a, b)
		for _, p := range []Progress{a, b} {
			for id, l := range p.Lessons {
				got := m.Lesson(id)
				require.True(t, got.Completed || !l.Completed, "lesson %q lost its completion", id)
				for _, g := range l.GoalsMet {
					require.Contains(t, got.GoalsMet, g)
				}
				require.GreaterOrEqual(t, got.HintsSeen, l.HintsSeen)
			}
			for id, e := range p.Exercises {
				got := m.Exercise(id)
				require.True(t, got.Passed || !e.Passed)
				require.GreaterOrEqual(t, got.Attempts, e.Attempts)
			}
		}
		if _, err := Encode(m); err != nil {
			require.ErrorContains(t, err, "cannot save")
		}
	})
}

// Issue 19, item 12: progress moves to another machine or browser by an
// exported file; importing adds to what is there and never removes.
func TestExportThenImportOnAnotherMachine(t *testing.T) {
	home := NewMemStore(nil, "")
	p := New()
	p.SetLesson("leases", Lesson{Completed: true, GoalsMet: []string{"lease-granted"}, HintsSeen: 2})
	p.RecordAttempt("no-fencing", true, true)
	_, _, err := Sync(home, p, nil)
	require.NoError(t, err)
	file, _, err := Export(home, nil)
	require.NoError(t, err)

	away := NewMemStore(nil, "")
	q := New()
	q.SetLesson("scheduler", Lesson{Completed: true})
	_, _, err = Sync(away, q, nil)
	require.NoError(t, err)
	merged, notice, err := Import(away, file, nil)
	require.NoError(t, err)
	assert.Empty(t, notice)
	assert.True(t, merged.Lesson("leases").Completed, "the imported lesson")
	assert.Equal(t, 2, merged.Lesson("leases").HintsSeen)
	assert.True(t, merged.Exercise("no-fencing").Passed)
	assert.True(t, merged.Lesson("scheduler").Completed, "what was there stays")

	again, _, err := Import(away, file, nil)
	require.NoError(t, err)
	assert.Equal(t, merged, again, "importing twice changes nothing")
	reopened, _ := Open(away, nil)
	assert.Equal(t, merged, reopened, "the import was saved")
}

func TestImportRefusesWhatIsNotProgress(t *testing.T) {
	s := NewMemStore([]byte(`{"version":1,"lessons":{"leases":{"completed":true}}}`), "")
	before := s.Data()
	for _, data := range []string{"", "not json", `{"version":7}`, `[1,2]`} {
		_, _, err := Import(s, []byte(data), nil)
		assert.Error(t, err, "%q", data)
	}
	_, _, err := Import(s, []byte(`{"version":7}`), nil)
	assert.ErrorContains(t, err, "the file is not LeaseLab progress: it is version 7")
	assert.Equal(t, before, s.Data(), "a refused import changes nothing")
}

// Change stamps are fixed in tests, so progress built twice is equal (a
// real clock may tick between the two).
func init() { now = func() int64 { return 1_000 } }

// TestDamagedProgressIsToldOnceNotAtEveryStart: once the damaged data is
// kept aside, the next start finds the fresh progress in its place: no
// second backup, no notice again.
func TestDamagedProgressIsToldOnceNotAtEveryStart(t *testing.T) {
	s := NewMemStore([]byte(`{"version":1,`), "")
	_, notice := Open(s, nil)
	require.Contains(t, notice, "could not be read")
	_, again := Open(s, nil)
	assert.Empty(t, again, "the notice does not come back")
	assert.Len(t, s.Backups(), 1, "kept aside once")
	assert.Equal(t, []byte(`{"version":1,`), s.Backups()[0], "the damaged data is what was kept")
}
