package ui

import "strings"

// PlainLabel drops a canvas label's key hint ("Resume (Z)" is "Resume"):
// the page lists the keys in its own help.
func PlainLabel(s string) string {
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") && len(s)-i <= 8 {
		return s[:i]
	}
	return s
}

// RangeControl is the control for slider s, its value said as text.
func RangeControl(group, name, label string, s *Slider, text string) Control {
	return Control{ID: name, Group: group, Label: label, Kind: KindRange, Value: s.Value,
		Min: s.Min, Max: s.Max, Step: s.Step, Text: text, Disabled: s.Disabled}
}
