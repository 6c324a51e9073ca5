package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"leaselab/internal/webserve"
)

func TestRunServeUsageErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		args    []string
		code    int
		stderr  string
		prepare func()
	}{
		{name: "unknown flag", args: []string{"--port", "1"}, code: 2, stderr: "flag provided but not defined"},
		{name: "extra argument", args: []string{"web"}, code: 2, stderr: `unexpected argument "web"`},
		{name: "help", args: []string{"-h"}, code: 0, stderr: "usage: labctl serve"},
		{name: "missing dir", args: []string{"--dir", filepath.Join(dir, "nope")}, code: 1, stderr: "no such file"},
		{name: "dir without index", args: []string{"--dir", dir}, code: 1, stderr: "no index.html"},
		{name: "bad address", args: []string{"--dir", "SITE", "--addr", "256.0.0.1:http"}, code: 1, stderr: "labctl serve:"},
	}
	site := t.TempDir()
	if err := os.WriteFile(filepath.Join(site, "index.html"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		for i, a := range tt.args {
			if a == "SITE" {
				tt.args[i] = site
			}
		}
		var stdout, stderr bytes.Buffer
		if code := runServe(tt.args, &stdout, &stderr); code != tt.code {
			t.Errorf("%s: exit %d, want %d (stderr %q)", tt.name, code, tt.code, stderr.String())
		}
		if !strings.Contains(stderr.String(), tt.stderr) {
			t.Errorf("%s: stderr %q lacks %q", tt.name, stderr.String(), tt.stderr)
		}
	}
}

// TestServeShutsDownCleanly runs the same server loop runServe uses and
// checks it serves with the security headers, then stops when asked.
func TestServeShutsDownCleanly(t *testing.T) {
	site := t.TempDir()
	os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html>lab"), 0o644)
	os.WriteFile(filepath.Join(site, "leaselab.wasm"), []byte("\x00asm"), 0o644)
	h, err := webserve.NewHandler(site)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, h) }()

	res, err := http.Get("http://" + ln.Addr().String() + "/leaselab.wasm")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.Header.Get("Content-Type") != "application/wasm" || string(body) != "\x00asm" {
		t.Errorf("wasm: %q %q", res.Header.Get("Content-Type"), body)
	}
	if res.Header.Get("Content-Security-Policy") != webserve.ContentSecurityPolicy {
		t.Error("no CSP header")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}
