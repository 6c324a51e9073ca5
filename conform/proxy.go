package conform

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Proxy sits between one etcd client and the server, so a test can do to
// that client's connection what a network or a stopped process would:
// Freeze holds every byte in both directions (a stalled TCP path: nothing
// is lost, it all arrives when the freeze ends), and Cut closes every
// connection and refuses new ones (the client must reconnect).
type Proxy struct {
	ln       net.Listener
	upstream string
	// Delay is added to every chunk in each direction (set it before use).
	Delay time.Duration

	bytes atomic.Int64 // forwarded, both directions

	mu     sync.Mutex
	frozen chan struct{} // closed when not frozen
	cut    bool
	conns  map[net.Conn]bool
}

// NewProxy listens on a free 127.0.0.1 port and forwards to upstream.
func NewProxy(upstream string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	open := make(chan struct{})
	close(open)
	p := &Proxy{ln: ln, upstream: upstream, frozen: open, conns: map[net.Conn]bool{}}
	go p.serve()
	return p, nil
}

// Addr is the address clients dial.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Close stops the proxy and its connections.
func (p *Proxy) Close() {
	p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
}

// Freeze holds all traffic for d, then lets it flow again.
func (p *Proxy) Freeze(d time.Duration) {
	p.mu.Lock()
	gate := make(chan struct{})
	p.frozen = gate
	p.mu.Unlock()
	time.AfterFunc(d, func() { close(gate) })
}

// Cut closes every connection now and refuses new ones for d.
func (p *Proxy) Cut(d time.Duration) {
	p.Down()
	time.AfterFunc(d, p.Up)
}

// Down closes every connection now and refuses new ones until Up: what
// clients see of a process that was killed.
func (p *Proxy) Down() {
	p.mu.Lock()
	p.cut = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
}

// Up accepts connections again.
func (p *Proxy) Up() {
	p.mu.Lock()
	p.cut = false
	p.mu.Unlock()
}

// Bytes is how many bytes the proxy has forwarded so far, both directions:
// which of a client's connections carries a stream shows as the one whose
// count grows while the client does nothing else.
func (p *Proxy) Bytes() int64 { return p.bytes.Load() }

func (p *Proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refused := p.cut
		p.mu.Unlock()
		if refused {
			c.Close()
			continue
		}
		go p.forward(c)
	}
}

func (p *Proxy) forward(c net.Conn) {
	u, err := net.Dial("tcp", p.upstream)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns[c], p.conns[u] = true, true
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go p.pump(u, c, done)
	go p.pump(c, u, done)
	<-done
	c.Close()
	u.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, u)
	p.mu.Unlock()
}

// pump copies src to dst, each chunk Delay after it was read, waiting
// while the proxy is frozen. A reader and a writer keep the delay a
// latency, not a rate limit.
func (p *Proxy) pump(dst, src net.Conn, done chan<- struct{}) {
	type chunk struct {
		b   []byte
		due time.Time
	}
	ch := make(chan chunk, 1024)
	go func() {
		defer close(ch)
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				ch <- chunk{append([]byte(nil), buf[:n]...), time.Now().Add(p.Delay)}
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() { done <- struct{}{} }()
	for c := range ch {
		time.Sleep(time.Until(c.due))
		p.mu.Lock()
		gate := p.frozen
		p.mu.Unlock()
		<-gate
		if _, err := dst.Write(c.b); err != nil {
			return
		}
		p.bytes.Add(int64(len(c.b)))
	}
}
