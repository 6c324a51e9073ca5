package lessons

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// answerFields are the keys an answer object may have, spelt exactly.
// encoding/json matches keys case-insensitively and takes null for "no
// value"; an answer is graded, so both are refused before decoding.
var answerFields = []string{"choices", "numbers", "schedule", "defence", "points"}

// actionFields are the keys one schedule entry may have (core.Timed).
var actionFields = []string{"at", "do", "proc", "peer", "for", "ttl", "value", "key", "label", "token", "on", "one_way"}

// strictShape checks what JSON types alone would let through: keys spelt
// exactly as documented, no null anywhere, no option picked twice. Each
// error names the field, as a path (choices.verdict[1]).
func strictShape(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("answer has trailing data after the JSON object")
	}
	top, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("answer must be a JSON object, not %s", jsonKind(v))
	}
	if err := noNull("", v); err != nil {
		return err
	}
	if err := exactKeys("", top, answerFields); err != nil {
		return err
	}
	if ch, ok := top["choices"].(map[string]any); ok {
		for _, q := range slices.Sorted(maps.Keys(ch)) {
			list, ok := ch[q].([]any)
			if !ok {
				continue // the decoder names the type error
			}
			for i, o := range list {
				if slices.Index(list, o) != i {
					return fmt.Errorf("choices.%s[%d]: option %v is picked twice", q, i, o)
				}
			}
		}
	}
	if sch, ok := top["schedule"].([]any); ok {
		for i, t := range sch {
			if m, ok := t.(map[string]any); ok {
				if err := exactKeys(fmt.Sprintf("schedule[%d].", i), m, actionFields); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func exactKeys(path string, m map[string]any, allowed []string) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if slices.Contains(allowed, k) {
			continue
		}
		for _, a := range allowed {
			if strings.EqualFold(a, k) {
				return fmt.Errorf("%s%s: unknown field (keys are case-sensitive: write %q)", path, k, a)
			}
		}
		return fmt.Errorf("%s%s: unknown field (want one of %s)", path, k, strings.Join(allowed, ", "))
	}
	return nil
}

func noNull(path string, v any) error {
	switch x := v.(type) {
	case nil:
		if path == "" {
			path = "answer"
		}
		return fmt.Errorf("%s: null is not a value here; leave the field out instead", path)
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			e, p := x[k], k
			if path != "" {
				p = path + "." + k
			}
			if err := noNull(p, e); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := noNull(fmt.Sprintf("%s[%d]", path, i), e); err != nil {
				return err
			}
		}
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

// jsonMarshal encodes an answer as ParseAnswer reads it.
func jsonMarshal(a Answer) ([]byte, error) { return json.Marshal(a) }
