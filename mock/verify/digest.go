package verify

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Digest credentials (RFC 7616): the user's USER:PASSWORD are never
// sent; each request presenting them carries the answer to the
// service's latest challenge, computed when it is sent. Requests are
// written with a stand-in Authorization value, which send replaces.

// digestStandIn is the Authorization a request presenting Digest scheme
// s carries until it is sent: the answer to the service's challenge
// (wrong false), or an answer with a wrong response (wrong true).
func digestStandIn(s *openapi.SecurityScheme, wrong bool) string {
	if wrong {
		return "Digest (" + s.Name + ": a wrong answer to the challenge)"
	}
	return "Digest (" + s.Name + ": the answer to the challenge)"
}

// isDigest reports whether s is an http Digest scheme.
func isDigest(s *openapi.SecurityScheme) bool {
	return s.Type == "http" && strings.EqualFold(s.Scheme, "digest")
}

// digestUser is what answers one scheme's challenges: the user's
// credentials and the challenge last read, with its nonce count.
type digestUser struct {
	standIn        string // the stand-in of the right answer
	user, password string
	ch             *challenge
	nc             uint32
}

// digestUsers returns a digestUser by stand-in for each Digest scheme
// the options give credentials for; wrong ones point at the same.
func digestUsers(doc *openapi.Document, creds map[string]string) map[string]*digestUser {
	out := map[string]*digestUser{}
	for _, s := range doc.SecuritySchemes {
		v, ok := creds[s.Name]
		if !ok || !isDigest(s) {
			continue
		}
		user, password, _ := strings.Cut(v, ":")
		d := &digestUser{standIn: digestStandIn(s, false), user: user, password: password}
		out[digestStandIn(s, false)] = d
		out[digestStandIn(s, true)] = d
	}
	return out
}

// challenge is a Digest challenge as read from WWW-Authenticate.
type challenge struct {
	realm, nonce, opaque string
	alg                  digestAlg
	qop                  string // "auth", "auth-int", or "" when the challenge offers none (RFC 2069)
	userhash, stale      bool
}

// digestAlg is a Digest algorithm: its name as the challenge gives it,
// its hash, and whether it is a -sess variant.
type digestAlg struct {
	name string
	hash func() hash.Hash
	sess bool
}

// digestAlgs are the algorithms of RFC 7616 3.3 (and its registry).
var digestAlgs = map[string]digestAlg{
	"MD5":              {"MD5", md5.New, false},
	"MD5-SESS":         {"MD5-sess", md5.New, true},
	"SHA-256":          {"SHA-256", sha256.New, false},
	"SHA-256-SESS":     {"SHA-256-sess", sha256.New, true},
	"SHA-512-256":      {"SHA-512-256", sha512.New512_256, false},
	"SHA-512-256-SESS": {"SHA-512-256-sess", sha512.New512_256, true},
}

// digestChallenge returns the first Digest challenge of h's
// WWW-Authenticate fields that verify can answer: an algorithm it knows
// (MD5 where none is named), a qop of auth or auth-int where one is
// offered, a nonce. RFC 7616 3.7: a server lists its challenges most
// preferred first, and a client takes the first it supports.
func digestChallenge(h http.Header) (*challenge, bool) {
	for _, c := range parseChallenges(h.Values("WWW-Authenticate")) {
		if !strings.EqualFold(c.scheme, "Digest") || c.params["nonce"] == "" {
			continue
		}
		name := c.params["algorithm"]
		if name == "" {
			name = "MD5"
		}
		alg, ok := digestAlgs[strings.ToUpper(name)]
		if !ok {
			continue
		}
		ch := &challenge{realm: c.params["realm"], nonce: c.params["nonce"], opaque: c.params["opaque"], alg: alg,
			userhash: strings.EqualFold(c.params["userhash"], "true"), stale: strings.EqualFold(c.params["stale"], "true")}
		if qop, has := c.params["qop"]; has {
			var offered []string
			for _, q := range strings.Split(qop, ",") {
				offered = append(offered, strings.ToLower(strings.TrimSpace(q)))
			}
			switch {
			case slices.Contains(offered, "auth"):
				ch.qop = "auth"
			case slices.Contains(offered, "auth-int"):
				ch.qop = "auth-int"
			default:
				continue
			}
		}
		return ch, true
	}
	return nil, false
}

// authChallenge is one challenge of a WWW-Authenticate field: its
// scheme and parameters (names in lower case, values unquoted).
type authChallenge struct {
	scheme string
	params map[string]string
}

// parseChallenges reads the challenges of WWW-Authenticate fields (RFC
// 9110 11.6.1): each field a list of challenges, each a scheme and a
// list of name=value parameters (a value a token or a quoted string),
// or a token68. What cannot be read ends the field.
func parseChallenges(fields []string) []authChallenge {
	var out []authChallenge
	for _, f := range fields {
		l := lexer{s: f}
		for {
			l.skip(" \t,")
			scheme := l.token()
			if scheme == "" {
				break
			}
			c := authChallenge{scheme: scheme, params: map[string]string{}}
			for {
				l.skip(" \t,")
				at := l.i
				name := l.token()
				l.skip(" \t")
				if name == "" || !l.next('=') {
					l.i = at // the next challenge's scheme, or the end
					break
				}
				l.skip(" \t")
				if l.peek() == '=' { // a token68's padding
					for l.next('=') {
					}
					continue
				}
				v, ok := l.value()
				if !ok {
					l.i = len(l.s)
					break
				}
				c.params[strings.ToLower(name)] = v
			}
			out = append(out, c)
		}
	}
	return out
}

