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
		return 1
	}
	if _, err := os.Stat(filepath.Join(*dir, "leaselab.wasm")); err != nil {
		fmt.Fprintf(stderr, "labctl serve: warning: %s has no leaselab.wasm yet; run: make wasm\n", *dir)
	}
	h, err := webserve.NewHandler(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "labctl serve: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "labctl serve: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl+C stops)\n", *dir, ln.Addr())
	if err := serve(ctx, ln, h); err != nil {
		fmt.Fprintf(stderr, "labctl serve: %v\n", err)
		return 1
	}
	return 0
}

// serve runs an HTTP server on ln until ctx ends, then shuts it down,
// giving requests in flight a few seconds to finish.
func serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
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
