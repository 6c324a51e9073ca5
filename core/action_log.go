package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Limits of an action log read from outside (a file, stdin, an answer).
// They are a permalink's (see permalink.DecodeLink), so a log that is read can be
// shared as a link; a real lesson run has a few dozen actions.
const (
	MaxActions       = 4096
	MaxActionLogSize = 1 << 20 // bytes of JSON
)

// ErrActionLog wraps every error of ParseActionLog.
var ErrActionLog = errors.New("action log")

// ParseActionLog reads a JSON array of timed actions and validates each.
// It is strict: an unknown field (a typo such as "from" for "for") is an
// error rather than an action quietly doing something else, and so is
// data after the array or a log past MaxActions or MaxActionLogSize.
func ParseActionLog(b []byte) (ActionLog, error) {
	bad := func(format string, a ...any) (ActionLog, error) {
		return nil, fmt.Errorf("%w: %s", ErrActionLog, fmt.Sprintf(format, a...))
	}
	if len(b) > MaxActionLogSize {
		return bad("%d bytes is more than the %d an action log may have", len(b), MaxActionLogSize)
	}
	b, err := CleanJSON(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrActionLog, err)
	}
	var log ActionLog
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&log); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrActionLog, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad("data after the end of the array")
	}
	if len(log) > MaxActions {
		return bad("%d actions is more than the %d a run may have", len(log), MaxActions)
	}
	for i, t := range log {
		if t.At < 0 {
			return nil, fmt.Errorf("action %d: negative time %s", i+1, time.Duration(t.At))
		}
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("action %d: %w", i+1, err)
		}
	}
	return log, nil
}

// D returns the duration as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }
