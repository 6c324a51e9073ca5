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
// progress file can be imported too.
func Export(s Store) ([]byte, error) {
	p, _, err := load(s)
	if err != nil {
		return nil, err
	}
	return Encode(p)
}

// Import merges the progress in data (an exported file) into s, saves it
// and returns the merge (see [Merge]): importing only adds, so nothing
// already saved is lost, and importing the same file twice changes nothing.
// A file that is not LeaseLab progress is refused with the reason, and s
// is left as it was.
func Import(s Store, data []byte) (Progress, string, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return Progress{}, "", errors.New("progress: the file to import is empty")
	}
	p, err := Decode(data)
	if err != nil {
		reason := err.Error()
		var de *DecodeError
		if errors.As(err, &de) {
			reason = de.Reason
		}
		return Progress{}, "", fmt.Errorf("progress: the file is not LeaseLab progress: %s", reason)
	}
	return Sync(s, p)
}
