package progress

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Store keeps the encoded document somewhere that outlives the program.
// Implementations: [FileStore] (desktop), the browser's localStorage store
// (package wasm), and [MemStore].
type Store interface {
	// Load returns the saved bytes, or nil and no error when nothing has
	// been saved yet.
	Load() ([]byte, error)
	// Save replaces the saved bytes. It must be atomic: after a crash the
	// store holds either the old bytes or the new ones, never a mix.
	Save(b []byte) error
	// Backup keeps a copy of bytes that could not be read, so a learner's
	// progress is never silently thrown away, and says where it went in
	// words the learner can follow (a file path, a localStorage key).
	Backup(old []byte) (where string, err error)
}

// Noticer is implemented by stores that have something to tell the learner
// about the store itself, for instance that progress will last only until
// the browser tab closes.
type Noticer interface {
	Notice() string
}

// Open loads progress from s, keeping only the lessons and exercises known
// lists (see [Catalog]). It always returns usable progress; notice, when
// not empty, is a sentence for the learner: why the saved progress was set
// aside (and where it was kept), what of it was left out, or why it will
// not be saved for long.
func Open(s Store, known *Catalog) (p Progress, notice string) {
	var storeNotice string
	if n, ok := s.(Noticer); ok {
		storeNotice = n.Notice()
	}
	l, err := load(s, known)
	switch {
	case err != nil:
	case l.setAside:
		// The damaged data is kept aside: the fresh progress takes its
		// place, so the next start reads that, rather than keeping the
		// damaged data aside again and saying so at every start.
		_ = Save(s, l.p) // a failed save leaves the next start to try again
	case l.repaired:
		// The same for what was left out; and a stamp brought back to
		// now is written, or the next read would bring it to a later
		// now, ahead of the learner's changes since. Another window may
		// be saving: merge, under the lock, as every save does.
		if merged, _, err := Sync(s, l.p, known); err == nil {
			l.p = merged
		}
	}
	return l.p, join(storeNotice, l.note)
}

// loaded is what load read.
type loaded struct {
	p Progress
	// raw is the bytes s held, when p is what they say (not repaired).
	raw []byte
	// note is for the learner: what was set aside or left out.
	note string
	// setAside reports that what s holds could not be read and was
	// kept aside (p is new progress); repaired, that p is what s holds
	// with ids left out or a stamp bounded.
	setAside, repaired bool
}

// load reads the progress in s for Open, Sync and Import. Saved data that
// cannot be read (an I/O error, no permission) or decoded is kept aside by
// s.Backup before anything else happens, so that no later save replaces
// it, and the note says so. If it cannot be kept, err says why, and
// nothing may be saved over it. Lessons and exercises known does not list
// are left out, and the note says so too.
func load(s Store, known *Catalog) (loaded, error) {
	b, err := s.Load()
	if err == nil {
		var l loaded
		var bounded bool
		if l.p, bounded, err = decode(b); err == nil {
			l.note = l.p.prune(known, "Your saved progress")
			l.repaired = bounded || l.note != ""
			if !l.repaired {
				l.raw = b
			}
			return l, nil
		}
	} else {
		b = nil // Backup then moves the unreadable file itself aside
		err = &DecodeError{Reason: err.Error(), Err: err}
	}
	where, berr := s.Backup(b)
	note := Message(err, where, berr)
	if berr != nil {
		return loaded{p: New(), note: note + " Nothing will be saved over it."}, fmt.Errorf("progress: not saved, so as not to replace saved progress that could not be read or kept aside: %w", berr)
	}
	return loaded{p: New(), note: note, setAside: true}, nil
}

// Save encodes p and saves it in s.
func Save(s Store, p Progress) error {
	b, err := Encode(p)
	if err != nil {
		return err
	}
	return saveEncoded(s, b)
}

func saveEncoded(s Store, b []byte) error {
	if err := s.Save(b); err != nil {
		return fmt.Errorf("progress: could not save: %w", err)
	}
	return nil
}

// Message is the sentence the learner sees when saved progress could not be
// decoded (err, from [Decode]) and was kept at where (or could not be kept:
// backupErr).
func Message(err error, where string, backupErr error) string {
	msg := "Your saved progress could not be read (" + reason(err) + "); starting fresh."
	switch {
	case backupErr != nil:
		msg += " The old data could not be kept: " + backupErr.Error() + "."
	case where != "":
		msg += " The old data was kept as " + where + "."
	}
	return msg
}

// join puts the notes that are not empty one after another.
func join(notes ...string) string {
	return strings.Join(slices.DeleteFunc(notes, func(n string) bool { return n == "" }), " ")
}

// MemStore keeps progress in memory: for tests, and as the fallback where
// nothing lasting is available. Set the Err fields to make its methods fail.
// It is safe for concurrent use.
type MemStore struct {
	mu      sync.Mutex
	data    []byte
	backups [][]byte
	notice  string

	LoadErr, SaveErr, BackupErr error
}

// NewMemStore returns a store holding data (nil: nothing saved) that
// reports notice through [Noticer] (empty: none).
func NewMemStore(data []byte, notice string) *MemStore {
	return &MemStore{data: clone(data), notice: notice}
}

// Notice implements [Noticer].
func (m *MemStore) Notice() string { return m.notice }

// Load implements [Store].
func (m *MemStore) Load() ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.LoadErr != nil {
		return nil, m.LoadErr
	}
	return clone(m.data), nil
}

// Save implements [Store].
func (m *MemStore) Save(b []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.SaveErr != nil {
		return m.SaveErr
	}
	m.data = clone(b)
	return nil
}

// Backup implements [Store]; the copies are in Backups.
func (m *MemStore) Backup(old []byte) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.BackupErr != nil {
		return "", m.BackupErr
	}
	m.backups = append(m.backups, clone(old))
	return fmt.Sprintf("memory backup %d", len(m.backups)), nil
}

// Data returns the saved bytes.
func (m *MemStore) Data() []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return clone(m.data)
}

// Backups returns the copies Backup kept, oldest first.
func (m *MemStore) Backups() [][]byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([][]byte, len(m.backups))
	for i, b := range m.backups {
		out[i] = clone(b)
	}
	return out
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}
