package mock

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

const challengeSpec = `openapi: 3.1.0
info: {title: challenges, version: '1'}
paths:
  /digest:
    get:
      security: [{digest: []}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: boolean}}}}
  /basic:
    get:
      security: [{basic: []}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: boolean}}}}
  /bearer:
    get:
      security: [{bearer: []}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: boolean}}}}
  /either:
    get:
      security: [{basic: []}, {digest: []}, {bearer: []}, {oauth: [read]}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: boolean}}}}
  /both:
    get:
      security: [{key: [], basic: []}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: boolean}}}}
  /quoted:
    get:
      security: [{odd: []}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: boolean}}}}
components:
  securitySchemes:
    odd: {type: apiKey, in: query, name: 'k"e\y'}
    digest: {type: http, scheme: digest}
    basic: {type: http, scheme: basic}
    bearer: {type: http, scheme: bearer}
    key: {type: apiKey, in: header, name: X-Key}
    oauth:
      type: oauth2
      flows:
        clientCredentials: {tokenUrl: 'https://example.com/token', scopes: {read: read}}
`

// digestWanted stands for a Digest challenge in a list of wanted
// challenges: its parameters are checked, its nonce and opaque only for
// being there, since they are fresh for each challenge.
const digestWanted = "Digest ..."

const basicWanted = `Basic realm="plantmock", charset="UTF-8"`

