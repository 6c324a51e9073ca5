package boot

import (
	"fmt"
	"io"
	"os"

	"boot.leaselab/inputfile"
	"boot.leaselab/lessonids"
	"boot.leaselab/progress"
)

// ProgressStore is the file store at path, or at the default path. Without
// a config directory (no $HOME) progress lives in memory, and the game shows
// why through the store's notice.
func ProgressStore(path string) progress.Store {
	if path == "" {
		p, err := progress.DefaultPath()
		if err != nil {
			return progress.NewMemStore(nil, "LeaseLab found no folder to save progress in ("+err.Error()+
				"), so it will last only until you quit. Start it with --progress FILE to choose one.")
		}
		path = p
	}
	return progress.NewFileStore(path)
}

// transferProgress exports the progress in store to the file export, or
// imports the file imp into it (merging: nothing saved is lost), reports on
// stdout and stderr, and returns the exit code: 0 done, 2 a file that
// cannot be read or written or is not progress, or saved progress that
// cannot be read (left as it is). Progress for a lesson or exercise this
// LeaseLab does not have is left out, and the learner told so.
//
// It runs in init, before Ebitengine, so that it needs no display; the ids
// it knows come from lessonids, as package lessons is not initialised yet.
func transferProgress(store progress.Store, export, imp string, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintln(stderr, "leaselab:", err)
		return 2
	}
	if export != "" && imp != "" {
		return fail(fmt.Errorf("give --export-progress or --import-progress, not both"))
	}
	if export != "" {
		data, notice, err := progress.Export(store, lessonids.Catalog())
		if err != nil {
			return fail(err)
		}
		if err := os.WriteFile(export, data, 0o600); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "progress written to %s (import it with leaselab --import-progress, or in the browser)\n", export)
		if notice != "" {
			fmt.Fprintln(stdout, notice)
		}
		return 0
	}
	data, err := inputfile.Read(imp, progress.MaxSize)
	if err != nil {
		return fail(err)
	}
	merged, notice, err := progress.Import(store, data, lessonids.Catalog())
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "progress imported from %s: %d lessons and %d exercises recorded here now\n", imp, len(merged.Lessons), len(merged.Exercises))
	if notice != "" {
		fmt.Fprintln(stdout, notice)
	}
	return 0
}
