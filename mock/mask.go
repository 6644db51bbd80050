package mock

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Values of Options.Journal.Credentials.
const (
	// CredentialsMasked keeps credentials in the journal masked (see
	// maskCredential): the default.
	CredentialsMasked = "masked"
	// CredentialsClear keeps credentials in the journal whole.
	CredentialsClear = "clear"
)

// clearCredentials reads Options.Journal.Credentials.
func clearCredentials(v string) (bool, error) {
	switch v {
	case "", CredentialsMasked:
		return false, nil
	case CredentialsClear:
		return true, nil
	}
	return false, &OptionError{Name: "journal-credentials", Err: fmt.Errorf("must be %s or %s, not %q", CredentialsMasked, CredentialsClear, clip(v, 20))}
}

// maskShown is how many characters of a credential maskCredential keeps,
// and maskWhole how long a credential must be beyond which it keeps them.
const (
	maskShown = 4
	maskWhole = 8
)

// maskCredential returns a credential value as the journal keeps it:
// "****" followed by its last 4 characters, or "****" alone when it has 8
// characters or fewer, so that a short secret is never half shown. It is
// the one rule for every credential: the parameters of an Authorization
// header (after its scheme, which stays), each cookie's value, API keys.
func maskCredential(v string) string { return "****" + maskKept(v) }

// maskKept returns what maskCredential keeps of v.
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

// maskAuthorization masks an Authorization or Proxy-Authorization value:
// its scheme stays, its credentials are masked ("Bearer ****wxyz"), in
// one string made at once.
func maskAuthorization(v string) string {
	scheme, param := authorization(v)
	if param == "" {
		return maskCredential(v)
	}
	return scheme + " ****" + maskKept(param)
}

// maskCookies masks the value of every cookie of a Cookie header, which
// keeps their names.
func maskCookies(v string) string {
	parts := strings.Split(v, ";")
	for i, p := range parts {
		name, val, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok {
			parts[i] = name + "=" + maskCredential(val)
		} else {
			parts[i] = maskCredential(name)
		}
	}
	return strings.Join(parts, "; ")
}

// maskSetCookie masks the value of a Set-Cookie header's cookie; its
// attributes stay.
func maskSetCookie(v string) string {
	pair, attrs, hasAttrs := strings.Cut(v, ";")
	pair = maskCookies(pair)
	if hasAttrs {
		return pair + ";" + attrs
	}
	return pair
}

// secrets names where a document's requests carry credentials: the
// headers every request may (Authorization, Proxy-Authorization, Cookie,
// Set-Cookie) and the API keys of its security schemes, in headers and in
// the query. Cookies are masked whole (every cookie of a Cookie header),
// so API keys in cookies need no name here.
type secrets struct {
	headers []secretHeader // by canonical name
	query   []string       // API-key query parameters
}

// secretHeader is a header that carries credentials, and how its value
// is masked.
type secretHeader struct {
	name string
	mask func(string) string
}

// newSecrets returns where the requests to doc carry credentials.
func newSecrets(doc *openapi.Document) *secrets {
	sec := &secrets{headers: []secretHeader{
		{"Authorization", maskAuthorization},
		{"Proxy-Authorization", maskAuthorization},
		{"Cookie", maskCookies},
		{"Set-Cookie", maskSetCookie},
	}}
	for _, sch := range doc.SecuritySchemes {
		if sch.Type != "apiKey" || sch.Param == "" {
			continue
		}
		switch sch.In {
		case "header":
			name := http.CanonicalHeaderKey(sch.Param)
			if !slices.ContainsFunc(sec.headers, func(h secretHeader) bool { return h.name == name }) {
				sec.headers = append(sec.headers, secretHeader{name, maskCredential})
			}
		case "query":
			if !slices.Contains(sec.query, sch.Param) {
				sec.query = append(sec.query, sch.Param)
			}
		}
	}
	return sec
}

// mask masks the credentials of a journal entry: its credential headers
// and API-key query parameters, its Token, and those of an outbound
// entry's URL. The entry's header map is replaced by a masked copy when
// it holds any, so that the request's own is left as it is.
func (sec *secrets) mask(e *Entry) {
	token := e.Token
	if len(sec.query) > 0 && e.Query != "" {
		e.Query = sec.maskQuery(e.Query)
	}
	if e.URL != "" {
		e.URL = sec.maskURL(e.URL)
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
			if _, param := authorization(v); name == "Authorization" && token != "" && param == token {
				// A bearer token is the Authorization's: its mask is the
				// end of the header's, a string made once.
				e.Token = masked[i][len(masked[i])-len("****"+maskKept(token)):]
			}
		}
		e.Header[name] = masked
	}
	if e.Token == token && token != "" {
		e.Token = maskCredential(token)
	}
}

// shownURL is a webhook's or callback's URL as the admin API and the log
// show it: its credentials masked by sec, unless the mock keeps them
// clear.
func (s *Server) shownURL(sec *secrets, u string) string {
	if s.clearCreds {
		return u
	}
	return sec.maskURL(u)
}

// maskURL masks the credentials of a URL a webhook or callback is sent
// to: the password of its user information, and its API-key query
// parameters. A URL it cannot read is left as it is; the journal clips it.
func (sec *secrets) maskURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	changed := false
	userinfo := ""
	if pass, ok := u.User.Password(); ok {
		// Written by hand: url.UserPassword would escape the stars.
		userinfo, changed = url.User(u.User.Username()).String()+":"+maskCredential(pass)+"@", true
		u.User = nil
	}
	if q := u.RawQuery; len(sec.query) > 0 && q != "" {
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
func (sec *secrets) maskQuery(raw string) string {
	parts := strings.Split(raw, "&")
	changed := false
	for i, p := range parts {
		k, v, _ := strings.Cut(p, "=")
		name, err := url.QueryUnescape(k)
		if err != nil || !slices.Contains(sec.query, name) {
			continue
		}
		if val, err := url.QueryUnescape(v); err == nil {
			v = val
		}
		m := maskCredential(v)
		// The stars are legal in a query as they are; what is kept of the
		// value is escaped again.
		parts[i], changed = k+"=****"+url.QueryEscape(m[len("****"):]), true
	}
	if !changed {
		return raw
	}
	return strings.Join(parts, "&")
}