// TestChallenges checks the WWW-Authenticate challenges of 401 answers:
// one field per scheme that could be satisfied, each in its RFC's form.
func TestChallenges(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(challengeSpec), Tokens: []string{"good"}})
	const digestOK = `Digest username="u", realm="plantmock", uri="/digest", algorithm=SHA-256, ` +
		`nonce="0123", nc=00000001, cnonce="c", qop=auth, response="abcd", opaque="4567"`
	for _, tt := range []struct {
		name, path, auth string
		status           int
		code             problem.Code
		message          string
		challenges       []string
	}{
		{name: "digest missing", path: "/digest", status: 401, code: problem.CodeNoCredentials,
			message:    `missing credentials: send "Authorization: Digest ..." answering the challenge`,
			challenges: []string{digestWanted}},
		{name: "digest for basic", path: "/digest", auth: "Basic dTpw", status: 401, code: problem.CodeBadCredentials,
			message:    `the Authorization header uses the "Basic" scheme; Digest is required`,
			challenges: []string{digestWanted}},
		{name: "digest without response", path: "/digest", auth: `Digest username="u", realm="plantmock", nonce="1", uri="/digest"`,
			status: 401, code: problem.CodeBadCredentials, message: "the Digest credentials have no response parameter",
			challenges: []string{digestWanted}},
		{name: "digest with a comma in a quoted value", path: "/digest",
			auth:   `Digest username="a,b\"c", realm="plantmock", nonce="1", uri="/digest?x=1,2", response="r"`,
			status: 200},
		{name: "digest without username", path: "/digest", auth: `Digest realm="plantmock", nonce="1", uri="/digest", response="r"`,
			status: 401, code: problem.CodeBadCredentials, message: "the Digest credentials have no username parameter",
			challenges: []string{digestWanted}},
		{name: "digest", path: "/digest", auth: digestOK, status: 200},
		{name: "digest lower case", path: "/digest", auth: "digest" + strings.TrimPrefix(digestOK, "Digest"), status: 200},
		{name: "basic missing", path: "/basic", status: 401, code: problem.CodeNoCredentials,
			message:    `missing credentials: send "Authorization: Basic <base64 user:password>"`,
			challenges: []string{basicWanted}},
		{name: "basic malformed", path: "/basic", auth: "Basic !!", status: 401, code: problem.CodeBadCredentials,
			message:    "the Basic credentials are not base64 of user:password",
			challenges: []string{basicWanted}},
		{name: "basic", path: "/basic", auth: "Basic dTpw", status: 200},
		{name: "bearer missing", path: "/bearer", status: 401, code: problem.CodeNoCredentials,
			message:    `missing credentials: send "Authorization: Bearer <token>"`,
			challenges: []string{`Bearer realm="plantmock"`}},
		{name: "bearer for basic", path: "/bearer", auth: "Basic dTpw", status: 401, code: problem.CodeBadCredentials,
			message:    `the Authorization header uses the "Basic" scheme; Bearer is required`,
			challenges: []string{`Bearer realm="plantmock"`}},
		{name: "bearer malformed", path: "/bearer", auth: "Bearer a b", status: 401, code: problem.CodeBadCredentials,
			message:    "the bearer token is empty or malformed (RFC 6750 token68 expected)",
			challenges: []string{`Bearer realm="plantmock", error="invalid_request"`}},
		{name: "bearer rejected", path: "/bearer", auth: "Bearer bad", status: 401, code: problem.CodeTokenRejected,
			message:    "the bearer token is not accepted",
			challenges: []string{`Bearer realm="plantmock", error="invalid_token"`}},
		{name: "bearer", path: "/bearer", auth: "Bearer good", status: 200},
		{name: "either missing", path: "/either", status: 401, code: problem.CodeNoCredentials,
			message:    `missing credentials: send "Authorization: Basic <base64 user:password>"`,
			challenges: []string{basicWanted, digestWanted, `Bearer realm="plantmock"`}},
		{name: "either with a rejected token tells of the token", path: "/either", auth: "Bearer bad",
			status: 401, code: problem.CodeTokenRejected, message: "the bearer token is not accepted",
			challenges: []string{basicWanted, digestWanted, `Bearer realm="plantmock", error="invalid_token"`}},
		{name: "either with unknown credentials", path: "/either", auth: "Negotiate abc", status: 401, code: problem.CodeBadCredentials,
			message:    `the Authorization header uses the "Negotiate" scheme; Basic is required`,
			challenges: []string{basicWanted, digestWanted, `Bearer realm="plantmock"`}},
		{name: "either by basic", path: "/either", auth: "Basic dTpw", status: 200},
		{name: "either by digest", path: "/either", auth: digestOK, status: 200},
		{name: "either by bearer", path: "/either", auth: "Bearer good", status: 200},
		{name: "both missing", path: "/both", status: 401, code: problem.CodeNoCredentials,
			message:    `missing API key: send it in the header "X-Key"`,
			challenges: []string{`APIKey realm="plantmock", in="header", name="X-Key"`, basicWanted}},
		{name: "API key name quoted", path: "/quoted", status: 401, code: problem.CodeNoCredentials,
			message:    `missing API key: send it in the query "k\"e\\y"`,
			challenges: []string{`APIKey realm="plantmock", in="query", name="k\"e\\y"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.auth != "" {
				h["Authorization"] = tt.auth
			}
			req, resp, body := send(t, ts, call{method: "GET", path: tt.path, header: h})
			if resp.StatusCode != tt.status {
				t.Fatalf("status = %d, want %d (body %s)", resp.StatusCode, tt.status, body)
			}
			assertConforms(t, s, req, resp, body)
			got := resp.Header.Values("WWW-Authenticate")
			if tt.status != 401 {
				if len(got) > 0 {
					t.Errorf("WWW-Authenticate = %q, want none", got)
				}
				return
			}
			if want := errBody(tt.code, tt.message); string(body) != want {
				t.Errorf("body = %s\nwant   %s", body, want)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q, want application/json", ct)
			}
			if len(got) != len(tt.challenges) {
				t.Fatalf("WWW-Authenticate = %q, want %d fields: %q", got, len(tt.challenges), tt.challenges)
			}
			for i, want := range tt.challenges {
				if want == digestWanted {
					checkDigestChallenge(t, got[i])
					continue
				}
				if got[i] != want {
					t.Errorf("WWW-Authenticate[%d] = %s\nwant                 %s", i, got[i], want)
				}
			}
		})
	}
}

// TestDigestNonceFresh checks that two Digest challenges never share a
// nonce (RFC 7616 3.3), nor two servers.
func TestDigestNonceFresh(t *testing.T) {
	_, ts1 := newTestServer(t, Options{Spec: []byte(challengeSpec)})
	_, ts2 := newTestServer(t, Options{Spec: []byte(challengeSpec)})
	seen := map[string]bool{}
	for i, ts := range []*httptest.Server{ts1, ts1, ts2, ts1} {
		_, resp, _ := send(t, ts, call{method: "GET", path: "/digest"})
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("request %d: status = %d, want 401", i, resp.StatusCode)
		}
		p := checkDigestChallenge(t, resp.Header.Get("WWW-Authenticate"))
		if seen[p["nonce"]] {
			t.Errorf("request %d: nonce %s was given before", i, p["nonce"])
		}
		seen[p["nonce"]] = true
	}
}

// checkDigestChallenge asserts that c is an RFC 7616 challenge of the
// mock's realm for SHA-256 with qop auth, a nonce and an opaque, and
// returns its parameters.
func checkDigestChallenge(t *testing.T, c string) map[string]string {
	t.Helper()
	scheme, params, ok := parseChallenge(c)
	if !ok || scheme != "Digest" {
		t.Fatalf("challenge %q is not a well-formed Digest challenge", c)
	}
	want := map[string]string{"realm": "plantmock", "qop": "auth", "algorithm": "SHA-256"}
	for k, v := range want {
		if params[k] != v {
			t.Errorf("challenge %s: %s = %q, want %q", c, k, params[k], v)
		}
	}
	for _, k := range []string{"nonce", "opaque"} {
		if len(params[k]) != 32 || strings.Trim(params[k], "0123456789abcdef") != "" {
			t.Errorf("challenge %s: %s = %q, want 32 hex digits", c, k, params[k])
		}
	}
	if len(params) != 5 {
		t.Errorf("challenge %s has %d parameters, want 5", c, len(params))
	}
	if !strings.HasPrefix(c, `Digest realm="plantmock", qop="auth", algorithm=SHA-256, nonce="`) {
		t.Errorf("challenge %s does not start with realm, qop and algorithm", c)
	}
	return params
}

// parseChallenge splits one challenge (RFC 9110 11.3) into its scheme and
// its auth-params, unquoted.
func parseChallenge(c string) (scheme string, params map[string]string, ok bool) {
	scheme, rest, _ := strings.Cut(c, " ")
	params = map[string]string{}
	for rest != "" {
		rest = strings.TrimLeft(rest, " ")
		k, v, found := strings.Cut(rest, "=")
		if !found || k == "" || strings.ContainsAny(k, ` ",`) {
			return "", nil, false
		}
		if strings.HasPrefix(v, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' {
					i++
				}
				if i < len(v) {
					b.WriteByte(v[i])
				}
			}
			if i >= len(v) {
				return "", nil, false
			}
			params[strings.ToLower(k)] = b.String()
			v = v[i+1:]
		} else {
			tok, _, _ := strings.Cut(v, ",")
			params[strings.ToLower(k)] = tok
			v = v[len(tok):]
		}
		if v != "" && !strings.HasPrefix(v, ",") {
			return "", nil, false
		}
		rest = strings.TrimPrefix(v, ",")
	}
	return scheme, params, true
}

