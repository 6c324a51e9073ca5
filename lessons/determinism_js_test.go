//go:build js && wasm

package lessons

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTraceHashesMatchNative computes every run's trace hash inside the
// browser and compares it with the native table make test-wasm passes in
// as the file named by LEASELAB_NATIVE_HASHES (written by
// TestTraceHashesAreDeterministic; wasmbrowsertest serves the host's files
// to the test binary).
func TestTraceHashesMatchNative(t *testing.T) {
	path := os.Getenv("LEASELAB_NATIVE_HASHES")
	require.NotEmpty(t, path, "LEASELAB_NATIVE_HASHES is not set: run this through make test-wasm, which computes the native table first")
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var native map[string]string
	require.NoError(t, json.Unmarshal(raw, &native))
	got := traceHashes(t)
	require.Len(t, got, len(native), "the same runs on both sides")
	for name, want := range native {
		assert.Equal(t, want, got[name], "%s: the browser's trace differs from the native one", name)
	}
	t.Logf("%d runs hash alike natively and in this browser", len(got))
}
