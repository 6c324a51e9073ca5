package core

import (
	"fmt"
	"strings"
)

// Title is the system's name as people write it.
func (s System) Title() string {
	switch s {
	case SystemEtcd:
		return "etcd"
	case SystemZooKeeper:
		return "ZooKeeper"
	case SystemConsul:
		return "Consul"
	case SystemKubernetes:
		return "Kubernetes"
	case SystemRedlock:
		return "Redlock"
	}
	return s.String()
}

// validateSystem lists what the chosen system refuses in a configuration
// (ttlOK: the TTL itself passed the shared checks): each system's own
// rules are its validateSandbox.
func (c SandboxConfig) validateSystem(ttlOK bool) []FieldError {
	var errs []FieldError
	if err := (CoordinatorSpec{System: c.System, Members: c.Members}).validateMembers(); err != nil {
		errs = append(errs, FieldError{Field: FieldMembers, Msg: strings.TrimPrefix(err.Error(), "world: ")})
	}
	if !c.System.known() {
		return append(errs, FieldError{Field: FieldSystem, Msg: fmt.Sprintf("the %s system is not modelled (want %s)", c.System, strings.Join(SystemNames(), ", "))})
	}
	return append(errs, c.System.rules().validateSandbox(c, ttlOK)...)
}

// Notes are what the chosen system will do differently from what the
// configuration asks: a ZooKeeper session timeout outside 4-40 s is
// clamped; a renewal interval is the client library's own.
func (c SandboxConfig) Notes() []string { return c.System.rules().notes(c) }

// OnSystem is the same world, scenario and actions on system s: what only
// etcd has is dropped (a first token, a recipe choice, a renewal
// period: the other systems number tokens and renew their own way), and
// Consul gets api.Lock's 15 s lock-delay where the world had none, as
// ZooKeeper, Kubernetes and Redlock lose any (they have none). A TTL the system refuses stays, for
// Validate to say so.
func (c SandboxConfig) OnSystem(s System) SandboxConfig {
	if s == c.System {
		return c
	}
	c.System = s
	s.rules().onSystem(&c)
	if !s.rules().clustered() {
		// Redlock's servers are independent Redis nodes, not members of
		// one coordinator: the same world there has none.
		c.Members = 0
	}
	return c
}
