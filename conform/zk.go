package conform

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ZKInstall is what to run when no ZooKeeper server (or no Java) is here.
const ZKInstall = "apt-get install -y zookeeper default-jre-headless"

// zkJars are the Debian package's jars: the server (its manifest names
// the rest of its class path) and a logger binding.
var zkJars = []string{"/usr/share/java/zookeeper.jar", "/usr/share/java/slf4j-nop.jar"}

// ZKServer is a standalone ZooKeeper server started for a test, on
// 127.0.0.1 with a free port, a fresh data directory and tickTime 2000
// (the sample configuration's): sessions of 4 to 40 s.
type ZKServer struct {
	Addr string
	cmd  *exec.Cmd
	dir  string
	out  *os.File
}

// StartZooKeeper starts the server and waits until it answers. A missing
// java or ZooKeeper jar is an error naming the install command.
func StartZooKeeper() (*ZKServer, error) {
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, fmt.Errorf("no java to run ZooKeeper with: %s", ZKInstall)
	}
	for _, j := range zkJars {
		if _, err := os.Stat(j); err != nil {
			return nil, fmt.Errorf("ZooKeeper is not installed (%s missing): %s", j, ZKInstall)
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "leaselab-zk-")
	if err != nil {
		return nil, err
	}
	cfg := filepath.Join(dir, "zoo.cfg")
	text := fmt.Sprintf("tickTime=2000\ndataDir=%s\nclientPort=%d\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n4lw.commands.whitelist=srvr\n", filepath.Join(dir, "data"), port)
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	out, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cmd := exec.Command(java, "-Xmx128m", "-XX:+UseSerialGC", "-cp", strings.Join(zkJars, ":"), "org.apache.zookeeper.server.ZooKeeperServerMain", cfg)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		out.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting ZooKeeper: %v (%s)", err, ZKInstall)
	}
	z := &ZKServer{Addr: fmt.Sprintf("127.0.0.1:%d", port), cmd: cmd, dir: dir, out: out}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if zkOK(z.Addr) {
			return z, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	log, _ := os.ReadFile(out.Name())
	z.Close()
	return nil, fmt.Errorf("ZooKeeper did not answer on %s within 60 s:\n%s", z.Addr, log)
}

// zkOK asks the server the four-letter word "srvr": it names the mode
// only once the server serves requests (an "imok" to "ruok" comes
// earlier, while it still refuses sessions).
func zkOK(addr string) bool { return strings.Contains(zkSrvr(addr), "Mode: standalone") }

func zkSrvr(addr string) string {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return ""
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("srvr")); err != nil {
		return ""
	}
	b, _ := io.ReadAll(c)
	return string(b)
}

// ZKLastZxid is the server's last zxid (from "srvr").
func ZKLastZxid(addr string) (int64, error) {
	out := zkSrvr(addr)
	i := strings.Index(out, "Zxid: 0x")
	if i < 0 {
		return 0, fmt.Errorf("no zxid in the server's srvr answer %q", out)
	}
	var z int64
	if _, err := fmt.Sscanf(out[i+len("Zxid: 0x"):], "%x", &z); err != nil {
		return 0, err
	}
	return z, nil
}

// Close stops the server and removes its data.
func (z *ZKServer) Close() {
	if z.cmd.Process != nil {
		z.cmd.Process.Kill()
		z.cmd.Wait()
	}
	z.out.Close()
	os.RemoveAll(z.dir)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
