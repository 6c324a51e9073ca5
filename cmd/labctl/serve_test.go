package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
		{name: "missing dir", args: []string{"--dir", filepath.Join(dir, "nope")}, code: 2, stderr: "no such file"},
		{name: "dir without index", args: []string{"--dir", dir}, code: 2, stderr: "no index.html"},
		{name: "bad address", args: []string{"--dir", "SITE", "--addr", "256.0.0.1:http"}, code: 2, stderr: "labctl serve:"},
	}
	site := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(site, "index.html"), []byte("hi"), 0o644))
	for _, tt := range tests {
		for i, a := range tt.args {
			if a == "SITE" {
				tt.args[i] = site
			}
		}
		var stdout, stderr bytes.Buffer
		code := runServe(tt.args, &stdout, &stderr)
		assert.Equal(t, tt.code, code, "%s: stderr %q", tt.name, stderr.String())
		assert.Contains(t, stderr.String(), tt.stderr, tt.name)
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

// Issue 19, item 13: a slow reader is cut off at the write timeout instead
// of holding its connection; at most MaxConns connections are open at once;
// an address other machines can reach gets a warning.
func TestServeCutsOffASlowReader(t *testing.T) {
	old := serveLimits
	t.Cleanup(func() { serveLimits = old })
	serveLimits.Write = 300 * time.Millisecond

	site := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html>lab"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(site, "leaselab.wasm"), bytes.Repeat([]byte{0}, 32<<20), 0o644))
	h, err := webserve.NewHandler(site)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go serve(ctx, ln, h)

	c, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	fmt.Fprintf(c, "GET /leaselab.wasm HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n")
	time.Sleep(time.Second) // a reader that reads nothing for a while
	require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
	n, err := io.Copy(io.Discard, c)
	assert.NoError(t, err, "the server closed the connection (EOF), the client did not time out")
	assert.Less(t, n, int64(32<<20), "the download was cut short")
}

func TestServeCapsOpenConnections(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l := limitListener(ln, 2)
	defer l.Close()
	accepted := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		defer c.Close()
	}
	first, second := <-accepted, <-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted while two were open")
	case <-time.After(200 * time.Millisecond):
	}
	first.Close()
	select {
	case c := <-accepted:
		c.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("closing one connection did not let the third in")
	}
	second.Close()
}

func TestServeWarnsWhenReachableFromOtherMachines(t *testing.T) {
	assert.Empty(t, exposure(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}))
	assert.Empty(t, exposure(&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}))
	assert.Contains(t, exposure(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}), "reachable from other machines")
	assert.Contains(t, exposure(&net.TCPAddr{IP: net.IPv4(192, 168, 1, 5), Port: 8080}), "use --addr 127.0.0.1:8080")
}
