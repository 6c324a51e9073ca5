package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		width float64
		want  []string
	}{
		{"fits", "a lease", 100, []string{"a lease"}},
		{"breaks between words", "the lease expired", 100, []string{"the lease", "expired"}},
		{"exact fit", "abcde fghij", 110, []string{"abcde fghij"}},
		{"one over", "abcde fghij", 109, []string{"abcde", "fghij"}},
		{"collapses spaces", "  fencing    token  ", 200, []string{"fencing token"}},
		{"paragraphs", "one\ntwo", 200, []string{"one", "two"}},
		{"blank line kept", "one\n\ntwo", 200, []string{"one", "", "two"}},
		{"empty text", "", 100, []string{""}},
		{"long word broken", "revision12345", 50, []string{"revis", "ion12", "345"}},
		{"long word after short", "a supercalifragilistic b", 60, []string{"a", "superc", "alifra", "gilist", "ic b"}},
		{"narrower than a rune", "abc", 5, []string{"a", "b", "c"}},
		{"multibyte runes", "ééééé", 30, []string{"ééé", "éé"}},
		{"zero width", "abc", 0, nil},
	}
	for _, tt := range tests {
		got := Wrap(tt.text, tt.width, mono)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Wrap(%q, %v) = %q, want %q", tt.name, tt.text, tt.width, got, tt.want)
		}
		for _, line := range got {
			if mono(line) > tt.width && len([]rune(line)) > 1 {
				t.Errorf("%s: line %q is wider than %v", tt.name, line, tt.width)
			}
		}
	}
}

func TestWrapKeepsEveryWord(t *testing.T) {
	text := "A lease is a promise with an end date: the coordinator lets one holder act until the lease runs out."
	for w := 10.0; w < 600; w += 7 {
		got := strings.Join(Wrap(text, w, mono), " ")
		if strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(text, " ", "") {
			t.Fatalf("width %v lost text: %q", w, got)
		}
	}
}

func ExampleWrap() {
	measure := func(s string) float64 { return float64(len(s)) } // one unit per byte
	for _, line := range Wrap("a fencing token only ever grows", 12, measure) {
		fmt.Printf("%q\n", line)
	}
	// Output:
	// "a fencing"
	// "token only"
	// "ever grows"
}

func TestEllipsize(t *testing.T) {
	tests := []struct {
		text  string
		width float64
		want  string
	}{
		{"Fork", 40, "Fork"},
		{"Fork here", 50, "Fork…"},
		{"Fork here", 60, "Fork…"}, // the space before the cut is dropped
		{"Fork here", 70, "Fork h…"},
		{"Fork", 10, "…"},
		{"Fork", 5, ""},
	}
	for _, tt := range tests {
		if got := Ellipsize(tt.text, tt.width, mono); got != tt.want {
			t.Errorf("Ellipsize(%q, %v) = %q, want %q", tt.text, tt.width, got, tt.want)
		}
	}
}

// A line too long for its box ends at its last clause that fits, with no
// ellipsis; one that fits is whole; a first clause too long is cut as
// Ellipsize cuts it.
func TestClausesEndAtAPauseInTheSentence(t *testing.T) {
	measure := func(s string) float64 { return float64(len(s)) }
	why := "lease policy leaves renewal margin: 2 x 5 s + 4 s = 14 s <= ttl 15 s (1 s to spare): one renewal can be missed"
	assert.Equal(t, why, Clauses(why, 200, measure))
	assert.Equal(t, "lease policy leaves renewal margin: 2 x 5 s + 4 s = 14 s <= ttl 15 s (1 s to spare)", Clauses(why, 100, measure))
	assert.Equal(t, "lease policy leaves renewal margin", Clauses(why, 60, measure))
	assert.Equal(t, Ellipsize(why, 20, measure), Clauses(why, 20, measure))
	assert.Equal(t, "a, b", Clauses("a, b, c", 5, measure), "a comma is a pause too")
}

// A sentence ends with one mark: a full stop added, or its own question
// or exclamation mark kept alone.
func TestASentenceEndsWithOneMark(t *testing.T) {
	assert.Equal(t, "Next lesson: Troubleshooting by the trace.", Sentence("Next lesson: Troubleshooting by the trace"))
	assert.Equal(t, "Next lesson: Hands-on: who decides that a token is stale?", Sentence("Next lesson: Hands-on: who decides that a token is stale?"))
	assert.Equal(t, "Done.", Sentence("Done."))
	assert.Equal(t, "Stop!", Sentence("Stop!"))
}