const fixedRefusalSpec = `openapi: 3.1.0
info: {title: fixed refusals, version: '1'}
paths:
  /plain:
    get:
      security: [{bearer: []}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: boolean}}}}
  /shaped:
    get:
      security: [{bearer: []}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: boolean}}}}
        '401':
          description: no
          content:
            application/problem+json:
              schema:
                type: object
                required: [status, title, detail]
                properties: {status: {type: integer}, title: {type: string}, detail: {type: string}}
  /either:
    get:
      security: [{bearer: []}, {basic: []}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: boolean}}}}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
    basic: {type: http, scheme: basic}
`

// TestFixedRefusal: the refusal of a request without credentials, made
// once, answers the same bytes every time in each operation's shape; an operation that merges challenges
// does not change it, nor does a caller that changes the answer bodies
// the journal hands out.
func TestFixedRefusal(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(fixedRefusalSpec)})
	const msg = `missing credentials: send \"Authorization: Bearer <token>\"`
	bearer := []string{`Bearer realm="plantmock"`}
	cases := []struct {
		path, ct, body string
		challenges     []string
	}{
		{"/plain", "application/json", `{"error":40100,"message":"` + msg + `"}`, bearer},
		{"/shaped", "application/problem+json", `{"status":401,"title":"Unauthorized","detail":"` + msg + `"}`, bearer},
		{"/either", "application/json", `{"error":40100,"message":"` + msg + `"}`, []string{bearer[0], basicWanted}},
	}
	for round := range 3 {
		for _, tt := range cases {
			_, resp, body := send(t, ts, call{method: "GET", path: tt.path})
			if resp.StatusCode != 401 || string(body) != tt.body || resp.Header.Get("Content-Type") != tt.ct {
				t.Fatalf("round %d, %s: %d %s %s, want 401 %s %s", round, tt.path, resp.StatusCode, resp.Header.Get("Content-Type"), body, tt.ct, tt.body)
			}
			if got := resp.Header.Values("WWW-Authenticate"); !slices.Equal(got, tt.challenges) {
				t.Fatalf("round %d, %s: WWW-Authenticate = %q, want %q", round, tt.path, got, tt.challenges)
			}
		}
		// What the journal hands out is the caller's to change.
		for _, e := range s.Journal() {
			clear(e.Response)
		}
		es, err := s.Find(journal.Match{Status: 401})
		if err != nil || len(es) != 3*(round+1) {
			t.Fatalf("Find: %d entries, %v; want %d", len(es), err, 3*(round+1))
		}
		for _, e := range es {
			clear(e.Response)
		}
	}
}
