package progress

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// FileStore keeps progress in one file, written atomically: the new bytes
// go to a temporary file in the same directory, which is synced to disk and
// then renamed over the old file, so a crash or power cut leaves either the
// old progress or the new, never a torn file.
type FileStore struct {
	Path string
}

// DefaultPath is where the desktop program keeps progress:
// <user config dir>/leaselab/progress.json (on Linux
// $XDG_CONFIG_HOME/leaselab/progress.json, usually ~/.config/...).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "leaselab", "progress.json"), nil
}

// NewFileStore returns a store for the file at path (created on first Save,
// with its directory).
func NewFileStore(path string) *FileStore { return &FileStore{Path: path} }

// maxBackups bounds the .corrupt-N names tried, so a directory full of them
// cannot make Backup loop for long.
const maxBackups = 1000

// Load implements [Store]. It reads at most MaxSize+1 bytes, enough for
// [Decode] to refuse a file that is too large without reading all of it.
// A path that is not a regular file (a FIFO would block the read forever,
// a device never end) is an error, not read.
func (s *FileStore) Load() ([]byte, error) {
	fi, err := os.Stat(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", s.Path, fi.Mode().Type())
	}
	f, err := os.Open(s.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxSize+1))
}

// maxLinks bounds the symbolic links followed from Path, as the system
// does (a loop of links ends in an error, not a hang).
const maxLinks = 40

// target is the file Path names: Path itself, or, when Path is a symbolic
// link (a learner keeping progress.json in a synced folder), the file it
// leads to, which may not exist yet.
func (s *FileStore) target() (string, error) {
	path := s.Path
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil // not there yet, or not a link: write here
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: more than %d symbolic links in a row", s.Path, maxLinks)
}

// Save implements [Store]. When Path is a symbolic link, the file it leads
// to is replaced (atomically, in that file's directory) and the link stays:
// renaming over Path itself used to turn the link into a plain file.
func (s *FileStore) Save(b []byte) (err error) {
	path, err := s.target()
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*.tmp") // mode 0600
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(b); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename in dir durable. Best effort: some systems
// (Windows) cannot open a directory for syncing, and the rename itself has
// already happened.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Backup implements [Store]: it keeps the unreadable progress as
// <path>.corrupt-N, N from 1, never replacing an earlier backup. When the
// file on disk is larger than old (Load reads at most MaxSize+1 bytes, and
// nothing of a file it could not read), or is not a regular file, the file
// itself is moved there, so nothing of it is lost. When Path is a symbolic
// link, the backup is of the file it leads to, kept beside that file, and
// the link stays.
func (s *FileStore) Backup(old []byte) (string, error) {
	path, err := s.target()
	if err != nil {
		return "", err
	}
	for n := 1; n <= maxBackups; n++ {
		dst := fmt.Sprintf("%s.corrupt-%d", path, n)
		if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
			if err != nil {
				return "", err
			}
			continue
		}
		if fi, err := os.Lstat(path); err == nil && (fi.Size() > int64(len(old)) || !fi.Mode().IsRegular()) {
			if err := os.Rename(path, dst); err != nil {
				return "", err
			}
			syncDir(filepath.Dir(dst))
			return dst, nil
		}
		f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue // taken since the Lstat
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(old)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(dst)
			return "", err
		}
		return dst, nil
	}
	return "", fmt.Errorf("%d backups of %s already exist; delete some", maxBackups, path)
}
