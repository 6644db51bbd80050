package pipeline

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// realm names plantmock in WWW-Authenticate challenges.
const realm = `realm="plantmock"`

// credentials are what a request presents to authenticate, read once per
// exchange.
type credentials struct {
	scheme string // the Authorization header's scheme, as sent ("Bearer")
	param  string // what follows the scheme, leading spaces removed
	// token is the bearer token, else the value of the operation's first
	// API key that is present: what scenarios match and the journal shows.
	token string
}

// readCredentials reads the credentials a request presents for op.
func readCredentials(op *openapi.Operation, r *http.Request) credentials {
	var c credentials
	c.scheme, c.param = wire.Authorization(headerValue(r.Header, "Authorization"))
	if strings.EqualFold(c.scheme, "Bearer") {
		c.token = c.param
		return c
	}
	for _, alt := range op.Security {
		for _, sch := range alt {
			if sch.Type != "apiKey" {
				continue
			}
			if v := apiKeyValue(r, sch); v != "" {
				c.token = v
				return c
			}
		}
	}
	return c
}

// checkSecurity reads the credentials and checks them against the
// operation's security requirements: one alternative must be satisfied.
// When none is, the problem told is that of the first scheme whose
// credentials were sent, else the first alternative's; and the answer
// challenges the client once for each scheme of any alternative that was
// not satisfied, in the document's order (RFC 9110 11.6.1: each challenge
// is a WWW-Authenticate field of its own).
func (s *Engine) checkSecurity(x *exchange) *problem.Problem {
	op := x.Plan.Op
	x.cred = readCredentials(op, x.R)
	var lead *problem.Problem
	leadSent := false
	var challenges []string
	var keyRoom [4]string
	keys := keyRoom[:0] // the schemes challenged, by challengeKey
	for _, alt := range op.Security {
		ok := true
		for _, sch := range alt {
			p := s.satisfy(sch, x)
			if p == nil {
				continue
			}
			ok = false
			if sent := sent(sch, x); lead == nil || sent && !leadSent {
				lead, leadSent = p, sent
			}
			if k := challengeKey(sch); !slices.Contains(keys, k) {
				if challenges == nil {
					challenges = slices.Clip(p.Challenges) // one scheme, the usual case: its own
				} else {
					challenges = append(challenges, p.Challenges...)
				}
				keys = append(keys, k)
			}
		}
		if ok {
			return nil
		}
	}
	if lead != nil && !slices.Equal(lead.Challenges, challenges) {
		// A problem is not changed once made (some are shared): a copy
		// carries the challenges of every scheme.
		merged := *lead
		merged.Challenges = challenges
		lead = &merged
	}
	return lead
}

// sent reports whether x carries credentials for scheme sch, right or
// wrong.
func sent(sch *openapi.SecurityScheme, x *exchange) bool {
	switch sch.Type {
	case "http":
		return strings.EqualFold(x.cred.scheme, sch.Scheme)
	case "oauth2", "openIdConnect":
		return strings.EqualFold(x.cred.scheme, "Bearer")
	case "apiKey":
		return apiKeyValue(x.R, sch) != ""
	}
	return false
}

// satisfy checks the credentials of x against one scheme.
func (s *Engine) satisfy(sch *openapi.SecurityScheme, x *exchange) *problem.Problem {
	switch {
	case sch.Type == "http" && sch.Scheme == "basic":
		return basic(x.cred)
	case sch.Type == "http" && sch.Scheme == "digest":
		return digest(x.cred)
	case sch.Type == "http" && sch.Scheme != "bearer":
		// Other HTTP schemes: credentials of that scheme must be present.
		return present(x.cred, sch.Scheme)
	case sch.Type == "http", sch.Type == "oauth2", sch.Type == "openIdConnect":
		return s.bearer(x.cred)
	case sch.Type == "apiKey":
		return s.apiKey(x.R, sch)
	}
	return nil
}

