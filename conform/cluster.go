package conform

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// Cluster is a three-member (or n-member) etcd started in this process on
// 127.0.0.1, with etcd's default timing (100 ms heartbeat, 1 s election
// timeout), so a test can crash, restart and cut off members and measure
// what leases and clients do. Each member's client port and peer port sit
// behind proxies of the cluster's own:
//
//   - clients dial Member.Client, a Proxy: Crash takes it Down, so clients
//     see their connections close at once, as they do when a process dies;
//   - peers dial the member's peer proxy, which reads the sender from the
//     X-Server-From header etcd's raft transport puts on every request
//     (rafthttp/stream.go:586, util.go:74), so Isolate can drop the raft
//     traffic between one member and the others, in both directions.
//
// A peer request without that header (the lease renewals a follower
// forwards to the leader over /leases, /members, /version) is refused when
// it goes to an isolated member and let through when it comes from one:
// the proxy cannot tell who sent it. Isolate is therefore a cut of raft
// traffic, which is what decides leadership, commits and reads.
type Cluster struct {
	Members []*Member
	token   string

	mu       sync.Mutex
	isolated map[string]bool // member ID -> cut off from the others
	conns    map[net.Conn]peerConn
}

// Member is one etcd of a Cluster.
type Member struct {
	Name   string
	Client string // host:port clients dial (the member's client proxy)
	ID     string // the member's ID as etcd writes it (hex)

	c          *Cluster
	dir        string
	clientAddr string // where the member itself listens for clients
	peerAddr   string // where it listens for peers
	client     *Proxy
	peer       *peerProxy
	etcd       *embed.Etcd
	closed     chan struct{} // closed when the last etcd has finished closing
}

// peerConn is a connection to a member's peer port: the sender's ID, and
// the member (whose ID is known only once it is ready, after the first
// connections).
type peerConn struct {
	from string
	to   *Member
}

