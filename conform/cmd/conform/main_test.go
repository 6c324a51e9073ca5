package main

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

// conform --endpoints runs the suite against an etcd the user started: here
// "conform serve" in a second process. It conforms, says where it ran, and
// leaves no key behind.
func TestEndpointsAgainstASeparatelyStartedEtcd(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "conform")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run(), "go build ./cmd/conform")

	addr := freeAddr(t)
	srv := exec.Command(bin, "serve", "--listen", addr, "--peer", freeAddr(t), "--data-dir", t.TempDir())
	out, err := srv.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, srv.Start())
	t.Cleanup(func() {
		srv.Process.Signal(os.Interrupt)
		srv.Wait()
	})
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		ready <- line
	}()
	select {
	case line := <-ready:
		require.Contains(t, line, "etcd ready on "+addr)
	case <-time.After(30 * time.Second):
		t.Fatal("conform serve did not say it was ready within 30 s")
	}

	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "--endpoints", addr, "--run", "keepalive-cadence,leases,stalled-connection")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	require.NoError(t, err, "stderr: %s\nstdout: %s", stderr.String(), stdout.String())
	assert.Contains(t, stdout.String(), "3 of 3 scenarios conform (etcd at "+addr+")")
	assert.Contains(t, stdout.String(), "A learns, relative to B holding")
	assert.Contains(t, stdout.String(), "skipped here: the 5 cluster stories")
	assert.Contains(t, stdout.String(), "TestANewEtcdLeaderReArmsEveryLease: the leader member crashes")

	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{addr}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	require.NoError(t, err)
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	left, err := cli.Get(ctx, "/leaselab-conform/", clientv3.WithPrefix(), clientv3.WithCountOnly())
	require.NoError(t, err)
	assert.Zero(t, left.Count, "the suite deletes its keys afterwards")
}

// An etcd that is not there is a clear message and exit 2, not a hang.
func TestUnreachableEndpointsSayWhyAndExit2(t *testing.T) {
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run([]string{"--endpoints", freeAddr(t)}, &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr.String(), "does not answer (is it running?)")
	assert.Less(t, time.Since(start), 15*time.Second)
}

// Bad usage is exit 2 with the reason.
func TestBadUsage(t *testing.T) {
	for _, args := range [][]string{{"--run", "nope"}, {"stray"}, {"--bogus"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(args, &stdout, &stderr), "%v", args)
		assert.NotEmpty(t, strings.TrimSpace(stderr.String()), "%v says why", args)
	}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"--list"}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), "stalled-connection")
}
