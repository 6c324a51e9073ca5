package conform

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// Server is an etcd member started in this process on 127.0.0.1 with free
// ports and a temporary data directory, removed by Close.
type Server struct {
	etcd   *embed.Etcd
	dir    string
	Client string // host:port clients dial
}

// StartServer starts a one-member etcd on free loopback ports. dir "" makes
// a temporary directory that Close removes.
func StartServer(dir string, clientAddr, peerAddr string) (*Server, error) {
	own := dir == ""
	if own {
		d, err := os.MkdirTemp("", "leaselab-etcd-")
		if err != nil {
			return nil, err
		}
		dir = d
	}
	var err error
	if clientAddr == "" {
		if clientAddr, err = freeAddr(); err != nil {
			return nil, err
		}
	}
	if peerAddr == "" {
		if peerAddr, err = freeAddr(); err != nil {
			return nil, err
		}
	}
	cfg := embed.NewConfig()
	cfg.Name = "conform"
	cfg.Dir = dir
	// Only what stops the member; Close logs its listeners' shutdown as
	// errors, which is noise here.
	cfg.LogLevel = "panic"
	cu, pu := url.URL{Scheme: "http", Host: clientAddr}, url.URL{Scheme: "http", Host: peerAddr}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{cu}, []url.URL{cu}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{pu}, []url.URL{pu}
	cfg.InitialCluster = cfg.Name + "=" + pu.String()
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		if own {
			os.RemoveAll(dir)
		}
		return nil, fmt.Errorf("start embedded etcd: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(30 * time.Second):
		e.Close()
		return nil, fmt.Errorf("embedded etcd not ready after 30 s")
	}
	s := &Server{etcd: e, Client: clientAddr}
	if own {
		s.dir = dir
	}
	return s, nil
}

// Close stops the member and removes its temporary directory.
func (s *Server) Close() {
	s.etcd.Close()
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// Embedded starts a fresh one-member etcd for one run of a scenario (so its
// revisions start where a fresh etcd's do) and returns its endpoints and
// how to stop it: the start function Conform takes.
func Embedded() ([]string, func(), error) {
	srv, err := StartServer("", "", "")
	if err != nil {
		return nil, nil, err
	}
	return []string{srv.Client}, srv.Close, nil
}
