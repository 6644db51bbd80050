package verify_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

// locksSpec has an operation for each kind of security scheme, and for
// alternatives and schemes required together.
const locksSpec = `openapi: 3.1.0
info: {title: Locks, version: '1'}
paths:
  /bearer: {get: {security: [{bearer: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /basic: {get: {security: [{basic: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /digest: {get: {security: [{digest: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /oauth: {get: {security: [{oauth: [read]}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /header-key: {get: {security: [{headerKey: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /query-key: {get: {security: [{queryKey: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /cookie-key: {get: {security: [{cookieKey: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /either: {get: {security: [{basic: []}, {headerKey: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /both: {get: {security: [{bearer: [], queryKey: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /shared: {get: {security: [{bearer: []}, {authKey: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /open: {get: {security: [{}, {bearer: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
components:
  responses:
    OK: {description: ok, content: {application/json: {schema: {type: object, properties: {ok: {type: boolean}}}}}}
  securitySchemes:
    bearer: {type: http, scheme: bearer}
    basic: {type: http, scheme: basic}
    digest: {type: http, scheme: digest}
    oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: 'https://example.com/token', scopes: {read: read}}}}
    headerKey: {type: apiKey, in: header, name: X-Api-Key}
    queryKey: {type: apiKey, in: query, name: api_key}
    cookieKey: {type: apiKey, in: cookie, name: session}
    authKey: {type: apiKey, in: header, name: Authorization}
`

// credentialChecks are the checks of credentials verify makes of each
// operation of locksSpec: each scheme of each alternative (the first
// first) left out, then malformed; none for /open, whose credentials are
// optional, and no malformed bearer token for /shared, where an API key
// in Authorization takes any value.
var credentialChecks = map[string][]string{
	"GET /bearer":     {"missing credentials of bearer", "malformed credentials of bearer"},
	"GET /basic":      {"missing credentials of basic", "malformed credentials of basic"},
	"GET /digest":     {"missing credentials of digest", "malformed credentials of digest"},
	"GET /oauth":      {"missing credentials of oauth", "malformed credentials of oauth"},
	"GET /header-key": {"missing credentials of headerKey", "malformed credentials of headerKey"},
	"GET /query-key":  {"missing credentials of queryKey", "malformed credentials of queryKey"},
	"GET /cookie-key": {"missing credentials of cookieKey", "malformed credentials of cookieKey"},
	"GET /either":     {"missing credentials of basic", "malformed credentials of basic", "missing credentials of headerKey", "malformed credentials of headerKey"},
	"GET /both":       {"missing credentials of bearer", "missing credentials of queryKey", "malformed credentials of bearer", "malformed credentials of queryKey"},
	"GET /shared":     {"missing credentials of bearer", "missing credentials of authKey", "malformed credentials of authKey"},
	"GET /open":       nil,
}

// negatives returns the names of a report's negative checks by
// operation, and fails the test for one whose answer is not 401, or
// malformed for the checks of malformed credentials.
func negatives(t *testing.T, rep *verify.Report, malformed int) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	for _, c := range rep.Checks {
		if _, ok := got[c.Operation]; !ok {
			got[c.Operation] = nil
		}
		if c.Kind != "negative" || strings.HasPrefix(c.Name, "unsupported method ") {
			continue // not a credential's check
		}
		got[c.Operation] = append(got[c.Operation], c.Name)
		want := http.StatusUnauthorized
		if strings.HasPrefix(c.Name, "malformed ") {
			want = malformed
		}
		if c.Status != want {
			t.Errorf("%s: %s: status %d, want %d\n%s", c.Operation, c.Name, c.Status, want, c.Curl)
		}
	}
	return got
}

