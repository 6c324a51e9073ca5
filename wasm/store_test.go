//go:build js && wasm

package main

import (
	"fmt"
	"reflect"
	"strings"
	"syscall/js"
	"testing"

	"boot.leaselab/progress"
)

// These tests run in Chromium through wasmbrowsertest (make test-wasm).

// jsEval returns the value of a JavaScript expression (the test page has
// no Content-Security-Policy, so Function works).
func jsEval(t *testing.T, expr string) js.Value {
	t.Helper()
	return js.Global().Get("Function").New("return (" + expr + ");").Invoke()
}

func TestBrowserStoreRoundTripInLocalStorage(t *testing.T) {
	ls := js.Global().Get("localStorage")
	clear := func() {
		ls.Call("removeItem", progressKey)
		ls.Call("removeItem", backupKey)
		for n := 2; n <= maxBackups; n++ {
			ls.Call("removeItem", fmt.Sprintf("%s-%d", backupKey, n))
		}
	}
	clear()
	t.Cleanup(clear)

	s := newBrowserStore()
	if _, ok := s.(*browserStore); !ok {
		t.Fatalf("newBrowserStore = %T, want the localStorage store", s)
	}
	p, notice := progress.Open(s, nil)
	if notice != "" || !reflect.DeepEqual(p, progress.New()) {
		t.Fatalf("first Open = %+v, %q", p, notice)
	}
	p.MeetGoal("fenced-writes", "stale-write-rejected")
	p.RecordAttempt("policy-check", true, true)
	if err := progress.Save(s, p); err != nil {
		t.Fatal(err)
	}
	if ls.Call("getItem", progressKey).IsNull() {
		t.Fatalf("nothing under localStorage[%q]", progressKey)
	}
	q, notice := progress.Open(newBrowserStore(), nil)
	if notice != "" || !reflect.DeepEqual(q, p) {
		t.Errorf("reopened = %+v, %q; want %+v", q, notice, p)
	}

	// Corrupt data is kept under the backup key, and the notice says so.
	ls.Call("setItem", progressKey, `{"version":1,"lessons":`)
	q, notice = progress.Open(newBrowserStore(), nil)
	if !reflect.DeepEqual(q, progress.New()) {
		t.Errorf("corrupt data gave %+v", q)
	}
	if !strings.Contains(notice, `The old data was kept as localStorage["leaselab.progress.corrupt"]`) {
		t.Errorf("notice = %q", notice)
	}
	if got := ls.Call("getItem", backupKey).String(); got != `{"version":1,"lessons":` {
		t.Errorf("backup = %q", got)
	}

	// A second corruption is kept beside the first, not over it (issue
	// 19, item 11).
	ls.Call("setItem", progressKey, `{"version":1,"exercises":`)
	_, notice = progress.Open(newBrowserStore(), nil)
	if !strings.Contains(notice, `kept as localStorage["leaselab.progress.corrupt-2"]`) {
		t.Errorf("second notice = %q", notice)
	}
	if got := ls.Call("getItem", backupKey).String(); got != `{"version":1,"lessons":` {
		t.Errorf("the first backup became %q", got)
	}
	if got := ls.Call("getItem", backupKey+"-2").String(); got != `{"version":1,"exercises":` {
		t.Errorf("second backup = %q", got)
	}
}

func TestBrowserStoreFallsBackToMemory(t *testing.T) {
	for name, win := range map[string]string{
		"getter throws":  `{get localStorage() { throw new DOMException("The operation is insecure.", "SecurityError") }}`,
		"setItem throws": `{localStorage: {getItem() { return null }, removeItem() {}, setItem() { throw new DOMException("full", "QuotaExceededError") }}}`,
		"missing":        `{}`,
		"null":           `{localStorage: null}`,
	} {
		t.Run(name, func(t *testing.T) {
			s := openStore(jsEval(t, win))
			p, notice := progress.Open(s, nil)
			if notice != noStorageNotice {
				t.Errorf("notice = %q", notice)
			}
			p.MeetGoal("l", "g")
			if err := progress.Save(s, p); err != nil {
				t.Fatal(err)
			}
			// Progress still lasts for the session.
			if q, _ := progress.Open(s, nil); !reflect.DeepEqual(q, p) {
				t.Errorf("reopened %+v, want %+v", q, p)
			}
		})
	}
}

// A Storage that starts refusing writes later (quota) makes Save fail with
// the browser's reason and leaves the old progress in place.
func TestBrowserStoreSaveErrorIsReported(t *testing.T) {
	fake := jsEval(t, `(() => { const m = new Map([["`+progressKey+`", '{"version":1}']]); let full = false; return {
		getItem(k) { return m.has(k) ? m.get(k) : null },
		removeItem(k) { m.delete(k) },
		setItem(k, v) { if (full) throw new DOMException("The quota has been exceeded.", "QuotaExceededError"); m.set(k, String(v)) },
		fill() { full = true },
	} })()`)
	win := js.Global().Get("Object").New()
	win.Set("localStorage", fake)
	s := openStore(win)
	if _, ok := s.(*browserStore); !ok {
		t.Fatalf("store = %T", s)
	}
	fake.Call("fill")
	err := progress.Save(s, progress.New())
	if err == nil || !strings.Contains(err.Error(), "QuotaExceededError") {
		t.Errorf("Save = %v, want the quota error", err)
	}
	if b, _ := s.Load(); string(b) != `{"version":1}` {
		t.Errorf("after a failed Save, storage holds %q", b)
	}
	if _, err := s.Backup([]byte("x")); err == nil {
		t.Error("Backup into a full storage succeeded")
	}
}
