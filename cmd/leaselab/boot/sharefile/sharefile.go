// Package sharefile writes a learner's shared answer to a file for the
// desktop, beside the progress file, as the page puts it in a link.
package sharefile

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"boot.leaselab/progress"
)

// shareID is what an exercise id may hold, so it names a file safely.
var shareID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// Write writes a shared answer to exercise id (its link, "#share=..."
// ) to share-ID.txt next to the progress file of store, or in dir when
// progress is kept in memory only, and says where, with how to use it.
func Write(store progress.Store, dir, id, link string) (path, where string, err error) {
	if !shareID.MatchString(id) {
		return "", "", fmt.Errorf("%q is not an exercise id", id)
	}
	if fs, ok := store.(*progress.FileStore); ok {
		dir = filepath.Dir(fs.Path)
	}
	if path, err = filepath.Abs(filepath.Join(dir, "share-"+id+".txt")); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(path, []byte(link+"\n"), 0o644); err != nil {
		return "", "", err
	}
	return path, fmt.Sprintf("Your answer is saved in %s. Send that file, or its link after LeaseLab's page address; labctl exercise %s --verify FILE grades it again.", path, id), nil
}
