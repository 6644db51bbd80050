package exercise

import (
	"net/http"
	"strings"
)

// Outgoing returns req as Go's client must be given it to send the
// header fields req.Header holds. The client writes Host,
// Content-Length and Transfer-Encoding from req's own fields and drops
// them from req.Header, so a header parameter of one of those names (a
// document asking for Transfer-Encoding: chunked, say) would never reach
// the service. Host goes to req.Host (unless the client would refuse it
// there: then the URL's host is sent), Transfer-Encoding: chunked to
// req.TransferEncoding, with a body, perhaps empty, to chunk: the client
// sends no coding without one. Content-Length stays the body's: the
// client writes it, and any other length would break the message.
// Another transfer coding can be neither sent by Go's client nor read by
// Go's server, and is left as it is. req is not changed: a request that
// needs none of this is returned as it is, any other as a copy with its
// own header.
func Outgoing(req *http.Request) *http.Request {
	host, te := req.Header["Host"], req.Header["Transfer-Encoding"]
	if len(host) == 0 && len(te) == 0 {
		return req
	}
	out := req.WithContext(req.Context())
	out.Header = req.Header.Clone()
	if len(host) > 0 && validHost(host[0]) {
		out.Host = host[0]
		delete(out.Header, "Host")
	}
	if len(te) == 1 && strings.EqualFold(strings.TrimSpace(te[0]), "chunked") {
		out.TransferEncoding = []string{"chunked"}
		delete(out.Header, "Transfer-Encoding")
		if out.Body == nil {
			out.Body = http.NoBody
		}
	}
	return out
}

// validHost reports whether Go's client would send h as a Host field:
// not empty, and only the bytes of a reg-name, an IP literal and a port
// (RFC 3986, section 3.2.2), as golang.org/x/net/http/httpguts's
// ValidHostHeader allows them.
func validHost(h string) bool {
	if h == "" {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!$%&'()*+,-.:;=[]_~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
