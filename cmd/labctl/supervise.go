package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
)

// A Go runtime fatal error (out of memory, a stack overflow, a concurrent
// map write) cannot be recovered, and the runtime exits with 2, the code
// for bad input. So labctl runs its work in a child process and watches
// the child's stderr: a child that died of a fatal error (or was killed,
// as the kernel's OOM killer does) is reported in one line and exit 3.

// childEnv marks the child process, which does the work itself.
const childEnv = "LABCTL_CHILD"

// supervised runs the child cmd (stdin and stdout already set) with its
// stderr passed on to stderr, and returns labctl's exit code. Without
// debug, the runtime's goroutine dump after a fatal error is held back.
func supervised(cmd *exec.Cmd, stderr io.Writer, debug bool) int {
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return -1
	}
	if err := cmd.Start(); err != nil {
		return -1
	}
	// Ctrl+C reaches the child from the terminal; a TERM sent to labctl
	// alone is passed on. Either way the child decides how to stop.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		for s := range sig {
			if s != os.Interrupt {
				cmd.Process.Signal(s)
			}
		}
	}()
	fatal := ""
	sc := bufio.NewScanner(pipe)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if fatal == "" && (strings.HasPrefix(line, "fatal error:") || strings.HasPrefix(line, "panic:") || strings.HasPrefix(line, "runtime: out of memory")) {
			fatal = line
		}
		if fatal == "" || debug {
			fmt.Fprintln(stderr, line)
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case !errors.As(err, &exit):
		fmt.Fprintf(stderr, "labctl: internal error: %v\n", err)
		return exitInternal
	case fatal != "":
		fmt.Fprintf(stderr, "labctl: internal error: the program died: %s (this is a bug in LeaseLab, not in your input: please report it to %s with the command line; --debug shows the whole message)\n", fatal, reportAt)
		return exitInternal
	}
	if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		switch ws.Signal() {
		case syscall.SIGINT:
			return 130 // stopped with Ctrl+C, as a shell reports it
		case syscall.SIGPIPE:
			return 141 // its reader went away (labctl run ... | head): not a crash
		}
		fmt.Fprintf(stderr, "labctl: internal error: the program was killed (%v), perhaps for using too much memory; please report it to %s with the command line\n", ws.Signal(), reportAt)
		return exitInternal
	}
	return exit.ExitCode()
}

// supervise runs labctl itself as the child with args; ok is false when no
// child could be started (then the caller does the work in-process).
func supervise(args []string) (code int, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin, cmd.Stdout = os.Stdin, os.Stdout
	debug := false
	for _, a := range args {
		debug = debug || a == "--debug"
	}
	code = supervised(cmd, os.Stderr, debug)
	return code, code >= 0
}
