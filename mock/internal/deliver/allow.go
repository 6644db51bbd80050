package deliver

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"
)

// AllowList says where webhooks and callbacks may go (--webhook-allow),
// by name before a delivery is queued, and by address when it connects.
// Entries are host names or addresses, host:port, *.domain for a
// domain's hosts, "loopback" for this machine's addresses, or * for any
// host. The default is loopback; the hosts of the webhooks' subscribers are
// always in it.
//
// Names are not enough: a name may resolve to anything. So a connection
// to a loopback (or unspecified) address is made only when the list has
// "loopback" (or "localhost", or that address), and one to a link-local
// address (169.254.0.0/16, fe80::/10) or a cloud metadata address only
// when the list names that address. * opens every name and every other
// address, not these.
type AllowList struct {
	any      bool
	loopback bool
	hosts    map[string]bool // lower-case host, or host:port; addresses in netip's form
	suffixes []string        // ".example.com"
}

// NewAllowList reads the entries of --webhook-allow; the hosts of urls
// (the subscribers given at start) are always in the list.
func NewAllowList(entries, urls []string) (AllowList, error) {
	a := AllowList{hosts: map[string]bool{}, loopback: len(entries) == 0}
	for _, e := range entries {
		e = strings.ToLower(strings.TrimSpace(e))
		switch {
		case e == "":
		case e == "*":
			a.any = true
		case e == "loopback":
			a.loopback = true
		case strings.HasPrefix(e, "*."):
			a.suffixes = append(a.suffixes, e[1:])
		case strings.ContainsAny(e, "/?#@ "):
			return AllowList{}, fmt.Errorf("%q is not a host, host:port, *.domain, loopback or *", clip(e, 60))
		default:
			a.add(e)
		}
	}
	for _, raw := range urls {
		if u, err := url.Parse(raw); err == nil {
			a.add(strings.ToLower(u.Hostname()))
		}
	}
	return a, nil
}

// add puts a host, an address or a host:port in the list.
func (a *AllowList) add(e string) {
	if ap, err := netip.ParseAddrPort(e); err == nil {
		e = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()).String()
	} else if ip, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
		e = ip.Unmap().String()
	}
	if e == "localhost" {
		a.loopback = true
	}
	a.hosts[e] = true
}

// Check returns why a webhook or callback (kind) may not go to target,
// by its URL, or nil. The addresses a name resolves to are checked when
// it connects (see Address).
func (a AllowList) Check(kind, target string) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http or https URL", clip(target, 100))
	}
	if u.User != nil {
		return fmt.Errorf("%q carries credentials; %ss do not send them", clip(u.Redacted(), 100), kind)
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		host = ip.Unmap().String()
		n, _ := strconv.ParseUint(port, 10, 16)
		if err := a.Address(netip.AddrPortFrom(ip, uint16(n))); err != nil {
			return err
		}
	}
	if a.any || a.hosts[host] || a.hosts[net.JoinHostPort(host, port)] {
		return nil
	}
	for _, suf := range a.suffixes {
		if strings.HasSuffix(host, suf) {
			return nil
		}
	}
	if a.loopback {
		if host == "localhost" {
			return nil
		}
		if ip, err := netip.ParseAddr(host); err == nil && (ip.IsLoopback() || ip.IsUnspecified()) {
			return nil
		}
	}
	return fmt.Errorf("host %s is not in the %s allow list (--webhook-allow)", clip(host, 100), kind)
}

// Address returns why a webhook or callback may not connect to ap, or
// nil; a zero port stands for any. It does not know the mock's own
// listeners: the caller's Refuse checks those too.
func (a AllowList) Address(ap netip.AddrPort) error {
	ip := ap.Addr().Unmap()
	if b := ip.As16(); ip.Is6() && [12]byte(b[:12]) == [12]byte{0, 0x64, 0xff, 0x9b} {
		// The well-known NAT64 prefix, 64:ff9b::/96 (RFC 6052): the
		// address reaches the IPv4 address in its last four bytes.
		ip = netip.AddrFrom4([4]byte(b[12:]))
	}
	if a.hosts[ip.String()] || ap.Port() != 0 && a.hosts[netip.AddrPortFrom(ip, ap.Port()).String()] {
		return nil
	}
	switch {
	case ip.IsLoopback() || ip.IsUnspecified():
		if a.loopback {
			return nil
		}
		return &RefusedError{Addr: ap, Why: "is a loopback address, and --webhook-allow does not name loopback"}
	case ip.IsLinkLocalUnicast() || isMetadata(ip):
		return &RefusedError{Addr: ap, Why: "is a link-local or cloud metadata address; only a --webhook-allow entry naming it opens it"}
	}
	return nil
}

// isMetadata reports whether ip is a cloud metadata service outside
// 169.254.0.0/16: AWS's over IPv6, or Alibaba Cloud's.
func isMetadata(ip netip.Addr) bool {
	s := ip.String()
	return s == "fd00:ec2::254" || s == "100.100.100.200"
}

// RefusedError is why an outbound connection was not made: the address
// it was to reach, and what forbids it ("is a loopback address, ...").
type RefusedError struct {
	Addr netip.AddrPort // port 0: any port
	Why  string
}

func (e *RefusedError) Error() string {
	if e.Addr.Port() == 0 {
		return "address " + e.Addr.Addr().String() + " " + e.Why
	}
	return "address " + e.Addr.String() + " " + e.Why
}

// clip shortens what a message quotes (see clip.To).
func clip(s string, n int) string { return cliptext.To(s, n) }
