package deliver

import (
	"net"
	"net/netip"
	"testing"
)

// TestListenersCheck: which addresses count as the mock's own, for a
// listener on one address and for one on every address.
func TestListenersCheck(t *testing.T) {
	var local netip.Addr // an address of this machine that is not loopback
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
				local, _ = netip.AddrFromSlice(n.IP.To4())
				break
			}
		}
	}
	for _, c := range []struct {
		listen string
		own    []string // addresses, the listener's port added
		others []string
	}{
		{"127.0.0.1:0", []string{"127.0.0.1", "127.0.0.2", "::1", "0.0.0.0", "::", "::ffff:127.0.0.1"}, []string{"203.0.113.9", "10.1.2.3"}},
		{"0.0.0.0:0", []string{"127.0.0.1", "::1", "0.0.0.0", "::"}, []string{"203.0.113.9"}},
	} {
		t.Run(c.listen, func(t *testing.T) {
			ln, err := net.Listen("tcp", c.listen)
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			port := uint16(ln.Addr().(*net.TCPAddr).Port)
			var ls Listeners
			remove := ls.Add(ln, true)
			own := c.own
			if c.listen == "0.0.0.0:0" && local.IsValid() {
				own = append(own, local.String())
			}
			for _, a := range own {
				if err := ls.Check(netip.AddrPortFrom(netip.MustParseAddr(a), port), netip.AddrPort{}); err == nil {
					t.Errorf("%s port %d: not refused", a, port)
				}
			}
			for _, a := range c.others {
				if err := ls.Check(netip.AddrPortFrom(netip.MustParseAddr(a), port), netip.AddrPort{}); err != nil {
					t.Errorf("%s port %d: %v", a, port, err)
				}
			}
			if err := ls.Check(netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port+1), netip.AddrPort{}); err != nil {
				t.Errorf("another port: %v", err)
			}
			remove()
			if err := ls.Check(netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port), netip.AddrPort{}); err != nil {
				t.Errorf("once it is no longer served: %v", err)
			}
		})
	}
}
