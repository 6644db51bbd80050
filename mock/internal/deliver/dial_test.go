package deliver

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"testing"
)

// fakeResolver resolves the names of the tests: no real DNS.
type fakeResolver map[string][]netip.Addr

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := f[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// TestDialResolvedAddress: a delivery to a name the allow list lets
// through is refused when the name resolves to an address the list does
// not open, before any connection is made, and is not tried again; one
// whose address the list opens is sent.
func TestDialResolvedAddress(t *testing.T) {
	rc := newReceiver(t, statuses(http.StatusNoContent))
	for _, c := range []struct {
		name     string
		allow    []string
		resolves string
		err      string // "": sent, and answered 204
	}{
		{"link-local while loopback is allowed", []string{"loopback", "hooks.test"}, "169.254.169.254",
			"refused: address 169.254.169.254:" + port(rc.URL) + " is a link-local or cloud metadata address; only a --webhook-allow entry naming it opens it"},
		{"IPv6 link-local", []string{"loopback", "hooks.test"}, "fe80::1",
			"refused: address [fe80::1]:" + port(rc.URL) + " is a link-local or cloud metadata address; only a --webhook-allow entry naming it opens it"},
		{"AWS metadata over IPv6", []string{"*", "loopback"}, "fd00:ec2::254",
			"refused: address [fd00:ec2::254]:" + port(rc.URL) + " is a link-local or cloud metadata address; only a --webhook-allow entry naming it opens it"},
		{"loopback while only the name is allowed", []string{"hooks.test"}, "127.0.0.1",
			"refused: address 127.0.0.1:" + port(rc.URL) + " is a loopback address, and --webhook-allow does not name loopback"},
		{"loopback under *", []string{"*"}, "127.0.0.1",
			"refused: address 127.0.0.1:" + port(rc.URL) + " is a loopback address, and --webhook-allow does not name loopback"},
		{"a name that resolves to nothing", []string{"*"}, "",
			"lookup hooks.test: no such host"},
		{"loopback, allowed", []string{"loopback", "hooks.test"}, "127.0.0.1", ""},
		{"loopback under * and loopback", []string{"*", "loopback"}, "127.0.0.1", ""},
		{"the address named", []string{"hooks.test", "127.0.0.1:" + port(rc.URL)}, "127.0.0.1", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			allow, err := NewAllowList(c.allow, nil)
			if err != nil {
				t.Fatal(err)
			}
			res := fakeResolver{}
			if c.resolves != "" {
				res["hooks.test"] = []netip.Addr{netip.MustParseAddr(c.resolves)}
			}
			s := newSender(t, Config{Resolver: res, Refuse: func(_ context.Context, ap netip.AddrPort) error { return allow.Address(ap) }})
			conns := rc.conns.Load()
			target := "http://hooks.test:" + port(rc.URL) + "/cb"
			if err := allow.Check("callback", target); err != nil {
				t.Fatalf("the name is refused: %v", err)
			}
			r := reports(make(chan Attempt, 1))
			if err := s.Send(Delivery{Op: hookOp(t, "open"), URL: target}, r.report); err != nil {
				t.Fatal(err)
			}
			a := r.next(t)
			status, sent := 0, 0
			if c.err == "" {
				status, sent = 204, 1
				<-rc.got
			}
			// A refusal is final; a failed look-up would be tried again,
			// had the sender retries.
			gaveUp := c.err == "lookup hooks.test: no such host"
			if a.Error != c.err || a.Status != status || a.N != 1 || a.GaveUp != gaveUp {
				t.Errorf("attempt: error %q, status %d, attempt %d, gave up %v\nwant error %q, status %d, attempt 1, gave up %v",
					a.Error, a.Status, a.N, a.GaveUp, c.err, status, gaveUp)
			}
			s.Close(context.Background()) // no more attempts
			r.none(t)
			if n := len(rc.got); n != 0 {
				t.Errorf("the receiver got %d requests more than %d", n, sent)
			}
			if got := rc.conns.Load() - conns; got != int64(sent) {
				t.Errorf("the receiver got %d connections, want %d", got, sent)
			}
		})
	}
}
