package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestATextFieldTakesWhatIsTypedOnlyWhenFocused: characters go in,
// Backspace takes the last out (a whole character, not a byte), Enter
// is a new line and no longer an Enter, and the Max holds.
func TestATextFieldTakesWhatIsTypedOnlyWhenFocused(t *testing.T) {
	f := TextField{Max: 8}
	assert.False(t, f.Update(&Input{Chars: []rune("ab")}), "not focused: nothing typed")
	f.SetFocus(FocusVisible)
	assert.True(t, f.Update(&Input{Chars: []rune("té")}))
	assert.Equal(t, "té", f.Text)
	in := Input{Keys: KeysOf(IntentActivate), Chars: []rune{'\x07'}}
	f.Update(&in)
	assert.Equal(t, "té\n", f.Text, "Enter is a new line; a control character is dropped")
	assert.False(t, in.Keys.Has(IntentActivate), "the Enter was the field's")
	f.Update(&Input{Erase: 2})
	assert.Equal(t, "t", f.Text, "é goes whole")
	f.Update(&Input{Chars: []rune("123456789")})
	assert.Equal(t, "t1234567", f.Text, "at most 8 bytes")
}
