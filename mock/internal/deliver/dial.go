// Package deliver sends webhooks and callbacks: a queue of deliveries,
// each sent after its delay and tried again after a failure, over
// connections checked at connect time, with the credentials the
// operation's security asks for. It knows nothing of sessions or
// journals: each attempt is told to the report function its delivery
// came with.
package deliver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// Resolver finds the addresses of a host name; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Dialer makes the connections of outbound calls (webhooks, callbacks,
// the proxy), refusing at connect time every address Refuse objects to. It resolves names itself, then connects to each address
// in turn; the check runs in the dialer's Control, on the address the
// socket is about to connect to, so that no name and no redirect can
// lead a call anywhere the check has not seen.
type Dialer struct {
	Resolve Resolver                                    // net.DefaultResolver; tests give their own
	Refuse  func(context.Context, netip.AddrPort) error // why a connection to an address may not be made, for the call of ctx
}

// DialContext connects to addr (host:port) over network, as
// http.Transport's DialContext does. A refused address is skipped for
// the next one; when none is left, the first refusal (a *RefusedError
// among its causes) is returned, else the first error.
func (g *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("port %q: %w", portStr, err)
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = g.Resolve.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, err
	}
	d := net.Dialer{
		Timeout:   30 * time.Second,
		KeepAlive: 30 * time.Second,
		ControlContext: func(ctx context.Context, _, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("connecting to %q: %w", address, err)
			}
			return g.Refuse(ctx, ap)
		},
	}
	var first error
	for _, ip := range ips {
		if network == "tcp4" && !ip.Unmap().Is4() || network == "tcp6" && ip.Is4() {
			continue
		}
		c, err := d.DialContext(ctx, network, netip.AddrPortFrom(ip, uint16(port)).String())
		if err == nil {
			return c, nil
		}
		if first == nil || errors.As(err, new(*RefusedError)) && !errors.As(first, new(*RefusedError)) {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	if first == nil {
		first = fmt.Errorf("%s has no address to connect to over %s", host, network)
	}
	return nil, first
}
