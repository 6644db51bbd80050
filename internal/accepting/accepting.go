// Package accepting tells when a server first asks its listener for a
// connection: by then, plantmock's Serve and ServeAdmin have taken the
// listener's address for one of the mock's own, which no webhook,
// callback or proxied request reaches.
package accepting

import (
	"net"
	"sync"
)

// Listener is a net.Listener whose First is closed when Accept is first
// called.
type Listener struct {
	net.Listener
	first chan struct{}
	once  sync.Once
}

// New wraps ln.
func New(ln net.Listener) *Listener { return &Listener{Listener: ln, first: make(chan struct{})} }

// First is closed when Accept is first called.
func (l *Listener) First() <-chan struct{} { return l.first }

// Accept closes First, the first time, and accepts on the listener.
func (l *Listener) Accept() (net.Conn, error) {
	l.once.Do(func() { close(l.first) })
	return l.Listener.Accept()
}
