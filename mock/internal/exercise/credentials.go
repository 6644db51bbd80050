package exercise

import (
	"net/http"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Credentials are made up for the first security alternative whose
// schemes one request can meet together: HTTP Basic a user and password,
// Digest a response with the parameters RFC 7616 requires, other HTTP
// schemes, OAuth 2 and OpenID Connect a bearer token (or
// credentials of the named HTTP scheme), API keys "key" where they go.
// Mutual TLS cannot be met over plain HTTP, nor can two schemes that each
// need their own Authorization header.

// credentialsFor returns the security alternative a request can meet,
// nil when the operation needs none, and false when it can meet none.
func credentialsFor(op *openapi.Operation) (openapi.Requirement, bool) {
	if len(op.Security) == 0 {
		return nil, true
	}
	for _, alt := range op.Security {
		if canMeet(alt) {
			return alt, true
		}
	}
	return nil, false
}

// authorization returns the Authorization header a scheme needs, "" for
// none.
func authorization(s *openapi.SecurityScheme) string {
	switch {
	case s.Type == "http" && s.Scheme == "basic":
		return "Basic dXNlcjpwYXNz"
	case s.Type == "http" && s.Scheme == "digest":
		// RFC 7616 3.4: the parameters a Digest response must carry.
		return `Digest username="user", realm="plantmock", nonce="0a1b2c", uri="/", qop=auth, nc=00000001, cnonce="3d4e", response="6629fae49393a05397450978507c4ef1"`
	case s.Type == "http" && s.Scheme != "bearer" && s.Scheme != "":
		return s.Scheme + " credentials"
	case s.Type == "http", s.Type == "oauth2", s.Type == "openIdConnect":
		return "Bearer token"
	case s.Type == "apiKey" && s.In == "header" && strings.EqualFold(s.Param, "Authorization"):
		return "key"
	}
	return ""
}

func canMeet(alt openapi.Requirement) bool {
	auth := ""
	for _, s := range alt {
		if s.Type == "mutualTLS" {
			return false
		}
		if s.Type == "apiKey" && (s.Param == "" || s.In != "header" && s.In != "query" && s.In != "cookie") {
			return false
		}
		a := authorization(s)
		if a == "" {
			continue
		}
		if auth != "" && a != auth {
			return false
		}
		auth = a
	}
	return true
}

// credentials adds the credentials of c.Auth to a request's header,
// query pairs and cookies.
func (c *Call) credentials(h http.Header, query, cookies []string) ([]string, []string) {
	for _, s := range c.Auth {
		if a := authorization(s); a != "" {
			h.Set("Authorization", a)
			continue
		}
		if s.Type != "apiKey" {
			continue
		}
		switch s.In {
		case "header":
			h.Set(s.Param, "key")
		case "query":
			query = append(query, escape(s.Param)+"=key")
		case "cookie":
			cookies = append(cookies, escape(s.Param)+"=key")
		}
	}
	return query, cookies
}

// describeSecurity lists an operation's security alternatives, each as
// its schemes' names and types.
func describeSecurity(op *openapi.Operation) string {
	var alts []string
	for _, alt := range op.Security {
		var ss []string
		for _, s := range alt {
			ss = append(ss, s.Name+" ("+strings.TrimSpace(s.Type+" "+s.Scheme+s.In)+")")
		}
		alts = append(alts, strings.Join(ss, " and "))
	}
	return strings.Join(alts, ", or ")
}
