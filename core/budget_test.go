package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A time in milliseconds too large for a Duration is refused; it used to
// wrap round to some other time.
func TestActionLogMillisecondsThatOverflowAreRefused(t *testing.T) {
	_, err := ParseActionLog([]byte(`[{"at":9223372036854775,"do":"crash","proc":"A"}]`))
	assert.ErrorIs(t, err, ErrOverflow)
	log, err := ParseActionLog([]byte(`[{"at":1500,"do":"crash","proc":"A"}]`))
	require.NoError(t, err)
	assert.Equal(t, 1500*time.Millisecond, log[0].At.D())
}