// challengeKey names the challenge a scheme makes, so that schemes that
// make the same one (http bearer and oauth2) challenge once.
func challengeKey(sch *openapi.SecurityScheme) string {
	switch sch.Type {
	case "http":
		return sch.Scheme
	case "oauth2", "openIdConnect":
		return "bearer"
	}
	return sch.Type + " " + sch.In + " " + sch.Param
}

func unauthorized(code problem.Code, challenge, format string, args ...any) *problem.Problem {
	p := problem.Invalid(code, problem.ClassRequest, format, args...)
	p.Status = http.StatusUnauthorized
	p.Challenges = []string{challenge}
	return p
}

// The problems of credentials left out, the most common refusals under
// load: the same every time, so made once (a problem is never changed
// once made).
var (
	noBearer = unauthorized(problem.CodeNoCredentials, "Bearer "+realm,
		`missing credentials: send "Authorization: Bearer <token>"`)
	noBasic = unauthorized(problem.CodeNoCredentials, basicChallenge,
		`missing credentials: send "Authorization: Basic <base64 user:password>"`)
)

// bearer checks "Authorization: Bearer <token68>" (RFC 6750; the scheme is
// case-insensitive) and, when tokens are configured, the token.
func (s *Engine) bearer(c credentials) *problem.Problem {
	if c.scheme == "" {
		return noBearer
	}
	if !strings.EqualFold(c.scheme, "Bearer") {
		// RFC 6750 3.1: no error code when another method was attempted.
		return unauthorized(problem.CodeBadCredentials, "Bearer "+realm,
			"the Authorization header uses the %q scheme; Bearer is required", Clip(c.scheme, 20))
	}
	if !wire.IsToken68(c.param) {
		return unauthorized(problem.CodeBadCredentials, "Bearer "+realm+`, error="invalid_request"`,
			"the bearer token is empty or malformed (RFC 6750 token68 expected)")
	}
	if s.Tokens != nil {
		if _, ok := s.Tokens[c.param]; !ok {
			return unauthorized(problem.CodeTokenRejected, "Bearer "+realm+`, error="invalid_token"`,
				"the bearer token is not accepted")
		}
	}
	return nil
}

// basicChallenge asks for RFC 7617 credentials, with the user and password
// in UTF-8 (RFC 7617 2.1).
const basicChallenge = "Basic " + realm + `, charset="UTF-8"`

// basic checks "Authorization: Basic <base64 user:password>" (RFC 7617):
// well-formed credentials of any user are accepted.
func basic(c credentials) *problem.Problem {
	const challenge = basicChallenge
	if c.scheme == "" {
		return noBasic
	}
	if !strings.EqualFold(c.scheme, "Basic") {
		return unauthorized(problem.CodeBadCredentials, challenge, "the Authorization header uses the %q scheme; Basic is required", Clip(c.scheme, 20))
	}
	raw, err := base64.StdEncoding.DecodeString(c.param)
	if err != nil || !strings.Contains(string(raw), ":") {
		return unauthorized(problem.CodeBadCredentials, challenge, "the Basic credentials are not base64 of user:password")
	}
	return nil
}

// digest checks "Authorization: Digest ..." (RFC 7616 3.4): the
// parameters a response to a challenge must carry are there. They are not
// verified, as the mock knows no passwords and keeps no nonces.
func digest(c credentials) *problem.Problem {
	if c.scheme == "" {
		return unauthorized(problem.CodeNoCredentials, digestChallenge(), `missing credentials: send "Authorization: Digest ..." answering the challenge`)
	}
	if !strings.EqualFold(c.scheme, "Digest") {
		return unauthorized(problem.CodeBadCredentials, digestChallenge(), "the Authorization header uses the %q scheme; Digest is required", Clip(c.scheme, 20))
	}
	if missing := missingParam(c.param, "realm", "nonce", "uri", "response"); missing != "" {
		return unauthorized(problem.CodeBadCredentials, digestChallenge(), "the Digest credentials have no %s parameter", missing)
	}
	if missingParam(c.param, "username") != "" && missingParam(c.param, "username*") != "" {
		return unauthorized(problem.CodeBadCredentials, digestChallenge(), "the Digest credentials have no username parameter")
	}
	return nil
}

