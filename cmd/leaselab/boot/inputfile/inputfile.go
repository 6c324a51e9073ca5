// Package inputfile reads a file a learner names on a command line (an
// action log, an answer, a progress file to import) the one safe way: only
// a regular file, and at most a stated number of bytes.
//
// Opening a FIFO blocks until something writes to it, and a device such as
// /dev/zero never ends, so a path that is not a regular file is refused
// before it is opened, with the kind of file it is; a file longer than the
// limit is refused without reading the rest of it.
//
// It lives in the module boot.leaselab (cmd/leaselab/boot) because the
// desktop program reads a progress file to import before Ebitengine starts
// (see package boot), and an internal package of the leaselab module could
// not be imported from there. It imports the standard library only.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by the error Read returns for a path that names
// a directory, a FIFO, a device or a socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error Read returns for a file of more than
// the limit's bytes.
var ErrTooLarge = errors.New("too large")

// Read returns the contents of the regular file at path, of at most limit
// bytes. A symbolic link is followed to what it names. The check and the
// open are two steps: a path replaced between them by a FIFO is caught by
// a second check on the opened file, which is opened without blocking.
func Read(path string, limit int64) ([]byte, error) {
	if err := regular(path, os.Stat); err != nil {
		return nil, err
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(path, fi.Mode())
	}
	return ReadLimited(f, path, limit)
}

// ReadLimited reads r to its end, refusing more than limit bytes; name says
// in the error what was read ("stdin", a path).
func ReadLimited(r io.Reader, name string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &wrapped{fmt.Sprintf("%s holds more than %d bytes, the most this input may have", name, limit), ErrTooLarge}
	}
	return b, nil
}

func regular(path string, stat func(string) (fs.FileInfo, error)) error {
	fi, err := stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return notRegular(path, fi.Mode())
	}
	return nil
}

func notRegular(path string, m fs.FileMode) error {
	return &wrapped{fmt.Sprintf("%s is %s, not a regular file", path, kind(m)), ErrNotRegular}
}

// wrapped is an error whose text is whole on its own and which still
// answers errors.Is for the named error it stands for.
type wrapped struct {
	msg string
	is  error
}

func (e *wrapped) Error() string { return e.msg }
func (e *wrapped) Unwrap() error { return e.is }

// kind names a file mode's type in words a learner knows.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}