// StartCluster starts n members and waits until they are all ready (the
// cluster has a leader and every member has published itself).
func StartCluster(n int) (*Cluster, error) {
	c := &Cluster{token: fmt.Sprintf("leaselab-%d", time.Now().UnixNano()), isolated: map[string]bool{}, conns: map[net.Conn]peerConn{}}
	var initial []string
	for i := range n {
		m := &Member{Name: fmt.Sprintf("m%d", i), c: c}
		c.Members = append(c.Members, m)
		var err error
		if m.dir, err = os.MkdirTemp("", "leaselab-etcd-cluster-"); err != nil {
			c.Close()
			return nil, err
		}
		if m.clientAddr, err = freeAddr(); err != nil {
			c.Close()
			return nil, err
		}
		if m.peerAddr, err = freeAddr(); err != nil {
			c.Close()
			return nil, err
		}
		if m.client, err = NewProxy(m.clientAddr); err != nil {
			c.Close()
			return nil, err
		}
		m.Client = m.client.Addr()
		if m.peer, err = newPeerProxy(c, m); err != nil {
			c.Close()
			return nil, err
		}
		initial = append(initial, m.Name+"=http://"+m.peer.ln.Addr().String())
	}
	for _, m := range c.Members {
		if err := m.start(strings.Join(initial, ",")); err != nil {
			c.Close()
			return nil, err
		}
	}
	for _, m := range c.Members {
		if err := m.ready(); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

func (m *Member) start(initial string) error {
	cfg := embed.NewConfig()
	cfg.Name = m.Name
	cfg.Dir = m.dir
	cfg.LogLevel = "panic"
	// etcd's defaults, stated: the figures the tests measure follow from them.
	cfg.TickMs, cfg.ElectionMs = 100, 1000
	cu := url.URL{Scheme: "http", Host: m.clientAddr}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{cu}, []url.URL{{Scheme: "http", Host: m.Client}}
	cfg.ListenPeerUrls = []url.URL{{Scheme: "http", Host: m.peerAddr}}
	cfg.AdvertisePeerUrls = []url.URL{{Scheme: "http", Host: m.peer.ln.Addr().String()}}
	cfg.InitialCluster = initial
	cfg.InitialClusterToken = m.c.token
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return fmt.Errorf("start embedded etcd member %s: %w", m.Name, err)
	}
	m.etcd = e
	m.closed = make(chan struct{})
	return nil
}

func (m *Member) ready() error {
	select {
	case <-m.etcd.Server.ReadyNotify():
		m.c.mu.Lock()
		if m.ID == "" { // a restart keeps its ID
			m.ID = m.etcd.Server.MemberID().String()
		}
		m.c.mu.Unlock()
		return nil
	case <-time.After(30 * time.Second):
		return fmt.Errorf("etcd member %s not ready after 30 s", m.Name)
	}
}

// Up says whether the member is running (started and not crashed).
func (m *Member) Up() bool {
	if m.etcd == nil {
		return false
	}
	select {
	case <-m.etcd.Server.StopNotify():
		return false
	default:
		return true
	}
}

// Leader is the index of the member this member believes leads, -1 for
// none (or when it is down).
func (m *Member) Leader() int {
	if !m.Up() {
		return -1
	}
	lead := m.etcd.Server.Leader().String()
	for i, o := range m.c.Members {
		if o.ID == lead {
			return i
		}
	}
	return -1
}

// Leader is the index of the member that the running members in among
// (all running members when among is empty) agree leads, itself included;
// -1 while they do not agree or none leads.
func (c *Cluster) Leader(among ...int) int {
	if len(among) == 0 {
		for i, m := range c.Members {
			if m.Up() {
				among = append(among, i)
			}
		}
	}
	lead := -1
	for _, i := range among {
		l := c.Members[i].Leader()
		if l < 0 || (lead >= 0 && l != lead) {
			return -1
		}
		lead = l
	}
	for _, i := range among {
		if i == lead {
			return lead
		}
	}
	return -1
}

// WaitLeader polls every 5 ms until the members in among agree on a leader
// from among them, and returns it and the moment they first agreed.
func (c *Cluster) WaitLeader(ctx context.Context, among ...int) (int, time.Time, error) {
	for {
		if l := c.Leader(among...); l >= 0 {
			return l, time.Now(), nil
		}
		select {
		case <-ctx.Done():
			return -1, time.Time{}, fmt.Errorf("no leader among members %v: %w", among, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Endpoints are the client addresses of the given members (all when none
// are given).
func (c *Cluster) Endpoints(members ...int) []string {
	if len(members) == 0 {
		for i := range c.Members {
			members = append(members, i)
		}
	}
	var eps []string
	for _, i := range members {
		eps = append(eps, c.Members[i].Client)
	}
	return eps
}

// Crash stops member i as a killed process stops: its clients' connections
// close at once, its peers can no longer reach it, and it hands nothing
// over. (A graceful Close would first move its leadership to a peer:
// EtcdServer.Stop calls TryTransferLeadershipOnShutdown, server.go:1331.)
// The member's files stay for Restart.
func (c *Cluster) Crash(i int) {
	m := c.Members[i]
	m.client.Down()
	c.setIsolated(m.ID, true)
	m.etcd.Server.HardStop()
	// Listeners and the rest close in the background: Close, on a
	// member that led, waits up to its request timeout for a leadership
	// transfer that cannot happen now.
	e, done := m.etcd, m.closed
	go func() {
		e.Close()
		close(done)
	}()
}

// Restart starts a crashed member again on its data directory and ports
// and waits until it is ready, which needs a quorum: etcd serves clients
// only once the member has published itself through raft (embed/serve.go:136).
func (c *Cluster) Restart(i int) error {
	m := c.Members[i]
	<-m.closed
	var initial []string
	for _, o := range c.Members {
		initial = append(initial, o.Name+"=http://"+o.peer.ln.Addr().String())
	}
	if err := m.start(strings.Join(initial, ",")); err != nil {
		return err
	}
	c.setIsolated(m.ID, false)
	m.client.Up()
	return m.ready()
}

// Isolate cuts member i off from its peers (raft traffic both ways) while
// it keeps serving its clients; Heal joins it again.
func (c *Cluster) Isolate(i int) { c.setIsolated(c.Members[i].ID, true) }

// Heal ends Isolate.
func (c *Cluster) Heal(i int) { c.setIsolated(c.Members[i].ID, false) }

func (c *Cluster) setIsolated(id string, cut bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id == "" {
		return
	}
	c.isolated[id] = cut
	if !cut {
		return
	}
	for conn, pc := range c.conns {
		if pc.from == id || pc.to.ID == id {
			conn.Close()
		}
	}
}

// Close stops every member and proxy and removes the data directories.
func (c *Cluster) Close() {
	var wg sync.WaitGroup
	for _, m := range c.Members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m.etcd != nil {
				if m.Up() {
					m.etcd.Close()
				} else {
					<-m.closed
				}
			}
			if m.client != nil {
				m.client.Close()
			}
			if m.peer != nil {
				m.peer.ln.Close()
			}
		}()
	}
	wg.Wait()
	c.mu.Lock()
	for conn := range c.conns {
		conn.Close()
	}
	c.mu.Unlock()
	for _, m := range c.Members {
		if m.dir != "" {
			os.RemoveAll(m.dir)
		}
	}
}

// peerProxy forwards one member's peer port and refuses the connections
// that Isolate cuts, telling senders apart by their X-Server-From header.
type peerProxy struct {
	ln net.Listener
	c  *Cluster
	m  *Member
}

func newPeerProxy(c *Cluster, m *Member) (*peerProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &peerProxy{ln: ln, c: c, m: m}
	go p.serve()
	return p, nil
}

func (p *peerProxy) serve() {
	for {
		conn, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.forward(conn)
	}
}

// forward reads the first request's header, decides, then copies both
// ways. One connection carries one member's requests only: each member
// has its own raft transport and connection pools.
func (p *peerProxy) forward(conn net.Conn) {
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(conn)
	head, from, err := readHead(br)
	conn.SetReadDeadline(time.Time{})
	if err != nil {
		conn.Close()
		return
	}
	p.c.mu.Lock()
	refused := p.c.isolated[p.m.ID] || (from != "" && p.c.isolated[from])
	if !refused {
		p.c.conns[conn] = peerConn{from, p.m}
	}
	p.c.mu.Unlock()
	if refused {
		conn.Close()
		return
	}
	up, err := net.Dial("tcp", p.m.peerAddr)
	if err == nil {
		p.c.mu.Lock()
		p.c.conns[up] = peerConn{from, p.m}
		p.c.mu.Unlock()
		done := make(chan struct{}, 2)
		go func() {
			if _, err := up.Write(head); err == nil {
				io.Copy(up, br)
			}
			done <- struct{}{}
		}()
		go func() {
			io.Copy(conn, up)
			done <- struct{}{}
		}()
		<-done
		up.Close()
	}
	conn.Close()
	p.c.mu.Lock()
	delete(p.c.conns, conn)
	delete(p.c.conns, up)
	p.c.mu.Unlock()
}

// readHead reads an HTTP request's line and header (at most 64 lines) and
// returns their bytes and the X-Server-From value ("" when absent).
func readHead(br *bufio.Reader) ([]byte, string, error) {
	var head []byte
	from := ""
	for range 64 {
		line, err := br.ReadString('\n')
		head = append(head, line...)
		if err != nil {
			return nil, "", err
		}
		if line == "\r\n" || line == "\n" {
			return head, from, nil
		}
		if k, v, ok := strings.Cut(line, ":"); ok && textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(k)) == "X-Server-From" {
			from = strings.TrimSpace(v)
		}
	}
	return nil, "", fmt.Errorf("peer request header longer than 64 lines")
}

// ClusterStories are the experiments on three members that only the test
// suite runs (cluster_test.go, `make test-conform`): each crashes, restarts
// or cuts off members, which conform --endpoints cannot do to a cluster
// the user runs. Each also runs the same story in the simulator and holds
// the real figures against its range (cluster_sim_test.go).
var ClusterStories = []struct{ Test, Title string }{
	{"TestANewEtcdLeaderReArmsEveryLease", "the leader member crashes while the holder is dead: a new leader re-arms every lease"},
	{"TestAnEtcdClusterWithoutQuorumExpiresNothing", "two of three members crash: no leader, nothing expires, requests give up after 7 s"},
	{"TestACutOffEtcdMemberServesAStaleSerializableRead", "a member cut off from its peers answers a serializable read with the old owner"},
	{"TestAnEtcdClientMovesToAnotherMember", "the member carrying a client's keepalive stream crashes: the client moves"},
	{"TestALeaderChangeDuringAPauseSavesThePausedHoldersLease", "the leader member crashes while the holder is paused past its TTL: the holder wakes to a live lease"},
}
