package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// utf8BOM is the byte-order mark some Windows editors put before a UTF-8
// file's first character.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ErrDuplicateKey is wrapped by CleanJSON's error for an object that gives
// one key twice.
var ErrDuplicateKey = errors.New("a key given twice")

// CleanJSON prepares a learner's JSON (an action log, an exercise answer)
// for decoding: a leading byte-order mark is dropped, since the file is
// plain UTF-8 with it; and an object that gives a key twice is refused,
// naming the key and where it is, because encoding/json would silently keep
// the last value ({"for":"20s","for":"1s"} paused for 1 s). Syntax errors
// are left for the decoder, which words them. The walk keeps one entry per
// open object, so its memory is bounded by the input's size.
func CleanJSON(b []byte) ([]byte, error) {
	b = bytes.TrimPrefix(b, utf8BOM)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type level struct {
		object bool
		keys   map[string]bool
		index  int    // an array's next element
		path   string // where this value is ("" at the top)
		key    bool   // an object's next token is a key
	}
	var stack []level
	lastKey := ""
	for {
		tok, err := dec.Token()
		if err != nil {
			// io.EOF: the end. Anything else is a syntax error, which
			// the decoder that follows words in its own terms.
			return b, nil
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		path := ""
		if n := len(stack); n > 0 {
			top := &stack[n-1]
			if top.object && top.key {
				k, _ := tok.(string)
				if top.keys[k] {
					where := "the top-level object"
					if top.path != "" {
						where = top.path
					}
					return nil, duplicateKey(fmt.Sprintf("the key %q is given twice in %s; keep one", k, where))
				}
				top.keys[k], top.key, lastKey = true, false, k
				continue
			}
			if top.object {
				path, top.key = joinPath(top.path, lastKey), true
			} else {
				path = top.path + "[" + strconv.Itoa(top.index) + "]"
				top.index++
			}
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, level{object: d == '{', keys: map[string]bool{}, path: path, key: true})
		}
	}
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// duplicateKey is CleanJSON's error: its text says it all, and it is
// ErrDuplicateKey to errors.Is.
type duplicateKey string

func (e duplicateKey) Error() string        { return string(e) }
func (e duplicateKey) Is(target error) bool { return target == ErrDuplicateKey }
