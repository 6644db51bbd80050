package journal

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// maskShown is how many characters of a credential MaskCredential keeps,
// and maskWhole how long a credential must be beyond which it keeps them.
const (
	maskShown = 4
	maskWhole = 8
)

// MaskCredential returns a credential value as the journal keeps it:
// "****" followed by its last 4 characters, or "****" alone when it has 8
// characters or fewer, so that a short secret is never half shown. It is
// the one rule for every credential: the parameters of an Authorization
// header (after its scheme, which stays), each cookie's value, API keys.
func MaskCredential(v string) string { return "****" + maskKept(v) }

// maskKept returns what MaskCredential keeps of v.
func maskKept(v string) string {
	if utf8.RuneCountInString(v) <= maskWhole {
		return ""
	}
	i := len(v)
	for range maskShown {
		_, n := utf8.DecodeLastRuneInString(v[:i])
		i -= n
	}
	return v[i:]
}

// MaskAuthorization masks an Authorization or Proxy-Authorization value:
// its scheme stays, its credentials are masked ("Bearer ****wxyz"), in
// one string made at once.
func MaskAuthorization(v string) string {
	scheme, param := wire.Authorization(v)
	if param == "" {
		return MaskCredential(v)
	}
	return scheme + " ****" + maskKept(param)
}

// MaskCookies masks the value of every cookie of a Cookie header, which
// keeps their names.
func MaskCookies(v string) string {
	parts := strings.Split(v, ";")
	for i, p := range parts {
		name, val, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok {
			parts[i] = name + "=" + MaskCredential(val)
		} else {
			parts[i] = MaskCredential(name)
		}
	}
	return strings.Join(parts, "; ")
}

// MaskSetCookie masks the value of a Set-Cookie header's cookie; its
// attributes stay.
func MaskSetCookie(v string) string {
	pair, attrs, hasAttrs := strings.Cut(v, ";")
	pair = MaskCookies(pair)
	if hasAttrs {
		return pair + ";" + attrs
	}
	return pair
}

// Secrets names where a document's requests carry credentials: the
// headers every request may (Authorization, Proxy-Authorization, Cookie,
// Set-Cookie) and the API keys of its security schemes, in headers and in
// the query. Cookies are masked whole (every cookie of a Cookie header),
// so API keys in cookies need no name here.
type Secrets struct {
	headers []secretHeader // by canonical name
	Query   []string       // API-key query parameters
}

// secretHeader is a header that carries credentials, and how its value
// is masked.
type secretHeader struct {
	name string
	mask func(string) string
}

// NewSecrets returns where the requests to doc carry credentials.
func NewSecrets(doc *openapi.Document) *Secrets {
	sec := &Secrets{headers: []secretHeader{
		{"Authorization", MaskAuthorization},
		{"Proxy-Authorization", MaskAuthorization},
		{"Cookie", MaskCookies},
		{"Set-Cookie", MaskSetCookie},
	}}
	for _, sch := range doc.SecuritySchemes {
		if sch.Type != "apiKey" || sch.Param == "" {
			continue
		}
		switch sch.In {
		case "header":
			name := http.CanonicalHeaderKey(sch.Param)
			if !slices.ContainsFunc(sec.headers, func(h secretHeader) bool { return h.name == name }) {
				sec.headers = append(sec.headers, secretHeader{name, MaskCredential})
			}
		case "query":
			if !slices.Contains(sec.Query, sch.Param) {
				sec.Query = append(sec.Query, sch.Param)
			}
		}
	}
	return sec
}

// Mask masks the credentials of a journal entry: its credential headers
// and API-key query parameters, its Token, and those of an outbound
// entry's URL. The entry's header map is replaced by a masked copy when
// it holds any, so that the request's own is left as it is.
func (sec *Secrets) Mask(e *Entry) {
	token := e.Token
	if len(sec.Query) > 0 && e.Query != "" {
		e.Query = sec.maskQuery(e.Query)
	}
	if e.URL != "" {
		e.URL = sec.MaskURL(e.URL)
	}
	copied := false
	// The few credential headers are looked up: on a create's handful of
	// headers, that costs less than a pass over them (map iteration).
	for _, sh := range sec.headers {
		name, m := sh.name, sh.mask
		vs, ok := e.Header[name]
		if !ok {
			continue
		}
		if !copied {
			e.Header, copied = maps.Clone(e.Header), true
		}
		masked := make([]string, len(vs))
		for i, v := range vs {
			masked[i] = m(v)
			if _, param := wire.Authorization(v); name == "Authorization" && token != "" && param == token {
				// A bearer token is the Authorization's: its mask is the
				// end of the header's, a string made once.
				e.Token = masked[i][len(masked[i])-len("****"+maskKept(token)):]
			}
		}
		e.Header[name] = masked
	}
	if e.Token == token && token != "" {
		e.Token = MaskCredential(token)
	}
}

// MaskURL masks the credentials of a URL a webhook or callback is sent
// to: the password of its user information, and its API-key query
// parameters. A URL it cannot read is left as it is; the journal clips it.
func (sec *Secrets) MaskURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	changed := false
	userinfo := ""
	if pass, ok := u.User.Password(); ok {
		// Written by hand: url.UserPassword would escape the stars.
		userinfo, changed = url.User(u.User.Username()).String()+":"+MaskCredential(pass)+"@", true
		u.User = nil
	}
	if q := u.RawQuery; len(sec.Query) > 0 && q != "" {
		if u.RawQuery = sec.maskQuery(q); u.RawQuery != q {
			changed = true
		}
	}
	if !changed {
		return raw
	}
	out := u.String()
	if i := strings.Index(out, "//"); userinfo != "" && i >= 0 {
		out = out[:i+2] + userinfo + out[i+2:]
	}
	return out
}

// maskQuery masks the values of the API-key parameters of a raw query,
// leaving the rest of it as sent.
func (sec *Secrets) maskQuery(raw string) string {
	parts := strings.Split(raw, "&")
	changed := false
	for i, p := range parts {
		k, v, _ := strings.Cut(p, "=")
		name, err := url.QueryUnescape(k)
		if err != nil || !slices.Contains(sec.Query, name) {
			continue
		}
		if val, err := url.QueryUnescape(v); err == nil {
			v = val
		}
		m := MaskCredential(v)
		// The stars are legal in a query as they are; what is kept of the
		// value is escaped again.
		parts[i], changed = k+"=****"+url.QueryEscape(m[len("****"):]), true
	}
	if !changed {
		return raw
	}
	return strings.Join(parts, "&")
}
