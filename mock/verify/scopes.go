package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Scopes: credentials that hold some of a scheme's scopes only, which
// credential a request presents for the scopes its operation asks, the
// request that presents one without them (which must be refused), and
// the tokens an OAuth 2 client's credentials fetch.

// ScopedCredential is a credential of a security scheme that holds the
// scopes named (OAuth 2 and OpenID Connect scopes, or the roles OpenAPI
// 3.1 lets other schemes name), and no others: a token of a client that
// may read but not write, say. Value is sent as Options.Credentials'
// values are.
type ScopedCredential struct {
	Scheme string
	Scopes []string
	Value  string
}

// holds reports whether the credential holds every scope of want.
func (sc ScopedCredential) holds(want []string) bool {
	for _, w := range want {
		if !slices.Contains(sc.Scopes, w) {
			return false
		}
	}
	return true
}

// credentialFor returns the credential a request presents for scheme s
// where its operation asks the scopes want: the first scoped one that
// holds them all, else the scheme's credential of Options.Credentials
// (taken to hold every scope), else, where want is empty, the first
// scoped one; false for none.
func (r *runner) credentialFor(s *openapi.SecurityScheme, want []string) (string, bool) {
	for _, sc := range r.opts.Scoped {
		if sc.Scheme == s.Name && sc.holds(want) {
			return sc.Value, true
		}
	}
	if v, ok := r.opts.Credentials[s.Name]; ok {
		return v, true
	}
	return "", false
}

// hasCredentials reports whether the options give any credential.
func (r *runner) hasCredentials() bool {
	return len(r.opts.Credentials) > 0 || len(r.opts.Scoped) > 0
}

// scopesOf returns the scopes alternative alt of op asks of each of its
// schemes, by scheme name; nil for none.
func scopesOf(op *openapi.Operation, alt openapi.Requirement) map[string][]string {
	for i, a := range op.Security {
		if slices.Equal(a, alt) && i < len(op.Scopes) {
			return op.Scopes[i]
		}
	}
	return nil
}

// scopeMistakes are the requests of c that present, for a scheme of the
// alternative c's requests present, a scoped credential that lacks a
// scope the alternative asks of it: one request per such credential.
// Each must be refused, as a request without credentials must: a
// service that takes it ignores the scope.
func (r *runner) scopeMistakes(c *exercise.Call) []invalid {
	alt := r.alternative(c)
	want := scopesOf(c.Op, alt)
	var out []invalid
	for _, s := range alt {
		need := want[s.Name]
		if len(need) == 0 {
			continue
		}
		done := map[string]bool{}
		for _, sc := range r.opts.Scoped {
			if sc.Scheme != s.Name || sc.holds(need) || done[sc.Value] {
				continue
			}
			done[sc.Value] = true
			var lacks []string
			for _, n := range need {
				if !slices.Contains(sc.Scopes, n) {
					lacks = append(lacks, n)
				}
			}
			p := credential(s, sc.Value)
			out = append(out, invalid{name: "credentials of " + s.Name + " without scope " + strings.Join(lacks, ", "), scheme: s, alt: alt, lacks: lacks,
				why: openapi.Violation{Path: place(s), Reason: fmt.Sprintf("the credentials of security scheme %s hold %s, not %s, which the operation asks", s.Name, orNothing(sc.Scopes), strings.Join(lacks, ", ")), Schema: pointer(s)},
				mutate: func(req *http.Request, body []byte) ([]byte, bool) {
					put(req, p, false)
					return body, true
				}})
		}
	}
	return out
}

func orNothing(scopes []string) string {
	if len(scopes) == 0 {
		return "no scope"
	}
	return strings.Join(scopes, ", ")
}

// refusable reports whether the request req made for in meets no
// security alternative of op, so that a service keeping the document
// must refuse it. For a credential without scopes (in.lacks), each
// alternative must need a scope it lacks of its scheme, or a scheme
// whose credentials req does not present; for credentials not issued
// (in.wrong), each must need the scheme, or one req does not present.
func (in *invalid) refusable(op *openapi.Operation, req *http.Request) bool {
	if in.lacks == nil && !in.wrong {
		return refusable(op, in.scheme, req)
	}
	for i, alt := range op.Security {
		meets := true
		for _, o := range alt {
			switch {
			case o == in.scheme && in.wrong:
				meets = false
			case o == in.scheme:
				var want []string
				if i < len(op.Scopes) {
					want = op.Scopes[i][o.Name]
				}
				if slices.ContainsFunc(want, func(w string) bool { return slices.Contains(in.lacks, w) }) {
					meets = false
				}
			case !presents(req, o, ""):
				meets = false
			}
		}
		if meets {
			return false
		}
	}
	return true
}

