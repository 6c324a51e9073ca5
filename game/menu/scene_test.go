package menu

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The menu's status column is narrow: a pass with the answer shown is
// "answer shown" there (it was cut to "passed with th…"), and the text
// view keeps the whole phrase.
func TestMenuShortensTheAnswerShownStatus(t *testing.T) {
	assert.Equal(t, "answer shown", menuStatus("passed with the answer shown"))
	assert.Equal(t, "tried once", menuStatus("tried once"))
}
