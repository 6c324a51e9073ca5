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
// returns the process exit code: 0 after a clean shutdown, 2 for bad usage
// or a directory or address it cannot serve, 3 if serving failed.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("labctl serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on")
	dir := fs.String("dir", "web", "`directory` to serve (build it with: make wasm)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labctl serve [--addr host:port] [--dir web]")
		fmt.Fprintln(fs.Output(), "Serves LeaseLab in the browser, precompressed, under a strict Content-Security-Policy.")
		fmt.Fprintln(fs.Output(), "Exit 0: stopped with Ctrl+C; 2: a directory or address that cannot be served; 3: the server failed.")
		fs.PrintDefaults()
	}
	// A bad flag is one line, as in every other command; --help is the
	// whole usage.
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
			return 0
		}
		fmt.Fprintf(stderr, "labctl serve: %v (labctl serve --help lists the flags)\n", err)
		return exitBadInput
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "labctl serve: unexpected argument %q (labctl serve --help lists the flags)\n", fs.Arg(0))
		return exitBadInput
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
	if err := serve(ctx, ln, h, serveLimits); err != nil {
		fmt.Fprintf(stderr, "labctl serve: %v\n", err)
		return exitInternal
	}
	return 0
}

// limits bounds what one client can hold of the server. A learner's
// browser opens a few connections, sends its request at once and reads the
// answer as fast as its link allows; a client that sends nothing, or stops
// reading, must not keep others out.
type limits struct {
	// ReadHeader bounds the wait for a request once a connection is open,
	// or once its next request has begun (the whole request, since a GET or
	// HEAD has no body).
	ReadHeader time.Duration
	// Idle bounds the wait for the next request on a kept-alive connection.
	Idle time.Duration
	// Stall drops a connection whose client read nothing of the answer for
	// this long (exactly: the kernel took none of it, since only the
	// client's reading makes room). A client that keeps reading, however
	// slowly, keeps its connection: the deadline is renewed each time the
	// kernel takes more, so a learner on a poor link gets the whole .wasm.
	Stall time.Duration
	// MaxConns bounds the connections open at once. At the bound, a new
	// connection closes the one that has waited longest without a request
	// in progress, so idle connections can never keep a client out; only
	// MaxConns clients all being answered at once make a new one wait.
	MaxConns int
}

// serveLimits are the limits of `labctl serve`. The .wasm is the largest
// file (2.5 MB with brotli, 13 MB raw); with no whole-answer timeout, a
// learner on any link that moves a few tens of kilobytes in Stall (about
// 10 kbit/s) gets it, however long that takes.
// Browsers open at most six connections to a host, so 256 leave room for
// dozens of tabs and clients.
var serveLimits = limits{ReadHeader: 10 * time.Second, Idle: 30 * time.Second, Stall: 30 * time.Second, MaxConns: 256}

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

// serve runs an HTTP server on ln within lim until ctx ends, then shuts it
// down, giving requests in flight a few seconds to finish.
func serve(ctx context.Context, ln net.Listener, h http.Handler, lim limits) error {
	pool := newConnPool(ln, lim.MaxConns, lim.Stall)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeader,
		ReadTimeout:       lim.ReadHeader,
		IdleTimeout:       lim.Idle,
		// No WriteTimeout: a whole-answer deadline cuts off a learner on a
		// slow link; the pool's Stall drops only a client that stopped reading.
		ConnState: pool.track,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(pool) }()
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

// connPool is the server's listener: it keeps at most max connections open
// and learns from the server's ConnState hook which of them are waiting for
// a request (new, or kept alive between requests). A newcomer at the bound
// closes the one that has waited longest, so connections that send nothing
// cannot keep anyone out; when every connection is busy answering, the
// newcomer waits until one finishes or goes idle. (A client whose request
// arrives just as its idle connection is chosen sees it closed, as with any
// keep-alive timeout; browsers send the request again.)
type connPool struct {
	net.Listener
	max   int
	stall time.Duration

	mu      sync.Mutex
	open    map[*poolConn]struct{}
	changed chan struct{} // a connection closed or began waiting
	closed  chan struct{}
	once    sync.Once
}

func newConnPool(ln net.Listener, max int, stall time.Duration) *connPool {
	return &connPool{
		Listener: ln, max: max, stall: stall,
		open:    make(map[*poolConn]struct{}),
		changed: make(chan struct{}, 1),
		closed:  make(chan struct{}),
	}
}

func (p *connPool) Close() error {
	p.once.Do(func() { close(p.closed) })
	return p.Listener.Close()
}

func (p *connPool) Accept() (net.Conn, error) {
	c, err := p.Listener.Accept()
	if err != nil {
		return nil, err
	}
	for {
		p.mu.Lock()
		if len(p.open) < p.max {
			pc := &poolConn{Conn: c, pool: p, waiting: true, since: time.Now()}
			p.open[pc] = struct{}{}
			p.mu.Unlock()
			return pc, nil
		}
		victim := p.longestWaiting()
		p.mu.Unlock()
		if victim != nil {
			victim.Close()
			continue
		}
		select {
		case <-p.changed:
		case <-p.closed:
			c.Close()
			return nil, net.ErrClosed
		}
	}
}

// longestWaiting returns the open connection that has waited longest for a
// request, or nil if all are answering one. p.mu must be held.
func (p *connPool) longestWaiting() *poolConn {
	var victim *poolConn
	for c := range p.open {
		if c.waiting && (victim == nil || c.since.Before(victim.since)) {
			victim = c
		}
	}
	return victim
}

// track is the server's ConnState hook.
func (p *connPool) track(c net.Conn, state http.ConnState) {
	pc, ok := c.(*poolConn)
	if !ok {
		return
	}
	switch state {
	case http.StateClosed:
		p.remove(pc)
		return
	case http.StateActive, http.StateHijacked:
		p.mu.Lock()
		pc.waiting = false
		p.mu.Unlock()
		return
	}
	p.mu.Lock()
	if !pc.waiting && state == http.StateIdle {
		pc.waiting, pc.since = true, time.Now()
	}
	p.mu.Unlock()
	p.signal()
}

func (p *connPool) remove(pc *poolConn) {
	p.mu.Lock()
	delete(p.open, pc)
	p.mu.Unlock()
	p.signal()
}

func (p *connPool) signal() {
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

// poolConn is one connection of a connPool. Each write must hand the
// kernel some bytes within the pool's stall time, and the deadline is
// renewed each time it does: a slow reader gets the whole answer, a
// stalled one is dropped.
type poolConn struct {
	net.Conn
	pool *connPool
	once sync.Once
	// Guarded by pool.mu.
	waiting bool      // no request in progress
	since   time.Time // when it began waiting
}

func (c *poolConn) Write(b []byte) (int, error) {
	stall := c.pool.stall
	if stall <= 0 {
		return c.Conn.Write(b)
	}
	written := 0
	for {
		if err := c.Conn.SetWriteDeadline(time.Now().Add(stall)); err != nil {
			return written, err
		}
		n, err := c.Conn.Write(b[written:])
		written += n
		if n == 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
			return written, err
		}
		// The client took n bytes since the last deadline: slow, not stalled.
	}
}

// Close closes the connection and frees its place in the pool, once.
func (c *poolConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.pool.remove(c) })
	return err
}