// clientCredentials fetches a token for each credential of opts that
// is an OAuth 2 client's "client_id:secret", for a scheme with a client
// credentials flow (RFC 6749 4.4): the client authenticated with HTTP
// Basic (2.3.1) at the flow's tokenUrl, resolved against target, asking
// for a scoped credential's scopes. The token replaces the value. A
// token endpoint that refuses is an error: no run could be made.
func clientCredentials(ctx context.Context, doc *openapi.Document, target string, opts Options) (Options, error) {
	fetch := func(s *openapi.SecurityScheme, v string, scopes []string) (string, error) {
		id, secret, ok := strings.Cut(v, ":")
		if s.Type != "oauth2" || s.TokenURL == "" || !ok {
			return v, nil
		}
		return fetchToken(ctx, opts.Client, target, s, id, secret, scopes)
	}
	var creds map[string]string
	for name, v := range opts.Credentials {
		s := schemeNamed(doc, name)
		if s == nil {
			continue
		}
		tok, err := fetch(s, v, nil)
		if err != nil {
			return opts, err
		}
		if tok != v {
			if creds == nil {
				creds = maps.Clone(opts.Credentials)
			}
			creds[name] = tok
		}
	}
	if creds != nil {
		opts.Credentials = creds
	}
	scoped := slices.Clone(opts.Scoped)
	for i, sc := range scoped {
		s := schemeNamed(doc, sc.Scheme)
		if s == nil {
			continue
		}
		tok, err := fetch(s, sc.Value, sc.Scopes)
		if err != nil {
			return opts, err
		}
		scoped[i].Value = tok
	}
	opts.Scoped = scoped
	return opts, nil
}

// fetchToken asks the token endpoint of scheme s for a client
// credentials grant.
func fetchToken(ctx context.Context, client *http.Client, target string, s *openapi.SecurityScheme, id, secret string, scopes []string) (string, error) {
	base, err := url.Parse(target + "/")
	if err != nil {
		return "", err
	}
	ref, err := url.Parse(s.TokenURL)
	if err != nil {
		return "", fmt.Errorf("verify: credentials for %q: tokenUrl %q: %w", s.Name, s.TokenURL, err)
	}
	endpoint := base.ResolveReference(ref)
	if !ref.IsAbs() && strings.HasPrefix(s.TokenURL, "/") {
		// A path from the root of the target's host, as a server URL's
		// relative references are read.
		endpoint = &url.URL{Scheme: base.Scheme, Host: base.Host, Path: ref.Path, RawQuery: ref.RawQuery}
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("verify: credentials for %q: the token endpoint %s: %w", s.Name, endpoint, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var tok struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
	}
	_ = json.Unmarshal(b, &tok)
	if resp.StatusCode != http.StatusOK || tok.AccessToken == "" {
		return "", fmt.Errorf("verify: credentials for %q: the token endpoint %s answered %d without a token: %s", s.Name, endpoint, resp.StatusCode, oneLine(string(b), 200))
	}
	return tok.AccessToken, nil
}

// checkScoped says what is wrong with the scoped credentials given for
// a document, the first problem.
func checkScoped(doc *openapi.Document, scoped []ScopedCredential) error {
	for _, sc := range scoped {
		if schemeNamed(doc, sc.Scheme) == nil {
			return checkCredentials(doc, map[string]string{sc.Scheme: sc.Value})
		}
		if sc.Value == "" {
			return fmt.Errorf("verify: credentials for %q with scopes %s are empty", sc.Scheme, orNothing(sc.Scopes))
		}
	}
	return nil
}

// schemeNamed returns the document's security scheme of that name, or
// nil.
func schemeNamed(doc *openapi.Document, name string) *openapi.SecurityScheme {
	for _, s := range doc.SecuritySchemes {
		if s.Name == name {
			return s
		}
	}
	return nil
}
