package progress

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
)

// Merge combines two copies of the learner's progress (two windows, two
// browser tabs, or a copy brought from another machine) without losing
// anything either holds. Completion only grows: a lesson or goal done in
// either is done, the deeper hint rung and the larger attempt count stand,
// and an exercise passed in either is passed (with or without the answer
// shown), its model answer revealed in either is revealed. Of the two runs of a lesson
// (its log and sliders) and the two answers to an exercise, the one
// changed later (Updated) is kept; on a tie, b's. Fields a newer LeaseLab
// wrote are kept from both, b's on a clash.
func Merge(a, b Progress) Progress {
	out := New()
	out.Extra = mergeExtra(a.Extra, b.Extra)
	for _, id := range unionKeys(a.Lessons, b.Lessons) {
		x, y := a.Lessons[id], b.Lessons[id]
		l := y
		if x.Updated > y.Updated {
			l = x
		}
		l.Completed = x.Completed || y.Completed
		l.GoalsMet = slices.Clone(x.GoalsMet)
		for _, g := range y.GoalsMet {
			if !slices.Contains(l.GoalsMet, g) {
				l.GoalsMet = append(l.GoalsMet, g)
			}
		}
		l.HintsSeen = max(x.HintsSeen, y.HintsSeen)
		l.Updated = max(x.Updated, y.Updated)
		l.Extra = mergeExtra(x.Extra, y.Extra)
		out.Lessons[id] = l
	}
	for _, id := range unionKeys(a.Exercises, b.Exercises) {
		x, y := a.Exercises[id], b.Exercises[id]
		e := y
		if x.Updated > y.Updated {
			e = x
		}
		e.Passed = x.Passed || y.Passed
		e.PassedWithAnswer = x.PassedWithAnswer || y.PassedWithAnswer
		e.Complete = x.Complete || y.Complete
		e.Revealed = x.Revealed || y.Revealed
		e.HintsSeen = max(x.HintsSeen, y.HintsSeen)
		e.Attempts = max(x.Attempts, y.Attempts)
		e.Updated = max(x.Updated, y.Updated)
		e.Extra = mergeExtra(x.Extra, y.Extra)
		out.Exercises[id] = e
	}
	return out
}

func unionKeys[V any](a, b map[string]V) []string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func mergeExtra[V any](a, b map[string]V) map[string]V {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := maps.Clone(a)
	if out == nil {
		out = map[string]V{}
	}
	maps.Copy(out, b)
	return out
}

// Sync saves p in s merged with what s holds now, and returns the merged
// progress, which the caller should adopt: another window may have saved
// since p was loaded, and its progress is kept, not overwritten. A store
// that can lock (a file) is locked from the read to the write. Lessons and
// exercises known does not list are left out (see [Catalog]). When the
// merge is what s holds already, nothing is written, so two browser tabs
// that sync on each other's writes come to rest.
//
// What s holds but cannot be read or decoded is kept aside first
// ([Store.Backup]); notice then says so. If it cannot be kept, Sync saves
// nothing and returns an error: the learner's saved progress is never
// replaced by a save that could not read it.
func Sync(s Store, p Progress, known *Catalog) (merged Progress, notice string, err error) {
	if l, ok := s.(Locker); ok {
		unlock, err := l.Lock()
		if err != nil {
			return p, "", fmt.Errorf("progress: could not save: %w", err)
		}
		defer unlock()
	}
	stored, err := load(s, known)
	if err != nil {
		return p, stored.note, err
	}
	merged = Merge(stored.p, p)
	merged.prune(known, "")
	b, err := Encode(merged)
	if err != nil {
		return p, stored.note, err
	}
	if bytes.Equal(b, stored.raw) {
		return merged, stored.note, nil
	}
	if err := saveEncoded(s, b); err != nil {
		return p, stored.note, err
	}
	return merged, stored.note, nil
}

// Locker is implemented by stores that can keep other processes from
// saving between a read and a write.
type Locker interface {
	// Lock waits for the lock and returns the function that releases it.
	Lock() (unlock func(), err error)
}
