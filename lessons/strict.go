package lessons

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"leaselab/core"
)

// answerFields are the keys an answer object may have, spelt exactly.
// encoding/json matches keys case-insensitively and takes null for "no
// value"; an answer is graded, so both are refused before decoding.
var answerFields = []string{"choices", "numbers", "schedule", "chain", "defence", "points", "checks"}

// actionFields are the keys one schedule entry may have (core.Timed).
var actionFields = []string{"at", "do", "proc", "peer", "for", "ttl", "value", "key", "label", "token", "on", "one_way"}

// durationFields are the schedule keys that hold a duration.
var durationFields = []string{"at", "for", "ttl"}

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
	if err := fieldTypes(top); err != nil {
		return err
	}
	if ch, ok := top["choices"].(map[string]any); ok {
		for _, q := range slices.Sorted(maps.Keys(ch)) {
			list, _ := ch[q].([]any)
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
				for _, k := range slices.Sorted(maps.Keys(m)) {
					path := fmt.Sprintf("schedule[%d].%s", i, k)
					if str, ok := m[k].(string); ok && slices.Contains(durationFields, k) {
						if _, err := time.ParseDuration(str); err != nil {
							return fmt.Errorf("%s: %q is not a duration: write one like \"1.5s\" or \"250ms\", or a number of milliseconds", path, str)
						}
					}
					var t core.Timed
					if err := decodeAs(map[string]any{k: m[k]}, &t); err != nil {
						return fieldError(path, err)
					}
				}
			}
		}
	}
	return nil
}

// fieldTypes refuses a value of the wrong JSON type with its field's path
// and what it should be, before the decoder would (its errors name Go
// types and no path: "Go struct field Answer.numbers of type float64").
func fieldTypes(top map[string]any) error {
	for _, k := range slices.Sorted(maps.Keys(top)) {
		var a Answer
		if err := decodeAs(map[string]any{k: top[k]}, &a); err == nil {
			continue
		}
		switch x := top[k].(type) {
		case map[string]any:
			for _, id := range slices.Sorted(maps.Keys(x)) {
				path := k + "." + id
				switch k {
				case "numbers":
					if _, ok := x[id].(json.Number); !ok {
						return fmt.Errorf("%s: want a number, not %s", path, jsonKind(x[id]))
					}
				case "choices":
					list, ok := x[id].([]any)
					if !ok {
						return fmt.Errorf("%s: want a list of option ids, like [\"an-option\"], not %s", path, jsonKind(x[id]))
					}
					for i, o := range list {
						if _, ok := o.(string); !ok {
							return fmt.Errorf("%s[%d]: want an option id (a string), not %s", path, i, jsonKind(o))
						}
					}
				}
			}
		case []any:
			if k == "chain" {
				for i, p := range x {
					if n, ok := p.(json.Number); !ok || strings.ContainsAny(n.String(), ".eE") {
						return fmt.Errorf("chain[%d]: want an event number of your run (0, 1, ...), not %s", i, jsonKind(p))
					}
					if _, err := strconv.Atoi(p.(json.Number).String()); err != nil {
						return fmt.Errorf("chain[%d]: %s is no event number", i, p)
					}
				}
			}
			if k == "checks" {
				for i, c := range x {
					if _, ok := c.(string); !ok {
						return fmt.Errorf("checks[%d]: want a check written as a string, like \"bug if ...\", not %s", i, jsonKind(c))
					}
				}
			}
			if k == "points" {
				for i, p := range x {
					if n, ok := p.(json.Number); !ok || strings.ContainsAny(n.String(), ".eE") {
						return fmt.Errorf("points[%d]: want a key point's number (0, 1, ...), not %s", i, jsonKind(p))
					}
				}
			}
		}
		want := map[string]string{"choices": "an object of question ids", "numbers": "an object of number ids", "schedule": "a list of actions", "defence": "a string", "points": "a list of key point numbers", "checks": "a list of checks, each a string", "chain": "a list of event numbers"}[k]
		if _, ok := top[k].([]any); k == "schedule" && ok {
			continue // each entry is checked, field by field, below
		}
		return fmt.Errorf("%s: want %s, not %s", k, want, jsonKind(top[k]))
	}
	return nil
}

// decodeAs decodes v, re-encoded, into out.
func decodeAs(v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// fieldError words a decoding error of the field at path.
func fieldError(path string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		got := map[string]string{"array": "a list", "object": "an object", "bool": "true or false"}[te.Value]
		if got == "" {
			got = "a " + te.Value
		}
		return fmt.Errorf("%s: want %s, not %s", path, goKind(te.Type.Kind()), got)
	}
	return fmt.Errorf("%s: %v", path, err)
}

// goKind names a Go kind as a JSON value.
func goKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a number"
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
	case map[string]any:
		return "an object"
	case bool:
		return "a boolean"
	}
	return "null"
}

// jsonMarshal encodes an answer as ParseAnswer reads it.
func jsonMarshal(a Answer) ([]byte, error) { return json.Marshal(a) }