// missingParam returns the first of names that the auth-params list
// (RFC 9110 11.2: name=token or name="quoted string", comma-separated)
// does not hold, or "" when it holds them all.
func missingParam(params string, names ...string) string {
	for _, name := range names {
		if !hasParam(params, name) {
			return name
		}
	}
	return ""
}

func hasParam(params, name string) bool {
	for params != "" {
		params = strings.TrimLeft(params, " \t,")
		key, rest, ok := strings.Cut(params, "=")
		if !ok {
			return false
		}
		if strings.EqualFold(strings.TrimSpace(key), name) {
			return true
		}
		rest = strings.TrimLeft(rest, " \t")
		if strings.HasPrefix(rest, `"`) {
			// Skip the quoted string, escapes and all.
			i := 1
			for i < len(rest) && rest[i] != '"' {
				if rest[i] == '\\' {
					i++
				}
				i++
			}
			rest = rest[min(i+1, len(rest)):]
		}
		_, params, _ = strings.Cut(rest, ",")
	}
	return false
}

// digestChallenge returns an RFC 7616 challenge for SHA-256 with quality
// of protection "auth" (3.3: qop must be sent) and a fresh random nonce
// and opaque, so that no two challenges are alike.
func digestChallenge() string {
	var b [32]byte
	rand.Read(b[:])
	buf := make([]byte, 0, 160)
	buf = append(buf, "Digest "+realm+`, qop="auth", algorithm=SHA-256, nonce="`...)
	buf = hex.AppendEncode(buf, b[:16])
	buf = append(buf, `", opaque="`...)
	buf = hex.AppendEncode(buf, b[16:])
	return string(append(buf, '"'))
}

// present checks that credentials of an HTTP scheme the mock knows no more
// about are sent.
func present(c credentials, scheme string) *problem.Problem {
	switch {
	case c.scheme == "":
		return unauthorized(problem.CodeNoCredentials, scheme+" "+realm, "missing %s credentials in the Authorization header", scheme)
	case !strings.EqualFold(c.scheme, scheme):
		return unauthorized(problem.CodeBadCredentials, scheme+" "+realm, "the Authorization header uses the %q scheme; %s is required", Clip(c.scheme, 20), scheme)
	}
	return nil
}

// apiKeyValue returns the API key of scheme sch in the request, or "".
func apiKeyValue(r *http.Request, sch *openapi.SecurityScheme) string {
	switch sch.In {
	case "header":
		return r.Header.Get(sch.Param)
	case "query":
		return r.URL.Query().Get(sch.Param)
	case "cookie":
		if c, err := r.Cookie(sch.Param); err == nil {
			return c.Value
		}
	}
	return ""
}

func (s *Engine) apiKey(r *http.Request, sch *openapi.SecurityScheme) *problem.Problem {
	v := apiKeyValue(r, sch)
	challenge := `APIKey ` + realm + `, in=` + quotedString(sch.In) + `, name=` + quotedString(sch.Param)
	if v == "" {
		return unauthorized(problem.CodeNoCredentials, challenge, "missing API key: send it in the %s %q", sch.In, sch.Param)
	}
	if s.Tokens != nil {
		if _, ok := s.Tokens[v]; !ok {
			return unauthorized(problem.CodeTokenRejected, challenge+`, error="invalid_token"`, "the API key in the %s %q is not accepted", sch.In, sch.Param)
		}
	}
	return nil
}

// quotedString returns s as an RFC 9110 quoted-string: in double quotes,
// with double quotes and backslashes escaped.
func quotedString(s string) string {
	if !strings.ContainsAny(s, "\"\\") {
		return `"` + s + `"`
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}
