package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestFileStoreMissingFileIsNothingSaved(t *testing.T) {
	s := NewFileStore(filepath.Join(t.TempDir(), "no", "such", "progress.json"))
	b, err := s.Load()
	if b != nil || err != nil {
		t.Errorf("Load = %q, %v; want nil, nil", b, err)
	}
}

func TestFileStoreSaveLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "leaselab", "progress.json")
	s := NewFileStore(path)
	for _, data := range []string{`{"version":1,"a":1}`, `{"version":1}`} {
		if err := s.Save([]byte(data)); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load()
		if err != nil || string(got) != data {
			t.Errorf("Load after Save(%s) = %q, %v", data, got, err)
		}
	}
	// The temporary file was renamed away: only progress.json is left.
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "progress.json" {
		t.Errorf("directory holds %v, want only progress.json", entries)
	}
	if runtime.GOOS != "windows" {
		fi, _ := os.Stat(path)
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("progress.json has mode %v, want 0600 (it is the learner's data)", fi.Mode().Perm())
		}
	}
}

// A Save that fails part-way leaves the old file whole and no temporary.
func TestFileStoreFailedSaveKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "progress.json")
	s := NewFileStore(path)
	if err := s.Save([]byte("old")); err != nil {
		t.Fatal(err)
	}
	// Renaming a file over a directory fails after the temp file is written.
	bad := NewFileStore(filepath.Join(dir, "sub"))
	if err := os.Mkdir(bad.Path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad.Path, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := bad.Save([]byte("new")); err == nil {
		t.Fatal("Save over a non-empty directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	if got, _ := s.Load(); string(got) != "old" {
		t.Errorf("old progress is now %q", got)
	}
}

func TestFileStoreBackupNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "progress.json")
	s := NewFileStore(path)
	for i, old := range []string{"first{", "second{"} {
		if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
			t.Fatal(err)
		}
		where, err := s.Backup([]byte(old))
		if err != nil {
			t.Fatal(err)
		}
		if want := path + ".corrupt-" + string(rune('1'+i)); where != want {
			t.Errorf("backup %d went to %s, want %s", i+1, where, want)
		}
		if got, _ := os.ReadFile(where); string(got) != old {
			t.Errorf("backup holds %q, want %q", got, old)
		}
	}
}

// A file too large to load is moved aside whole, not truncated to what
// Load read.
func TestFileStoreBackupMovesOversizeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	big := bytes.Repeat([]byte("x"), MaxSize+100)
	if err := os.WriteFile(path, big, 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewFileStore(path)
	b, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != MaxSize+1 {
		t.Errorf("Load read %d bytes, want MaxSize+1", len(b))
	}
	where, err := s.Backup(b)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(where); !bytes.Equal(got, big) {
		t.Errorf("backup has %d bytes, want the whole %d", len(got), len(big))
	}
}

func TestOpenFileStoreCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	if err := os.WriteFile(path, []byte(`{"version":1,"lessons":{"a":{"completed":"yes"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewFileStore(path)
	p, notice := Open(s, nil)
	if !reflect.DeepEqual(p, New()) {
		t.Errorf("progress = %+v", p)
	}
	if !strings.HasPrefix(notice, "Your saved progress could not be read (") ||
		!strings.HasSuffix(notice, "The old data was kept as "+path+".corrupt-1.") {
		t.Errorf("notice = %q", notice)
	}
	// Saving fresh progress now replaces the corrupt file; the backup stays.
	if err := Save(s, p); err != nil {
		t.Fatal(err)
	}
	if q, notice := Open(s, nil); notice != "" || !reflect.DeepEqual(q, New()) {
		t.Errorf("after saving: %+v, %q", q, notice)
	}
	if _, err := os.Stat(path + ".corrupt-1"); err != nil {
		t.Error(err)
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	t.Setenv("HOME", "/home/learner")
	t.Setenv("AppData", `C:\Users\learner\AppData\Roaming`)
	p, err := DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "progress.json" || filepath.Base(filepath.Dir(p)) != "leaselab" {
		t.Errorf("DefaultPath = %s", p)
	}
}
