package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"leaselab/internal/webserve"
)

// runServe implements `labctl serve`: it serves the web directory (the page
// and the WebAssembly build) on a local address until interrupted. It
// returns the process exit code: 0 after a clean shutdown, 1 if serving
// failed, 2 for bad usage.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("labctl serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on")
	dir := fs.String("dir", "web", "`directory` to serve (build it with: make wasm)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: labctl serve [--addr host:port] [--dir web]")
		fmt.Fprintln(stderr, "Serves LeaseLab in the browser, precompressed, under a strict Content-Security-Policy.")
		fmt.Fprintln(stderr, "Exit 0: stopped with Ctrl+C; 2: a directory or address that cannot be served; 3: the server failed.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "labctl serve: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if err := webserve.CheckDir(*dir); err != nil {
		fmt.Fprintf(stderr, "labctl serve: %s: %v\n", *dir, err)
		return exitBadInput
	}
	if _, err := os.Stat(filepath.Join(*dir, "leaselab.wasm")); err != nil {
		fmt.Fprintf(stderr, "labctl serve: warning: %s has no leaselab.wasm yet; run: make wasm\n", *dir)
	}
	h, err := webserve.NewHandler(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "labctl serve: %v\n", err)
		return exitBadInput
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "labctl serve: %v\n", err)
		return exitBadInput
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl+C stops)\n", *dir, ln.Addr())
	if w := exposure(ln.Addr()); w != "" {
		fmt.Fprintln(stderr, "labctl serve: warning:", w)
	}
	if err := serve(ctx, ln, h); err != nil {
		fmt.Fprintf(stderr, "labctl serve: %v\n", err)
		return exitInternal
	}
	return 0
}

// Limits of the server. The largest file is the .wasm, 19 MB raw (about
// 4 MB precompressed): WriteTimeout lets it reach a browser on a link of
// about 1.3 Mbit/s even uncompressed, and cuts off a reader slower than
// that instead of holding its connection for ever. MaxConns bounds how
// many connections a burst of slow clients can hold at once; the rest wait
// to be accepted.
var serveLimits = struct {
	ReadHeader, Read, Write, Idle time.Duration
	MaxConns                      int
}{10 * time.Second, 30 * time.Second, 2 * time.Minute, 30 * time.Second, 64}

// exposure warns when addr can be reached from other machines: the server
// is for this one (it has no authentication, and serves whatever is in
// --dir).
func exposure(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() {
		return ""
	}
	return fmt.Sprintf("%s is reachable from other machines on the network (anything in the directory is served to them); for this machine alone use --addr 127.0.0.1:%d", addr, tcp.Port)
}

// serve runs an HTTP server on ln until ctx ends, then shuts it down,
// giving requests in flight a few seconds to finish.
func serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: serveLimits.ReadHeader,
		ReadTimeout:       serveLimits.Read,
		WriteTimeout:      serveLimits.Write,
		IdleTimeout:       serveLimits.Idle,
	}
	ln = limitListener(ln, serveLimits.MaxConns)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// limitListener accepts at most n connections open at once: Accept waits
// until one of them closes, or the listener does.
func limitListener(ln net.Listener, n int) net.Listener {
	return &limited{Listener: ln, slots: make(chan struct{}, n), closed: make(chan struct{})}
}

type limited struct {
	net.Listener
	slots     chan struct{}
	closed    chan struct{}
	closeOnce sync.Once
}

func (l *limited) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

func (l *limited) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.closed:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &slotConn{Conn: c, release: func() { <-l.slots }}, nil
}

// slotConn gives its slot back once, on the first Close.
type slotConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
