package admin

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// adminGuard decides which callers the admin API answers. A browser page
// may call it only from the admin API's own origin, or from an origin
// named in Options.Admin.CORS; and every call must name, in its Host
// header, an IP address, localhost, or a host of Options.Admin.AllowedHosts.
//
// The first rule keeps the web pages a developer visits from reading the
// journal or changing the mock's state while it runs next to their
// browser: browsers say where a call comes from in Sec-Fetch-Site and
// Origin, which a page cannot forge, and the rule holds whether the call
// is a CORS request or a no-cors one whose answer the page never reads
// (a text/plain POST /__admin/reset). The second rule defeats DNS
// rebinding, where a page's own host name is made to resolve to the
// mock's address so that its calls count as same-origin: such a call
// carries the page's host name, which the mock does not know. Both are
// the rules of front-end development servers (webpack's, Vite's).
type adminGuard struct {
	origins  map[string]bool // Options.Admin.CORS, normalised (see origin)
	hosts    map[string]bool // Options.Admin.AllowedHosts, lower case, without port
	anyHost  bool            // "*" in Options.Admin.AllowedHosts
	suffixes []string        // ".example.com" for "*.example.com"
}

// BadOption is the error of an option the admin API cannot use: Name
// is the flag's.
type BadOption struct {
	Name string
	Err  error
}

func (e *BadOption) Error() string { return e.Name + ": " + e.Err.Error() }
func (e *BadOption) Unwrap() error { return e.Err }

// newAdminGuard checks and keeps the origins and hosts of opts.
func newAdminGuard(opts Options) (adminGuard, error) {
	g := adminGuard{origins: map[string]bool{}, hosts: map[string]bool{}}
	for _, o := range opts.CORS {
		n, ok := origin(o)
		if !ok {
			return adminGuard{}, &BadOption{Name: "admin-cors", Err: fmt.Errorf("%q is not an origin: write it as scheme://host[:port], as browsers send it in Origin", cliptext.To(o, 100))}
		}
		g.origins[n] = true
	}
	for _, h := range opts.AllowedHosts {
		h = strings.ToLower(strings.TrimSpace(h))
		switch {
		case h == "*":
			g.anyHost = true
		case strings.HasPrefix(h, "*.") && validHost(h[2:]):
			g.suffixes = append(g.suffixes, h[1:])
		case validHost(h):
			g.hosts[h] = true
		default:
			return adminGuard{}, &BadOption{Name: "allowed-host", Err: fmt.Errorf("%q is not a host name: write a name (mock.example.com), *.domain or *, without scheme or port", cliptext.To(h, 100))}
		}
	}
	return g, nil
}

// validHost reports whether h is a host name of letters, digits, dots,
// hyphens and underscores.
func validHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, c := range []byte(h) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// origin normalises an origin (scheme://host[:port], as in the Origin
// header) to lower case without its scheme's default port; ok is false
// for anything else, "null" included.
func origin(s string) (n string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	return strings.ToLower(u.Scheme) + "://" + withoutDefaultPort(strings.ToLower(u.Host), u.Scheme), true
}

// withoutDefaultPort drops :80 from an http host, :443 from an https one.
func withoutDefaultPort(host, scheme string) string {
	if scheme == "https" {
		return strings.TrimSuffix(host, ":443")
	}
	return strings.TrimSuffix(host, ":80")
}

// hostAllowed reports whether a Host header names the mock: an IP
// address (no rebinding name is one), localhost or a name under
// .localhost (which resolve to this machine alone), or an allowed host.
// An empty Host (HTTP/1.0) comes from no browser.
func (g *adminGuard) hostAllowed(hostport string) bool {
	if hostport == "" || g.anyHost {
		return true
	}
	host := strings.ToLower(hostport)
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if net.ParseIP(host) != nil || host == "localhost" || strings.HasSuffix(host, ".localhost") || g.hosts[host] {
		return true
	}
	for _, suf := range g.suffixes {
		if strings.HasSuffix(host, suf) {
			return true
		}
	}
	return false
}

// crossOrigin returns the origin of a browser's call from a page of
// another origin, or "" for a call from the admin API's own origin (the
// dashboard), one a person typed, or one from no browser. A call marked
// cross-site or same-site by the browser, or whose Origin is not the
// Host it was sent to, is from another origin; "null" stands for an
// opaque origin (a sandboxed frame, a file).
func crossOrigin(r *http.Request) string {
	o := r.Header.Get("Origin")
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return ""
	case "cross-site", "same-site":
		if o == "" {
			return "null"
		}
		return o
	}
	if o == "" {
		return ""
	}
	n, ok := origin(o)
	if !ok {
		return o
	}
	scheme, host, _ := strings.Cut(n, "://")
	if host == withoutDefaultPort(strings.ToLower(r.Host), scheme) {
		return ""
	}
	return o
}

// admit answers the calls the guard refuses (403, in the admin API's
// error shape) and CORS preflight requests from allowed origins (204),
// and adds the CORS headers an allowed origin's calls need; it reports
// whether the call goes on. The health call is answered under any Host:
// it reveals nothing, and health checks name the mock as they please.
func (g *adminGuard) admit(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != HealthPath && !g.hostAllowed(r.Host) {
		writeError(w, http.StatusForbidden, problem.CodeForbidden, fmt.Sprintf(
			"the admin API does not answer calls to host %q: use the mock's address or localhost, or allow that name with --allowed-host (this keeps DNS rebinding out)", cliptext.To(r.Host, 100)))
		return false
	}
	o := crossOrigin(r)
	if o == "" {
		return true
	}
	n, _ := origin(o)
	if !g.origins[n] {
		writeError(w, http.StatusForbidden, problem.CodeForbidden, fmt.Sprintf(
			"the admin API does not answer pages of other origins (%s); allow one with --admin-cors ORIGIN", cliptext.To(o, 100)))
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", o)
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Add("Vary", "Origin")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return true
	}
	wire.AnswerPreflight(w, r, "GET, POST, PUT, DELETE")
	return false
}
