package verify

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Credentials: those Options.Credentials give, which security
// alternative a request presents, and the invalid requests that leave a
// scheme's credentials out or send them malformed.

// placed is a value and where a request carries it: in "header",
// "query" or "cookie", under name.
type placed struct{ in, name, value string }

// credential is how the credentials v of scheme s are sent: a bearer
// token (OAuth 2 and OpenID Connect too) as "Authorization: Bearer v",
// basic "user:password" base64-encoded, digest "user:password" as the
// answer to the service's challenge (a stand-in until sent, see
// digest.go), another HTTP scheme's as "Authorization: SCHEME v", an
// API key as it is where the scheme says.
func credential(s *openapi.SecurityScheme, v string) placed {
	switch {
	case s.Type == "apiKey":
		return placed{s.In, s.Param, v}
	case s.Type == "http" && s.Scheme == "basic":
		return placed{"header", "Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte(v))}
	case isDigest(s):
		return placed{"header", "Authorization", digestStandIn(s, false)}
	case bearerLike(s):
		return placed{"header", "Authorization", "Bearer " + v}
	}
	return placed{"header", "Authorization", s.Scheme + " " + v}
}

// bearerLike reports whether s takes a bearer token: http bearer (or an
// http scheme without a name, as verify reads it), OAuth 2, OpenID
// Connect.
func bearerLike(s *openapi.SecurityScheme) bool {
	return s.Type == "oauth2" || s.Type == "openIdConnect" || s.Type == "http" && (s.Scheme == "bearer" || s.Scheme == "")
}

// checkCredentials says what is wrong with the credentials given for a
// document, the first problem by name.
func checkCredentials(doc *openapi.Document, creds map[string]string) error {
	names := make([]string, 0, len(creds))
	for n := range creds {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		v := creds[n]
		s := schemeNamed(doc, n)
		if s == nil {
			var have []string
			for _, s := range doc.SecuritySchemes {
				have = append(have, s.Name)
			}
			if len(have) == 0 {
				return fmt.Errorf("verify: credentials for %q: the document declares no security scheme", n)
			}
			return fmt.Errorf("verify: credentials for %q: the document declares no such security scheme (it declares %s)", n, strings.Join(have, ", "))
		}
		switch {
		case v == "":
			return fmt.Errorf("verify: credentials for %q are empty", n)
		case s.Type == "mutualTLS":
			return fmt.Errorf("verify: credentials for %q: a mutualTLS scheme takes a client certificate, not a value", n)
		case s.Type == "apiKey" && (s.Param == "" || s.In != "header" && s.In != "query" && s.In != "cookie"):
			return fmt.Errorf("verify: credentials for %q: the scheme declares no place an API key can go (in %q, name %q)", n, s.In, s.Param)
		case s.Type == "http" && s.Scheme == "basic" && !strings.Contains(v, ":"):
			return fmt.Errorf("verify: credentials for %q: basic credentials want USER:PASSWORD", n)
		case isDigest(s) && !strings.Contains(v, ":"):
			return fmt.Errorf("verify: credentials for %q: digest credentials want USER:PASSWORD", n)
		}
	}
	return nil
}

// alternative returns the security alternative c's requests present:
// the first of c's operation whose schemes all have credentials in the
// options (and that one request can carry: no two values in one
// place), else the one c made credentials up for.
func (r *runner) alternative(c *exercise.Call) openapi.Requirement {
	if !r.hasCredentials() {
		return c.Auth
	}
next:
	for i, alt := range c.Op.Security {
		if len(alt) == 0 {
			continue
		}
		var scopes map[string][]string
		if i < len(c.Op.Scopes) {
			scopes = c.Op.Scopes[i]
		}
		at := map[string]string{}
		for _, s := range alt {
			v, ok := r.credentialFor(s, scopes[s.Name])
			if !ok || s.Type == "mutualTLS" {
				continue next
			}
			p := credential(s, v)
			if old, dup := at[place(s)]; dup && old != p.value {
				continue next
			}
			at[place(s)] = p.value
		}
		return alt
	}
	return c.Auth
}

// request writes c as a request that presents alt, with the options'
// credentials in place of made-up ones.
func (r *runner) request(c *exercise.Call, alt openapi.Requirement) (*http.Request, error) {
	if !slices.Equal(alt, c.Auth) {
		cp := *c
		cp.Auth = alt
		c = &cp
	}
	req, err := c.Request(r.base)
	if err != nil {
		return nil, err
	}
	scopes := scopesOf(c.Op, alt)
	for _, s := range alt {
		if v, ok := r.credentialFor(s, scopes[s.Name]); ok {
			put(req, credential(s, v), false)
		}
	}
	return req, nil
}

// secrets are the values the report's curl lines show as ***: the
// options' headers, and the credentials as they are sent.
func secrets(doc *openapi.Document, opts Options) []placed {
	var out []placed
	for k, vs := range opts.Header {
		for _, v := range vs {
			out = append(out, placed{"header", k, v})
		}
	}
	for _, s := range doc.SecuritySchemes {
		if v, ok := opts.Credentials[s.Name]; ok {
			out = append(out, credential(s, v))
			if isDigest(s) {
				out = append(out, placed{"header", "Authorization", digestStandIn(s, true)})
			}
		}
		for _, sc := range opts.Scoped {
			if sc.Scheme == s.Name {
				out = append(out, credential(s, sc.Value))
			}
		}
	}
	return out
}

// place is where a scheme's credentials go: "header.Authorization",
// "query.api_key", "cookie.session".
func place(s *openapi.SecurityScheme) string {
	if s.Type == "apiKey" {
		if s.In == "header" {
			return "header." + http.CanonicalHeaderKey(s.Param)
		}
		return s.In + "." + s.Param
	}
	return "header.Authorization"
}

// pointer is the JSON pointer fragment of scheme s in the document.
func pointer(s *openapi.SecurityScheme) string {
	return "#/components/securitySchemes/" + openapi.PointerToken(s.Name)
}

// credentialMistakes are the invalid requests of c's credentials:
// each security scheme of the operation, in the first alternative that
// holds it and one request can present (the one c's requests present
// first), left out, then malformed.
func (r *runner) credentialMistakes(c *exercise.Call) []invalid {
	var out []invalid
	done := map[*openapi.SecurityScheme]bool{}
	for _, alt := range append([]openapi.Requirement{r.alternative(c)}, c.Op.Security...) {
		if !presentable(alt) {
			continue
		}
		var left openapi.Requirement
		for _, s := range alt {
			if !done[s] {
				done[s] = true
				left = append(left, s)
			}
		}
		out = append(out, missingCredentials(alt, left)...)
		out = append(out, malformedCredentials(alt, left)...)
		out = append(out, r.wrongCredentials(c, alt, left)...)
		out = append(out, r.wrongDigests(alt, left)...)
	}
	return out
}

// presentable reports whether one request can present alt: no
// mutualTLS, API keys that say where they go, and no two schemes that
// each want their own Authorization header.
func presentable(alt openapi.Requirement) bool {
	auth := ""
	for _, s := range alt {
		kind := ""
		switch {
		case s.Type == "mutualTLS", s.Type == "apiKey" && (s.Param == "" || s.In != "header" && s.In != "query" && s.In != "cookie"):
			return false
		case place(s) != "header.Authorization":
			continue
		case s.Type == "apiKey":
			kind = "key"
		case bearerLike(s):
			kind = "bearer"
		default:
			kind = s.Scheme
		}
		if auth != "" && auth != kind {
			return false
		}
		auth = kind
	}
	return len(alt) > 0
}

// missingCredentials are the requests presenting alt without the
// credentials of each scheme of ss in turn; one request for schemes in
// the same place.
func missingCredentials(alt, ss openapi.Requirement) []invalid {
	var out []invalid
	done := map[string]bool{}
	for _, s := range ss {
		if done[place(s)] {
			continue
		}
		done[place(s)] = true
		in, name, _ := strings.Cut(place(s), ".")
		out = append(out, invalid{name: "missing credentials of " + s.Name, scheme: s, alt: alt,
			why: openapi.Violation{Path: place(s), Reason: fmt.Sprintf("no credentials for security scheme %s", s.Name), Schema: pointer(s)},
			mutate: func(req *http.Request, body []byte) ([]byte, bool) {
				put(req, placed{in, name, ""}, true)
				return body, true
			}})
	}
	return out
}

// malformed returns credentials of scheme s that every service keeping
// the scheme must refuse, whatever its users and keys, and what is
// wrong with them: "Authorization: Bearer" without a token (RFC 6750
// 2.1 wants one), "Basic user:password" not base64-encoded (RFC 7617
// 2), a Digest answer without the realm, nonce, uri and response RFC
// 7616 3.4 requires, an API key sent empty. false for the HTTP schemes
// of other names, whose syntax verify does not know, and mutualTLS. An
// API key in another place than its scheme names is not malformed: it
// is no key at all, as "missing credentials" checks.
func malformed(s *openapi.SecurityScheme) (value, why string, ok bool) {
	switch {
	case s.Type == "apiKey":
		return "", "the API key is empty", true
	case bearerLike(s):
		return "Bearer", "the Bearer scheme has no token (RFC 6750 2.1)", true
	case s.Type == "http" && s.Scheme == "basic":
		return "Basic user:password", "the Basic credentials are not base64 (RFC 7617 2)", true
	case s.Type == "http" && s.Scheme == "digest":
		return `Digest username="user"`, "the Digest credentials have no realm, nonce, uri or response (RFC 7616 3.4)", true
	}
	return "", "", false
}

// malformedCredentials are the requests presenting alt with the
// credentials of each scheme of ss in turn malformed; one request for
// schemes that would send the same.
func malformedCredentials(alt, ss openapi.Requirement) []invalid {
	var out []invalid
	done := map[placed]bool{}
	for _, s := range ss {
		v, why, ok := malformed(s)
		if !ok {
			continue
		}
		in, name, _ := strings.Cut(place(s), ".")
		p := placed{in, name, v}
		if done[p] {
			continue
		}
		done[p] = true
		out = append(out, invalid{name: "malformed credentials of " + s.Name, scheme: s, alt: alt,
			why: openapi.Violation{Path: place(s), Reason: fmt.Sprintf("malformed credentials for security scheme %s: %s", s.Name, why), Schema: pointer(s)},
			mutate: func(req *http.Request, body []byte) ([]byte, bool) {
				put(req, p, false)
				return body, true
			}})
	}
	return out
}

// refusable reports whether req, made from a valid request by leaving
// out or breaking the credentials of scheme s, meets no security
// alternative of op: a service may then accept it only by not keeping
// the document. Each alternative must need a scheme whose credentials
// req does not present; credentials in s's place count as not
// presented, but for an API key there, which takes any value but none.
func refusable(op *openapi.Operation, s *openapi.SecurityScheme, req *http.Request) bool {
	for _, alt := range op.Security {
		meets := true
		for _, o := range alt {
			if !presents(req, o, place(s)) {
				meets = false
				break
			}
		}
		if meets {
			return false
		}
	}
	return true
}

// presents reports whether req may carry valid credentials of scheme o:
// something in o's place (for an HTTP scheme, an Authorization header
// of its scheme). In the place broken, only an API key's non-empty
// value may be valid.
func presents(req *http.Request, o *openapi.SecurityScheme, broken string) bool {
	in, name, _ := strings.Cut(place(o), ".")
	v := valueAt(req, in, name)
	switch {
	case o.Type == "apiKey":
		return v != ""
	case place(o) == broken, o.Type == "mutualTLS":
		return false
	}
	scheme, _, _ := strings.Cut(v, " ")
	want := o.Scheme
	if bearerLike(o) {
		want = "bearer"
	}
	return v != "" && strings.EqualFold(scheme, want)
}

// valueAt returns the value req carries in a place, "" for none.
func valueAt(req *http.Request, in, name string) string {
	switch in {
	case "header":
		return req.Header.Get(name)
	case "query":
		return req.URL.Query().Get(name)
	case "cookie":
		if c, err := req.Cookie(name); err == nil {
			return c.Value
		}
	}
	return ""
}

// put sets (or removes) a value of req where p says, leaving the rest
// of the query and cookies as written; it reports whether req carried
// a value there before.
func put(req *http.Request, p placed, remove bool) bool {
	switch p.in {
	case "header":
		had := len(req.Header.Values(p.name)) > 0
		if remove {
			req.Header.Del(p.name)
		} else {
			req.Header.Set(p.name, p.value)
		}
		return had
	case "query":
		var found bool
		req.URL.RawQuery, found = setPair(req.URL.RawQuery, "&", p, remove, url.QueryEscape)
		return found
	case "cookie":
		raw, found := setPair(strings.Join(req.Header.Values("Cookie"), "; "), "; ", p, remove, func(s string) string { return s })
		req.Header.Del("Cookie")
		if raw != "" {
			req.Header.Set("Cookie", raw)
		}
		return found
	}
	return false
}

// setPair sets (or removes) the pair named p.name in a list of
// name=value pairs separated by sep (a query, a Cookie header), the
// others left as written; a name not there is added. escape writes the
// name and value. found says whether the name was there.
func setPair(list, sep string, p placed, remove bool, escape func(string) string) (out string, found bool) {
	var kept []string
	for _, pair := range strings.Split(list, strings.TrimSpace(sep)) {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		name, _, _ := strings.Cut(pair, "=")
		if n, err := url.QueryUnescape(name); err == nil && sep == "&" {
			name = n
		}
		if name != p.name {
			kept = append(kept, pair)
			continue
		}
		if !found && !remove {
			kept = append(kept, escape(p.name)+"="+escape(p.value))
		}
		found = true
	}
	if !found && !remove {
		kept = append(kept, escape(p.name)+"="+escape(p.value))
	}
	return strings.Join(kept, sep), found
}

// wrongDigests are the requests presenting alt with an answer to the
// challenge of each Digest scheme of ss, whose credentials the options
// give, computed right but for its response: every service keeping the
// scheme must refuse it (RFC 7616 3.4), whoever the user is.
// notIssued is a credential no service issued: well formed, so that
// only a service that checks credentials refuses it. Not made from the
// given ones, which a curl line would then show.
const notIssued = "plantmock-not-issued"

// wrongCredentials are the requests presenting alt, for each scheme of
// ss that the options give credentials for (an http scheme but digest,
// whose wrong answer wrongDigests makes, an API key, OAuth 2, OpenID
// Connect), with well-formed credentials no service issued in their
// place: a bearer token or key notIssued, basic credentials
// notIssued:notIssued. Only a service that does not check them takes
// them.
func (r *runner) wrongCredentials(c *exercise.Call, alt, ss openapi.Requirement) []invalid {
	scopes := scopesOf(c.Op, alt)
	var out []invalid
	for _, s := range ss {
		if _, ok := r.credentialFor(s, scopes[s.Name]); !ok || isDigest(s) || s.Type == "mutualTLS" {
			continue
		}
		wrong := notIssued
		if s.Type == "http" && s.Scheme == "basic" {
			wrong = notIssued + ":" + notIssued
		}
		p := credential(s, wrong)
		out = append(out, invalid{name: "wrong credentials of " + s.Name, scheme: s, alt: alt, wrong: true,
			why: openapi.Violation{Path: place(s), Reason: fmt.Sprintf("credentials for security scheme %s that no service issued (well formed, not the ones given)", s.Name), Schema: pointer(s)},
			mutate: func(req *http.Request, body []byte) ([]byte, bool) {
				put(req, p, false)
				return body, true
			}})
	}
	return out
}

func (r *runner) wrongDigests(alt, ss openapi.Requirement) []invalid {
	var out []invalid
	for _, s := range ss {
		if _, ok := r.opts.Credentials[s.Name]; !ok || !isDigest(s) {
			continue
		}
		p := placed{"header", "Authorization", digestStandIn(s, true)}
		out = append(out, invalid{name: "wrong Digest response of " + s.Name, scheme: s, alt: alt,
			why: openapi.Violation{Path: place(s), Reason: fmt.Sprintf("the Digest response for security scheme %s is not the one its challenge wants", s.Name), Schema: pointer(s)},
			mutate: func(req *http.Request, body []byte) ([]byte, bool) {
				put(req, p, false)
				return body, true
			}})
	}
	return out
}
