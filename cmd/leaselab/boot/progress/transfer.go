package progress

import (
	"bytes"
	"errors"
	"fmt"
)

// ExportName is the file name offered for exported progress.
const ExportName = "leaselab-progress.json"

// Export returns the progress in s as a document to keep or carry to
// another machine or browser: the same JSON the desktop saves, so a saved
// progress file can be imported too. Lessons and exercises known does not
// list are left out, and notice says so.
//
// Export only reads: saved progress it cannot read is an error (an
// *[UnreadableError]) and is left exactly as it is, neither exported as
// empty progress nor copied aside (each export used to write "progress
// written" over an empty file, and keep one more copy of the damage).
func Export(s Store, known *Catalog) (data []byte, notice string, err error) {
	b, err := s.Load()
	if err != nil {
		return nil, "", &UnreadableError{Reason: err.Error(), Err: err}
	}
	p, _, err := decode(b)
	if err != nil {
		return nil, "", &UnreadableError{Reason: reason(err), Err: err}
	}
	notice = p.prune(known, "Your saved progress")
	data, err = Encode(p)
	return data, notice, err
}

// UnreadableError is Export's error for saved progress it cannot read.
type UnreadableError struct {
	Reason string // why, for the learner
	Err    error
}

func (e *UnreadableError) Error() string {
	return "progress: the saved progress could not be read (" + e.Reason +
		"), so nothing was exported; it is left as it was. Starting LeaseLab keeps a copy of it aside and starts fresh"
}

func (e *UnreadableError) Unwrap() error { return e.Err }

// Import merges the progress in data (an exported file) into s, saves it
// and returns the merge (see [Merge]): importing only adds, so nothing
// already saved is lost, and importing the same file twice changes nothing.
// Lessons and exercises known does not list are left out, and notice says
// so. A file that is not LeaseLab progress is refused with the reason, and
// s is left as it was.
func Import(s Store, data []byte, known *Catalog) (Progress, string, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return Progress{}, "", errors.New("progress: the file to import is empty")
	}
	p, err := Decode(data)
	if err != nil {
		return Progress{}, "", fmt.Errorf("progress: the file is not LeaseLab progress: %s", reason(err))
	}
	left := p.prune(known, "The imported file")
	merged, notice, err := Sync(s, p, known)
	return merged, join(notice, left), err
}

// reason is a decoding error's reason for the learner, without the
// "progress: " prefix.
func reason(err error) string {
	var de *DecodeError
	if errors.As(err, &de) {
		return de.Reason
	}
	return err.Error()
}
