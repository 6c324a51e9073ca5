//go:build unix

package progress

import (
	"os"
	"path/filepath"
	"syscall"
)

// Lock implements [Locker] with an advisory lock on <path>.lock, held from
// Sync's read to its write, so two windows (or a window and labctl) saving
// at once take turns and each merges what the other saved.
func (s *FileStore) Lock() (func(), error) {
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(s.Path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
