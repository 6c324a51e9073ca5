package progress

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// The documents keep fields they do not know (see Version): each type
// decodes its known fields as usual and the rest into Extra, and writes
// Extra back beside them. A known name always wins over an Extra one.

func (p *Progress) UnmarshalJSON(b []byte) error {
	type plain Progress
	return decodeKeeping(b, (*plain)(p), &p.Extra)
}

func (p Progress) MarshalJSON() ([]byte, error) {
	type plain Progress
	return encodeKeeping(plain(p), p.Extra)
}

func (l *Lesson) UnmarshalJSON(b []byte) error {
	type plain Lesson
	return decodeKeeping(b, (*plain)(l), &l.Extra)
}

func (l Lesson) MarshalJSON() ([]byte, error) {
	type plain Lesson
	return encodeKeeping(plain(l), l.Extra)
}

func (e *Exercise) UnmarshalJSON(b []byte) error {
	type plain Exercise
	return decodeKeeping(b, (*plain)(e), &e.Extra)
}

func (e Exercise) MarshalJSON() ([]byte, error) {
	type plain Exercise
	return encodeKeeping(plain(e), e.Extra)
}

// decodeKeeping decodes object b into dst (a pointer to a struct without
// JSON methods) and every member dst has no field for into extra.
func decodeKeeping(b []byte, dst any, extra *map[string]json.RawMessage) error {
	if err := json.Unmarshal(b, dst); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	known := jsonNames(reflect.TypeOf(dst).Elem())
	*extra = nil
	for k, v := range all {
		// encoding/json matches names case-insensitively, so does this.
		if !slicesContainsFold(known, k) {
			if *extra == nil {
				*extra = map[string]json.RawMessage{}
			}
			(*extra)[k] = v
		}
	}
	return nil
}

// encodeKeeping encodes v (a struct without JSON methods) with the members
// of extra added after its own.
func encodeKeeping(v any, extra map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	known := jsonNames(reflect.TypeOf(v))
	var out bytes.Buffer
	out.Write(b[:len(b)-1]) // without the closing brace
	first := len(b) == 2    // "{}"
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		if slicesContainsFold(known, k) {
			continue
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		name, _ := json.Marshal(k)
		out.Write(name)
		out.WriteByte(':')
		out.Write(extra[k])
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// jsonNames lists the JSON names of t's fields.
func jsonNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = t.Field(i).Name
		}
		names = append(names, name)
	}
	return names
}

func slicesContainsFold(names []string, k string) bool {
	for _, n := range names {
		if strings.EqualFold(n, k) {
			return true
		}
	}
	return false
}
