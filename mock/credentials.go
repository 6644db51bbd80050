package mock

import (
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
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

// authorization splits an Authorization header value into its scheme and
// its credentials (RFC 9110 11.4).
func authorization(h string) (scheme, param string) {
	scheme, param, _ = strings.Cut(h, " ")
	return scheme, strings.TrimLeft(param, " ")
}

// readCredentials reads the credentials a request presents for op.
func readCredentials(op *openapi.Operation, r *http.Request) credentials {
	var c credentials
	c.scheme, c.param = authorization(r.Header.Get("Authorization"))
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
// When none is, the problem is the first alternative's.
func (s *Server) checkSecurity(x *exchange) *problem {
	op := x.plan.op
	x.cred = readCredentials(op, x.r)
	var first *problem
	for _, alt := range op.Security {
		p := s.satisfy(alt, x)
		if p == nil {
			return nil
		}
		if first == nil {
			first = p
		}
	}
	return first
}

func (s *Server) satisfy(alt openapi.Requirement, x *exchange) *problem {
	for _, sch := range alt {
		var p *problem
		switch {
		case sch.Type == "http" && sch.Scheme == "basic":
			p = basic(x.cred)
		case sch.Type == "http" && sch.Scheme != "bearer":
			// digest and other HTTP schemes: credentials of that scheme must be present.
			p = present(x.cred, sch.Scheme)
		case sch.Type == "http", sch.Type == "oauth2", sch.Type == "openIdConnect":
			p = s.bearer(x.cred)
		case sch.Type == "apiKey":
			p = s.apiKey(x.r, sch)
		}
		if p != nil {
			return p
		}
	}
	return nil
}

func unauthorized(code Code, challenge, format string, args ...any) *problem {
	p := invalid(code, classRequest, format, args...)
	p.status = http.StatusUnauthorized
	p.header = [2]string{"WWW-Authenticate", challenge}
	return p
}

// bearer checks "Authorization: Bearer <token68>" (RFC 6750; the scheme is
// case-insensitive) and, when tokens are configured, the token.
func (s *Server) bearer(c credentials) *problem {
	if c.scheme == "" {
		return unauthorized(CodeNoCredentials, "Bearer "+realm,
			`missing credentials: send "Authorization: Bearer <token>"`)
	}
	if !strings.EqualFold(c.scheme, "Bearer") {
		// RFC 6750 3.1: no error code when another method was attempted.
		return unauthorized(CodeBadCredentials, "Bearer "+realm,
			"the Authorization header uses the %q scheme; Bearer is required", clip(c.scheme, 20))
	}
	if !isToken68(c.param) {
		return unauthorized(CodeBadCredentials, "Bearer "+realm+`, error="invalid_request"`,
			"the bearer token is empty or malformed (RFC 6750 token68 expected)")
	}
	if s.tokens != nil {
		if _, ok := s.tokens[c.param]; !ok {
			return unauthorized(CodeTokenRejected, "Bearer "+realm+`, error="invalid_token"`,
				"the bearer token is not accepted")
		}
	}
	return nil
}

func basic(c credentials) *problem {
	const challenge = "Basic " + realm
	if c.scheme == "" {
		return unauthorized(CodeNoCredentials, challenge, `missing credentials: send "Authorization: Basic <base64 user:password>"`)
	}
	if !strings.EqualFold(c.scheme, "Basic") {
		return unauthorized(CodeBadCredentials, challenge, "the Authorization header uses the %q scheme; Basic is required", clip(c.scheme, 20))
	}
	raw, err := base64.StdEncoding.DecodeString(c.param)
	if err != nil || !strings.Contains(string(raw), ":") {
		return unauthorized(CodeBadCredentials, challenge, "the Basic credentials are not base64 of user:password")
	}
	return nil
}

func present(c credentials, scheme string) *problem {
	if !strings.EqualFold(c.scheme, scheme) {
		return unauthorized(CodeNoCredentials, scheme+" "+realm, "missing %s credentials in the Authorization header", scheme)
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

func (s *Server) apiKey(r *http.Request, sch *openapi.SecurityScheme) *problem {
	v := apiKeyValue(r, sch)
	challenge := `APIKey ` + realm + `, in="` + sch.In + `", name="` + sch.Param + `"`
	if v == "" {
		return unauthorized(CodeNoCredentials, challenge, "missing API key: send it in the %s %q", sch.In, sch.Param)
	}
	if s.tokens != nil {
		if _, ok := s.tokens[v]; !ok {
			return unauthorized(CodeTokenRejected, challenge+`, error="invalid_token"`, "the API key in the %s %q is not accepted", sch.In, sch.Param)
		}
	}
	return nil
}

// isToken68 reports whether t matches RFC 7235 token68:
// 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
func isToken68(t string) bool {
	i := 0
	for i < len(t) {
		c := t[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' {
			i++
			continue
		}
		break
	}
	if i == 0 {
		return false
	}
	for ; i < len(t); i++ {
		if t[i] != '=' {
			return false
		}
	}
	return true
}
