package deliver

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sync"
)

// Listeners are the addresses the Server serves on (Serve, ServeAdmin):
// those its webhooks, callbacks and proxy must never reach, since a
// request could otherwise drive the mock's admin API (or loop back into
// the mock) through them, whatever the allow list says.
type Listeners struct {
	mu   sync.Mutex // guards list
	list []listener
}

// listener is one address the Server serves on.
type listener struct {
	addr  netip.AddrPort
	admin bool // ServeAdmin's: the admin API alone
}

// Add records the address of ln while it is served; the function it
// returns forgets it. Listeners that are not TCP are not recorded: no
// outbound call can reach them.
func (ls *Listeners) Add(ln net.Listener, admin bool) (remove func()) {
	a, ok := ln.Addr().(*net.TCPAddr)
	if !ok {
		return func() {}
	}
	l := listener{addr: netip.AddrPortFrom(a.AddrPort().Addr().Unmap(), a.AddrPort().Port()), admin: admin}
	ls.mu.Lock()
	ls.list = append(ls.list, l)
	ls.mu.Unlock()
	return func() {
		ls.mu.Lock()
		defer ls.mu.Unlock()
		if i := slices.Index(ls.list, l); i >= 0 {
			ls.list = slices.Delete(ls.list, i, i+1)
		}
	}
}

// LocalAddr returns the local address net/http put in a request's
// context, or nil.
func LocalAddr(ctx context.Context) net.Addr {
	a, _ := ctx.Value(http.LocalAddrContextKey).(net.Addr)
	return a
}

// ArrivedOn returns the address of the listener a request came in on, as
// net/http puts it in the request's context (http.LocalAddrContextKey),
// or the zero AddrPort. The context of an outbound call carries that of
// the request that caused it.
func ArrivedOn(ctx context.Context) netip.AddrPort {
	a, _ := LocalAddr(ctx).(*net.TCPAddr)
	if a == nil {
		return netip.AddrPort{}
	}
	ap := a.AddrPort()
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
}

// Check returns why an outbound connection to ap would reach one of the
// Server's listeners, or nil. via, when valid, is the address the request
// that caused the call came in on: a listener of the mock's too, though
// it may not be one of Serve's (httptest, mocktest, a server of the
// caller's own). An address is taken to be a listener's
// when it has the listener's port and is the listener's address, a
// loopback or unspecified address, or (for a listener on 0.0.0.0 or ::)
// any address of this machine. That may refuse another service that
// shares a port with the mock on another local address; it never lets
// one of the mock's own through.
func (ls *Listeners) Check(ap, via netip.AddrPort) error {
	ip := ap.Addr().Unmap().WithZone("")
	ls.mu.Lock()
	list := slices.Clone(ls.list)
	ls.mu.Unlock()
	if via.IsValid() {
		list = append(list, listener{addr: via})
	}
	for _, l := range list {
		if l.addr.Port() != ap.Port() {
			continue
		}
		if ip == l.addr.Addr() || ip.IsLoopback() || ip.IsUnspecified() || l.addr.Addr().IsUnspecified() && isLocal(ip) {
			what := "the mock's own listener"
			if l.admin {
				what = "the mock's own admin listener"
			}
			return &RefusedError{Addr: ap, Why: "is " + what + " (" + l.addr.String() + "): nothing the mock sends goes there"}
		}
	}
	return nil
}

// isLocal reports whether ip is an address of one of this machine's
// network interfaces; when they cannot be listed, it says yes.
func isLocal(ip netip.Addr) bool {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return true
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if local, ok := netip.AddrFromSlice(n.IP); ok && local.Unmap() == ip {
				return true
			}
		}
	}
	return false
}
