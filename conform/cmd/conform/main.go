// Command conform runs LeaseLab's conformance suite: every scenario on a
// real etcd and in the simulator, side by side.
//
//	conform                                  # on an embedded etcd per scenario
//	conform --endpoints 10.0.0.1:2379,...    # on a cluster you run
//	conform --run stalled-connection,leases  # some scenarios only
//	conform serve --listen 127.0.0.1:2379    # an etcd member, for --endpoints
//
// It exits 0 when every scenario conforms, 1 when one differs, and 2 for
// bad usage or an etcd it cannot reach.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"

	"leaselab/conform"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "serve" {
		return serve(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("conform", flag.ContinueOnError)
	fs.SetOutput(stderr)
	endpoints := fs.String("endpoints", "", "comma-separated host:port of an etcd cluster to run against (default: an embedded etcd per scenario)")
	only := fs.String("run", "", "comma-separated scenario names (default: all)")
	list := fs.Bool("list", false, "list the scenarios and exit")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conform [--endpoints host:port,...] [--run name,...] [--list]\n       conform serve [--listen 127.0.0.1:2379] [--peer 127.0.0.1:2380] [--data-dir DIR]")
		fmt.Fprintln(stderr, "\nRuns each scenario on a real etcd and in LeaseLab's simulator and prints both side by side.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conform: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *list {
		for _, sc := range conform.Scenarios {
			fmt.Fprintf(stdout, "%-24s %s\n", sc.Name, sc.Title)
		}
		return 0
	}
	scs, err := pickScenarios(*only)
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return 2
	}
	eps := splitEndpoints(*endpoints)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if len(eps) > 0 {
		// Fail fast, with the address, if the cluster is not there.
		if err := conform.Ping(ctx, eps); err != nil {
			fmt.Fprintf(stderr, "conform: %v\n", err)
			return 2
		}
	}
	results, errs := runAll(ctx, scs, eps)
	code := 0
	for i, sc := range scs {
		if errs[i] != nil {
			fmt.Fprintf(stderr, "conform: %s: %v\n", sc.Name, errs[i])
			code = 2
			continue
		}
		fmt.Fprint(stdout, results[i].Report())
		if !results[i].Conforms() && code == 0 {
			code = 1
		}
	}
	printTally(stdout, results, len(scs), eps)
	return code
}

// pickScenarios is the scenarios --run names, in its order (all of
// them for none).
func pickScenarios(only string) ([]*conform.Scenario, error) {
	if only == "" {
		return conform.Scenarios, nil
	}
	var scs []*conform.Scenario
	for _, name := range strings.Split(only, ",") {
		sc := conform.Find(strings.TrimSpace(name))
		if sc == nil {
			return nil, fmt.Errorf("unknown scenario %q (conform --list names them)", name)
		}
		scs = append(scs, sc)
	}
	return scs, nil
}

// splitEndpoints is --endpoints as a list, blanks dropped.
func splitEndpoints(list string) []string {
	var eps []string
	for _, ep := range strings.Split(list, ",") {
		if ep = strings.TrimSpace(ep); ep != "" {
			eps = append(eps, ep)
		}
	}
	return eps
}

// runAll runs the scenarios, four at a time on embedded members (ten
// etcd members at once starve two cores), one at a time on a shared
// cluster: there revisions are compared as offsets, which another
// scenario's writes would move.
func runAll(ctx context.Context, scs []*conform.Scenario, eps []string) ([]*conform.Result, []error) {
	results := make([]*conform.Result, len(scs))
	errs := make([]error, len(scs))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 4)
	for i, sc := range scs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i], errs[i] = runOne(ctx, sc, eps)
		}()
		if len(eps) > 0 {
			wg.Wait()
		}
	}
	wg.Wait()
	return results, errs
}

// printTally says how many scenarios conform, where, and on a shared
// cluster which cluster stories it cannot run.
func printTally(stdout io.Writer, results []*conform.Result, total int, eps []string) {
	where := "an embedded etcd 3.7.3 per scenario"
	if len(eps) > 0 {
		where = "etcd at " + strings.Join(eps, ",")
	}
	n := 0
	for _, r := range results {
		if r != nil && r.Conforms() {
			n++
		}
	}
	fmt.Fprintf(stdout, "%d of %d scenarios conform (%s)\n", n, total, where)
	if len(eps) > 0 {
		fmt.Fprintf(stdout, "skipped here: the %d cluster stories, which crash and cut off members of a cluster the suite starts itself (make test-conform runs them):\n", len(conform.ClusterStories))
		for _, c := range conform.ClusterStories {
			fmt.Fprintf(stdout, "  %s: %s\n", c.Test, c.Title)
		}
	}
}

func runOne(ctx context.Context, sc *conform.Scenario, eps []string) (*conform.Result, error) {
	start := func() ([]string, func(), error) { return eps, func() {}, nil }
	if len(eps) == 0 {
		start = conform.Embedded
	}
	results, err := conform.Conform(ctx, sc, start, conform.SimOptions{Seed: 1})
	if err != nil {
		return nil, err
	}
	return results[len(results)-1], nil
}

// serve runs a one-member etcd until interrupted: the cluster for a
// --endpoints run in another process.
func serve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:2379", "client address")
	peer := fs.String("peer", "127.0.0.1:2380", "peer address")
	dir := fs.String("data-dir", "", "data directory (default: a temporary one, removed on exit)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	srv, err := conform.StartServer(*dir, *listen, *peer)
	if err != nil {
		fmt.Fprintf(stderr, "conform serve: %v\n", err)
		return 2
	}
	defer srv.Close()
	fmt.Fprintf(stdout, "etcd ready on %s\n", srv.Client)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	<-ctx.Done()
	return 0
}