// lexer reads a header field from s[i:].
type lexer struct {
	s string
	i int
}

func (l *lexer) skip(set string) {
	for l.i < len(l.s) && strings.IndexByte(set, l.s[l.i]) >= 0 {
		l.i++
	}
}

func (l *lexer) peek() byte {
	if l.i < len(l.s) {
		return l.s[l.i]
	}
	return 0
}

func (l *lexer) next(c byte) bool {
	if l.peek() == c && l.i < len(l.s) {
		l.i++
		return true
	}
	return false
}

// token reads an RFC 9110 token (and the characters a token68 adds).
func (l *lexer) token() string {
	start := l.i
	for l.i < len(l.s) {
		c := l.s[l.i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 && c != '/' {
			break
		}
		l.i++
	}
	return l.s[start:l.i]
}

// value reads a token or a quoted string, unquoted.
func (l *lexer) value() (string, bool) {
	if !l.next('"') {
		v := l.token()
		return v, v != ""
	}
	var b strings.Builder
	for l.i < len(l.s) {
		c := l.s[l.i]
		l.i++
		switch {
		case c == '"':
			return b.String(), true
		case c == '\\' && l.i < len(l.s):
			b.WriteByte(l.s[l.i])
			l.i++
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// digestAnswer is the Authorization value that answers ch for user and
// password: a request with method, request target uri and body, the
// nc-th with ch's nonce, with client nonce cnonce (RFC 7616 3.4). wrong
// changes the response's first digit, an answer no service keeping the
// scheme may take.
func digestAnswer(ch *challenge, user, password, method, uri string, body []byte, nc uint32, cnonce string, wrong bool) string {
	h := func(s string) string {
		d := ch.alg.hash()
		d.Write([]byte(s))
		return hex.EncodeToString(d.Sum(nil))
	}
	ha1 := h(user + ":" + ch.realm + ":" + password)
	if ch.alg.sess {
		ha1 = h(ha1 + ":" + ch.nonce + ":" + cnonce)
	}
	a2 := method + ":" + uri
	if ch.qop == "auth-int" {
		d := ch.alg.hash()
		d.Write(body)
		a2 += ":" + hex.EncodeToString(d.Sum(nil))
	}
	count := fmt.Sprintf("%08x", nc)
	var response string
	if ch.qop == "" {
		response = h(ha1 + ":" + ch.nonce + ":" + h(a2))
	} else {
		response = h(ha1 + ":" + ch.nonce + ":" + count + ":" + cnonce + ":" + ch.qop + ":" + h(a2))
	}
	if wrong {
		d := "0"
		if response[0] == '0' {
			d = "1"
		}
		response = d + response[1:]
	}
	var b strings.Builder
	b.WriteString("Digest ")
	switch {
	case ch.userhash:
		// RFC 7616 3.4.4: the username hashed with the realm, after the
		// response is computed with it as it is.
		fmt.Fprintf(&b, "username=%s, userhash=true", quoted(h(user+":"+ch.realm)))
	case !quotable(user):
		// RFC 7616 3.4.4 and RFC 8187: a name a quoted string cannot
		// hold goes in username*, UTF-8 and percent-encoded.
		fmt.Fprintf(&b, "username*=UTF-8''%s", strings.ReplaceAll(url.PathEscape(user), ":", "%3A"))
	default:
		fmt.Fprintf(&b, "username=%s", quoted(user))
	}
	fmt.Fprintf(&b, ", realm=%s, uri=%s, algorithm=%s, nonce=%s", quoted(ch.realm), quoted(uri), ch.alg.name, quoted(ch.nonce))
	if ch.qop != "" {
		fmt.Fprintf(&b, ", nc=%s, cnonce=%s, qop=%s", count, quoted(cnonce), ch.qop)
	}
	fmt.Fprintf(&b, ", response=%s", quoted(response))
	if ch.opaque != "" {
		fmt.Fprintf(&b, ", opaque=%s", quoted(ch.opaque))
	}
	return b.String()
}

// quotable reports whether a quoted string can hold s as it is: ASCII
// without control characters.
func quotable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] >= utf8.RuneSelf || s[i] == 0x7f {
			return false
		}
	}
	return true
}

// quoted writes s as a quoted string.
func quoted(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// newCnonce is a client nonce: 16 random bytes in hex.
func newCnonce() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// answer sets req's Authorization to the answer to d's challenge (with
// a wrong response where wrong), the next of its nonce, or leaves it
// out while no challenge is known: the service then sends one.
func (d *digestUser) answer(req *http.Request, body []byte, wrong bool) {
	if d.ch == nil {
		req.Header.Del("Authorization")
		return
	}
	d.nc++
	req.Header.Set("Authorization", digestAnswer(d.ch, d.user, d.password, req.Method, req.URL.RequestURI(), body, d.nc, newCnonce(), wrong))
}

// read takes the challenge of a 401 answer, or the next nonce an
// Authentication-Info field gives (RFC 7616 3.5); it reports whether
// a 401 brought a new challenge to answer.
func (d *digestUser) read(resp *http.Response) bool {
	if resp.StatusCode == http.StatusUnauthorized {
		ch, ok := digestChallenge(resp.Header)
		if !ok {
			return false
		}
		d.ch, d.nc = ch, 0
		return true
	}
	if d.ch == nil {
		return false
	}
	for _, c := range parseChallenges([]string{"Digest " + resp.Header.Get("Authentication-Info")}) {
		if n := c.params["nextnonce"]; n != "" && n != d.ch.nonce {
			cp := *d.ch
			cp.nonce = n
			d.ch, d.nc = &cp, 0
		}
	}
	return false
}