// TestCredentialChecks verifies the mock serving locksSpec, which
// refuses missing and malformed credentials with 401: verify sends each
// scheme's credentials left out and malformed, and finds nothing; and
// a service that only looks whether credentials are there, which
// accepts every malformed one: verify reports each, once.
func TestCredentialChecks(t *testing.T) {
	m, err := mock.New(mock.Options{Spec: []byte(locksSpec), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// there says whether a request carries credentials for an
	// operation's path, right or wrong: what the lax service checks.
	header := func(name string) func(*http.Request) bool {
		return func(r *http.Request) bool { return len(r.Header.Values(name)) > 0 }
	}
	query := func(r *http.Request) bool { return r.URL.Query().Has("api_key") }
	cookie := func(r *http.Request) bool { _, err := r.Cookie("session"); return err == nil }
	there := map[string]func(*http.Request) bool{
		"/bearer": header("Authorization"), "/basic": header("Authorization"), "/digest": header("Authorization"),
		"/oauth": header("Authorization"), "/header-key": header("X-Api-Key"), "/query-key": query, "/cookie-key": cookie,
		"/either": func(r *http.Request) bool { return header("Authorization")(r) || header("X-Api-Key")(r) },
		"/both":   func(r *http.Request) bool { return header("Authorization")(r) && query(r) },
		"/shared": header("Authorization"),
		"/open":   func(*http.Request) bool { return true },
	}
	lax := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if !there[r.URL.Path](r) {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"ok": false}`))
			return
		}
		w.Write([]byte(`{"ok": true}`))
	})
	tests := []struct {
		name    string
		service http.Handler
		status  int      // of the checks of malformed credentials
		failed  []string // "OPERATION: CHECK" of each failure
	}{
		{"mock", m, http.StatusUnauthorized, nil},
		{"lax service", lax, http.StatusOK, []string{
			"GET /bearer: negative: malformed credentials of bearer",
			"GET /basic: negative: malformed credentials of basic",
			"GET /digest: negative: malformed credentials of digest",
			"GET /oauth: negative: malformed credentials of oauth",
			"GET /header-key: negative: malformed credentials of headerKey",
			"GET /query-key: negative: malformed credentials of queryKey",
			"GET /cookie-key: negative: malformed credentials of cookieKey",
			"GET /either: negative: malformed credentials of basic",
			"GET /either: negative: malformed credentials of headerKey",
			"GET /both: negative: malformed credentials of bearer",
			"GET /both: negative: malformed credentials of queryKey",
			"GET /shared: negative: malformed credentials of authKey",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.service)
			defer srv.Close()
			rep, err := verify.Run(context.Background(), []byte(locksSpec), srv.URL, verify.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			got := negatives(t, rep, tt.status)
			for op, want := range credentialChecks {
				if g, ok := got[op]; !ok || !slices.Equal(g, want) {
					t.Errorf("%s: negative checks %q, want %q", op, g, want)
				}
			}
			var failed []string
			for _, f := range rep.Failures {
				failed = append(failed, f.Operation+": "+f.Check)
				if f.Rule != "accepted invalid input" || !strings.Contains(f.Text, "status 200: the request was not refused, but ") {
					t.Errorf("failure %s", f)
				}
			}
			if !slices.Equal(failed, tt.failed) {
				t.Errorf("failures\n%s\nwant\n%s", strings.Join(failed, "\n"), strings.Join(tt.failed, "\n"))
			}
		})
	}
}

// TestCredentialsGiven verifies a service that accepts only its own
// credentials, given by scheme: they arrive where each scheme says
// (the first alternative they complete chosen), made-up ones nowhere,
// and the curl lines show them as ***.
func TestCredentialsGiven(t *testing.T) {
	const spec = `openapi: 3.1.0
info: {title: Keys, version: '1'}
paths:
  /bearer: {get: {security: [{bearer: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /basic: {get: {security: [{basic: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /oauth: {get: {security: [{oauth: [read]}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /header-key: {get: {security: [{headerKey: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /query-key:
    get:
      security: [{queryKey: []}]
      parameters: [{name: q, in: query, required: true, schema: {type: string, enum: ['a b']}}]
      responses: {'200': {$ref: '#/components/responses/OK'}}
  /cookie-key: {get: {security: [{cookieKey: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
  /either: {get: {security: [{digest: []}, {cookieKey: []}], responses: {'200': {$ref: '#/components/responses/OK'}}}}
components:
  responses:
    OK: {description: ok, content: {application/json: {schema: {type: object, properties: {ok: {type: boolean}}}}}}
  securitySchemes:
    bearer: {type: http, scheme: bearer}
    basic: {type: http, scheme: basic}
    digest: {type: http, scheme: digest}
    oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: 'https://example.com/token', scopes: {read: read}}}}
    headerKey: {type: apiKey, in: header, name: X-Api-Key}
    queryKey: {type: apiKey, in: query, name: api_key}
    cookieKey: {type: apiKey, in: cookie, name: session}
`
	creds := map[string]string{
		"bearer": "t0k.en", "basic": "ann:p=w", "oauth": "oauth-token",
		"headerKey": "k=1/2+3", "queryKey": "q&k=v", "cookieKey": "c00kie",
	}
	// ok says whether a request carries the real credentials of its path.
	ok := map[string]func(*http.Request) bool{
		"/bearer": func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer t0k.en" },
		"/basic": func(r *http.Request) bool {
			return r.Header.Get("Authorization") == "Basic "+base64.StdEncoding.EncodeToString([]byte("ann:p=w"))
		},
		"/oauth":      func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer oauth-token" },
		"/header-key": func(r *http.Request) bool { return r.Header.Get("X-Api-Key") == "k=1/2+3" },
		"/query-key": func(r *http.Request) bool {
			return r.URL.Query().Get("api_key") == "q&k=v" && r.URL.Query().Get("q") == "a b"
		},
		"/cookie-key": func(r *http.Request) bool { c, err := r.Cookie("session"); return err == nil && c.Value == "c00kie" },
		"/either":     func(r *http.Request) bool { c, err := r.Cookie("session"); return err == nil && c.Value == "c00kie" },
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if !ok[r.URL.Path](r) {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"ok": false}`))
			return
		}
		w.Write([]byte(`{"ok": true}`))
	}))
	defer srv.Close()
	rep, err := verify.Run(context.Background(), []byte(spec), srv.URL, verify.Options{Seed: 1, Credentials: creds})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Failures {
		t.Errorf("%s\n%s", f, f.Curl)
	}
	// shown is how each positive check's curl line shows the
	// credentials.
	shown := map[string]string{
		"GET /bearer":     "-H 'Authorization: ***'",
		"GET /basic":      "-H 'Authorization: ***'",
		"GET /oauth":      "-H 'Authorization: ***'",
		"GET /header-key": "-H 'X-Api-Key: ***'",
		"GET /query-key":  "/query-key?q=a%20b&api_key=***'",
		"GET /cookie-key": "-H 'Cookie: session=***'",
		"GET /either":     "-H 'Cookie: session=***'",
	}
	positive := map[string]int{}
	for _, c := range rep.Checks {
		for _, v := range []string{"t0k.en", "ann:p=w", "YW5uOnA9dw==", "oauth-token", "k=1/2+3", "q%26k%3Dv", "c00kie"} {
			if strings.Contains(c.Curl, v) {
				t.Errorf("%s: %s: the curl line shows %q: %s", c.Operation, c.Name, v, c.Curl)
			}
		}
		if c.Kind != "positive" {
			continue
		}
		positive[c.Operation]++
		if c.Status != http.StatusOK || !strings.Contains(c.Curl, shown[c.Operation]) {
			t.Errorf("%s: %s: status %d, curl line %s; want 200 and %s", c.Operation, c.Name, c.Status, c.Curl, shown[c.Operation])
		}
	}
	if len(positive) != len(shown) {
		t.Errorf("positive checks of %v, want one of each of %d operations", positive, len(shown))
	}
}

// TestCredentialsRefused: credentials Run cannot send are refused
// before anything is sent.
func TestCredentialsRefused(t *testing.T) {
	tests := []struct {
		name  string
		creds map[string]string
		err   string
	}{
		{"no such scheme", map[string]string{"bearer": "t", "apiKey": "k"}, `verify: credentials for "apiKey": the document declares no such security scheme (it declares bearer, basic, digest, oauth, headerKey, queryKey, cookieKey, authKey)`},
		{"basic without a colon", map[string]string{"basic": "ann"}, `verify: credentials for "basic": basic credentials want USER:PASSWORD`},
		{"empty", map[string]string{"headerKey": ""}, `verify: credentials for "headerKey" are empty`},
		{"digest without a colon", map[string]string{"digest": "ann"}, `verify: credentials for "digest": digest credentials want USER:PASSWORD`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a request was sent: %s %s", r.Method, r.URL)
	}))
	defer srv.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := verify.Run(context.Background(), []byte(locksSpec), srv.URL, verify.Options{Credentials: tt.creds})
			if rep != nil || err == nil || err.Error() != tt.err {
				t.Errorf("Run: %v, %v; want %s", rep, err, tt.err)
			}
		})
	}
}

// TestWrongCredentials: with credentials given, each operation is sent
// well-formed ones no service issued, in place of the given ones (not
// shown in the curl line), which must be refused: a service that checks
// only that a token is there is found, one that checks it is not.
func TestWrongCredentials(t *testing.T) {
	const spec = `openapi: 3.1.0
info: {title: Keys, version: '1'}
paths:
  /bearer: {get: {security: [{bearer: []}], responses: {'204': {description: ok}}}}
  /basic: {get: {security: [{basic: []}], responses: {'204': {description: ok}}}}
  /key: {get: {security: [{key: []}], responses: {'204': {description: ok}}}}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
    basic: {type: http, scheme: basic}
    key: {type: apiKey, in: header, name: X-Key}
`
	creds := map[string]string{"bearer": "t0k.en", "basic": "ann:pw", "key": "k3y"}
	for _, lax := range []bool{false, true} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet {
				w.Header().Set("Allow", "GET")
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			auth, key := r.Header.Get("Authorization"), r.Header.Get("X-Key")
			good := auth == "Bearer t0k.en" || auth == "Basic "+base64.StdEncoding.EncodeToString([]byte("ann:pw")) || key == "k3y"
			if lax && r.URL.Path == "/bearer" {
				good = strings.HasPrefix(auth, "Bearer ") && len(auth) > len("Bearer ")
			}
			if !good {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			w.WriteHeader(http.StatusNoContent)
		}))
		rep, err := verify.Run(context.Background(), []byte(spec), srv.URL, verify.Options{Seed: 1, Credentials: creds})
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		sent := map[string]bool{}
		for _, c := range rep.Checks {
			if strings.HasPrefix(c.Name, "wrong credentials of ") {
				sent[c.Operation] = true
				if strings.Contains(c.Curl, "***") || !strings.Contains(c.Curl, "plantmock-not-issued") && !strings.Contains(c.Curl, base64.StdEncoding.EncodeToString([]byte("plantmock-not-issued:plantmock-not-issued"))) {
					t.Errorf("%s: %s", c.Name, c.Curl)
				}
			}
		}
		if len(sent) != 3 {
			t.Errorf("lax %v: wrong credentials sent to %v, want all three operations", lax, sent)
		}
		var got []string
		for _, f := range append(rep.Failures, rep.Advice...) {
			got = append(got, f.String())
		}
		want := []string(nil)
		if lax {
			want = []string{"GET /bearer: negative: wrong credentials of bearer: accepted invalid input: status 204: the request was not refused, but header.Authorization: credentials for security scheme bearer that no service issued (well formed, not the ones given) (#/components/securitySchemes/bearer)"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("lax %v: problems\n%q\nwant\n%q", lax, got, want)
		}
	}
}
