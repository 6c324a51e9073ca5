package ui

import (
	"strings"
	"unicode/utf8"
)

// Wrap breaks text into lines no wider than width, as measured by measure
// (for a font, text/v2's Advance). Each "\n" starts a new paragraph and an
// empty paragraph gives an empty line; runs of spaces collapse to one.
// Lines break between words; a word wider than width on its own is broken
// between characters (each line keeps at least one character, so wrapping
// always ends). A width of zero or less yields no lines.
func Wrap(text string, width float64, measure func(string) float64) []string {
	if width <= 0 {
		return nil
	}
	var lines []string
	for para := range strings.SplitSeq(text, "\n") {
		words := strings.Fields(para)
		if len(words) == 0 {
			lines = append(lines, "")
			continue
		}
		line := ""
		for _, w := range words {
			if line != "" {
				if cand := line + " " + w; measure(cand) <= width {
					line = cand
					continue
				}
				lines = append(lines, line)
			}
			// w starts a line; break it if it cannot fit on one.
			for measure(w) > width {
				n := fitPrefix(w, width, measure)
				if n == len(w) {
					break // a single rune wider than the line
				}
				lines = append(lines, w[:n])
				w = w[n:]
			}
			line = w
		}
		lines = append(lines, line)
	}
	return lines
}

// fitPrefix returns the byte length of the longest prefix of s (at least one
// rune) that fits in width.
func fitPrefix(s string, width float64, measure func(string) float64) int {
	_, first := utf8.DecodeRuneInString(s)
	best := first
	for i := range s {
		if i <= first {
			continue
		}
		if measure(s[:i]) > width {
			break
		}
		best = i
	}
	return best
}

// Ellipsis ends text that was cut to fit.
const Ellipsis = "…"

// Ellipsize returns text unchanged if it fits in width, otherwise its
// longest prefix (cut between characters, trailing spaces dropped) followed
// by [Ellipsis] that fits, or "" if not even the ellipsis fits.
func Ellipsize(text string, width float64, measure func(string) float64) string {
	if measure(text) <= width {
		return text
	}
	if measure(Ellipsis) > width {
		return ""
	}
	best := ""
	for i := range text {
		if cand := strings.TrimRight(text[:i], " ") + Ellipsis; measure(cand) <= width {
			best = cand
		} else if i > 0 {
			break
		}
	}
	if best == "" {
		return Ellipsis
	}
	return best
}

// Clauses shortens text to its longest run of whole clauses that fits in
// width: up to a colon, semicolon or comma (the mark dropped), so a line
// too long for its box ends at a pause in the sentence rather than
// mid-word with an ellipsis. Text that fits comes back whole; text whose
// first clause does not fit is Ellipsize's.
func Clauses(text string, width float64, measure func(string) float64) string {
	if measure(text) <= width {
		return text
	}
	best := ""
	for i := 0; i < len(text)-1; i++ {
		switch text[i] {
		case ':', ';', ',':
			if text[i+1] != ' ' {
				continue
			}
			if cand := strings.TrimRight(text[:i], " "); measure(cand) <= width {
				best = cand
			} else {
				i = len(text) // longer clauses fit no better
			}
		}
	}
	if best == "" {
		return Ellipsize(text, width, measure)
	}
	return best
}

// Sentence is s ended as a sentence: with a full stop, unless it ends
// with a mark of its own ("Next lesson: Hands-on: who decides that a
// token is stale?" read "stale?." with one added).
func Sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}
