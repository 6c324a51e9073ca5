package progress

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// The saved document: decoding it (every refusal a DecodeError), encoding
// it, and validating what was decoded.

// DecodeError says why saved progress could not be read. [Decode] returns
// one for every input it refuses.
type DecodeError struct {
	Reason string // for the learner: short, no JSON jargon where avoidable
	Err    error  // the underlying error, if any
}

func (e *DecodeError) Error() string { return "progress: " + e.Reason }
func (e *DecodeError) Unwrap() error { return e.Err }

func refuse(err error, format string, args ...any) (Progress, bool, error) {
	return New(), false, &DecodeError{Reason: fmt.Sprintf(format, args...), Err: err}
}

// Decode reads a saved document. Empty input (nothing saved yet) gives new
// progress and no error. Input it cannot trust (not JSON, another version,
// wrong field types, too large, too deeply nested, values out of range)
// gives new progress and a *[DecodeError]; it never panics and never
// returns half-read progress. Fields it does not know are kept in Extra.
//
// Change stamps (Updated) more than a minute ahead of now are brought back
// to now, and negative ones to 0 (see boundStamps): a stamp is only an
// order, and one from the future must not outrank what the learner does
// next.
func Decode(b []byte) (Progress, error) {
	p, _, err := decode(b)
	return p, err
}

// decode is Decode, also reporting whether it bounded a stamp (so that
// Open writes the bounded progress back).
func decode(b []byte) (p Progress, bounded bool, err error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return New(), false, nil
	}
	if len(b) > MaxSize {
		return refuse(nil, "it is %d bytes, more than the %d allowed", len(b), MaxSize)
	}
	if !utf8.Valid(b) {
		return refuse(nil, "it is not text")
	}
	if d := depth(b); d > MaxDepth {
		return refuse(nil, "it is nested more than %d levels deep", MaxDepth)
	}
	// Read the version alone first, so a document of another version is
	// reported as such rather than as whatever field it fails on.
	var head struct {
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return refuse(err, "it is not valid progress data: damaged, or cut short")
	}
	var v int
	if len(head.Version) == 0 || json.Unmarshal(head.Version, &v) != nil {
		return refuse(nil, "it has no version number")
	}
	if v != Version {
		return refuse(nil, "it is version %d; this LeaseLab reads version %d", v, Version)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&p); err != nil {
		return refuse(err, "it is not valid progress data: damaged, or cut short")
	}
	if _, err := dec.Token(); err != io.EOF {
		return refuse(err, "it has data after the end of the document")
	}
	if err := p.validate(); err != nil {
		return refuse(err, "%v", err)
	}
	if p.Lessons == nil {
		p.Lessons = map[string]Lesson{}
	}
	if p.Exercises == nil {
		p.Exercises = map[string]Exercise{}
	}
	for id, l := range p.Lessons {
		if string(l.Log) == "null" {
			l.Log = nil
			p.Lessons[id] = l
		}
	}
	for id, e := range p.Exercises {
		if string(e.Answer) == "null" {
			e.Answer = nil
		}
		if string(e.Result) == "null" {
			e.Result = nil
		}
		p.Exercises[id] = e
	}
	return p, p.boundStamps(), nil
}

// Encode writes p as JSON (with Version set to the current version). It
// refuses progress that [Decode] would refuse, so nothing saved is unreadable.
func Encode(p Progress) ([]byte, error) {
	p.Version = Version
	if err := p.validate(); err != nil {
		return nil, fmt.Errorf("progress: cannot save: %w", err)
	}
	if p.Lessons == nil {
		p.Lessons = map[string]Lesson{}
	}
	if p.Exercises == nil {
		p.Exercises = map[string]Exercise{}
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("progress: cannot save: %w", err)
	}
	if len(b) > MaxSize {
		return nil, fmt.Errorf("progress: cannot save: %d bytes, more than the %d allowed", len(b), MaxSize)
	}
	if d := depth(b); d > MaxDepth {
		return nil, fmt.Errorf("progress: cannot save: nested more than %d levels deep", MaxDepth)
	}
	return b, nil
}

// validate checks the ranges that JSON types alone do not.
func (p *Progress) validate() error {
	if len(p.Lessons) > MaxEntries || len(p.Exercises) > MaxEntries {
		return errors.New("it lists more lessons or exercises than exist")
	}
	if err := checkExtra("the document", p.Extra); err != nil {
		return err
	}
	for id, l := range p.Lessons {
		if err := checkID("lesson", id); err != nil {
			return err
		}
		if len(l.GoalsMet) > MaxEntries || len(l.Knobs) > MaxEntries {
			return fmt.Errorf("lesson %q has too many goals or sliders", id)
		}
		for _, g := range l.GoalsMet {
			if err := checkID("goal", g); err != nil {
				return err
			}
		}
		if l.HintsSeen < 0 || l.HintsSeen > MaxHints {
			return fmt.Errorf("lesson %q has %d hints seen", id, l.HintsSeen)
		}
		for k, v := range l.Knobs {
			if err := checkID("slider", k); err != nil {
				return err
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("slider %q of lesson %q is not a number", k, id)
			}
		}
		if len(l.Log) > 0 && !json.Valid(l.Log) {
			return fmt.Errorf("the action log of lesson %q is not valid JSON", id)
		}
		if err := checkExtra("lesson "+strconv.Quote(id), l.Extra); err != nil {
			return err
		}
	}
	for id, e := range p.Exercises {
		if err := checkID("exercise", id); err != nil {
			return err
		}
		if e.Attempts < 0 || e.Attempts > math.MaxInt32 {
			return fmt.Errorf("exercise %q has %d attempts", id, e.Attempts)
		}
		if len(e.Answer) > 0 && !json.Valid(e.Answer) {
			return fmt.Errorf("the saved answer to exercise %q is not valid JSON", id)
		}
		if len(e.Result) > 0 && !json.Valid(e.Result) {
			return fmt.Errorf("the saved result of exercise %q is not valid JSON", id)
		}
		if e.HintsSeen < 0 || e.HintsSeen > MaxHints {
			return fmt.Errorf("exercise %q has %d hints seen", id, e.HintsSeen)
		}
		if err := checkExtra("exercise "+strconv.Quote(id), e.Extra); err != nil {
			return err
		}
	}
	return nil
}

// checkExtra checks fields kept for a newer LeaseLab: as many and as long
// names as any other map here, values that are JSON.
func checkExtra(where string, extra map[string]json.RawMessage) error {
	if len(extra) > MaxEntries {
		return fmt.Errorf("%s has too many fields", where)
	}
	for k, v := range extra {
		if err := checkID("field", k); err != nil {
			return err
		}
		if !json.Valid(v) {
			return fmt.Errorf("field %q of %s is not valid JSON", k, where)
		}
	}
	return nil
}

func checkID(kind, id string) error {
	if id == "" || len(id) > MaxIDLength || !utf8.ValidString(id) {
		return fmt.Errorf("it has a %s id that is empty, too long or not text", kind)
	}
	return nil
}

// depth returns the deepest nesting of arrays and objects in b, scanning
// bytes only (so a hostile document costs one pass, whatever its shape).
// It stops counting once past MaxDepth.
func depth(b []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			d++
			if d > deepest {
				deepest = d
				if deepest > MaxDepth {
					return deepest
				}
			}
		case c == ']' || c == '}':
			d--
		}
	}
	return deepest
}
