package mock

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
)

// TestMaskCredential pins the one masking rule: the last 4 characters
// after 4 stars, nothing of a value of 8 characters or fewer.
func TestMaskCredential(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "****"},
		{"a", "****"},
		{"abcdefgh", "****"},
		{"abcdefghi", "****fghi"},
		{"abcdefghijwxyz", "****wxyz"},
		{"ééééééééé", "****éééé"}, // characters, not bytes
	} {
		if got := journal.MaskCredential(c.in); got != c.want {
			t.Errorf("maskCredential(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		name     string
		mask     func(string) string
		in, want string
	}{
		{"bearer", journal.MaskAuthorization, "Bearer abcdefghijwxyz", "Bearer ****wxyz"},
		{"basic", journal.MaskAuthorization, "Basic dXNlcjpwYXNzd29yZA==", "Basic ****ZA=="},
		{"no scheme", journal.MaskAuthorization, "abcdefghijwxyz", "****wxyz"},
		{"short token", journal.MaskAuthorization, "Bearer t", "Bearer ****"},
		{"cookies", journal.MaskCookies, "sid=cookie-key-0003;theme=dark; flag", "sid=****0003; theme=****; ****"},
		{"set-cookie", journal.MaskSetCookie, "sid=cookie-key-0003; Path=/; HttpOnly", "sid=****0003; Path=/; HttpOnly"},
	} {
		if got := c.mask(c.in); got != c.want {
			t.Errorf("%s: %q masked is %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// credentialsSpec declares a bearer token and API keys in a header, the
// query and a cookie, all required by its one operation.
const credentialsSpec = `openapi: 3.1.0
info: {title: creds, version: "1"}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
    headerKey: {type: apiKey, in: header, name: X-Api-Key}
    queryKey: {type: apiKey, in: query, name: api_key}
    cookieKey: {type: apiKey, in: cookie, name: sid}
security:
  - {bearer: [], headerKey: [], queryKey: [], cookieKey: []}
paths:
  /things:
    get:
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {ok: {type: boolean}}}
              example: {ok: true}
`

// credentialHeaders are sent by the requests of TestJournalCredentials.
var credentialHeaders = []string{
	"Authorization", "Bearer abcdefghijwxyz",
	"Proxy-Authorization", "Basic dXNlcjpwYXNzd29yZA==",
	"X-Api-Key", "header-key-0002",
	"Cookie", "sid=cookie-key-0003; theme=dark",
}

// eachStore runs f with Options for a mock in memory and for one on a
// redis-server of its own.
func eachStore(t *testing.T, f func(t *testing.T, opts Options)) {
	t.Run("memory", func(t *testing.T) { f(t, Options{}) })
	t.Run("redis", func(t *testing.T) { f(t, Options{Store: StoreOptions{URL: redistest.NewServer(t).URL(0)}}) })
}

// journalJSON returns GET /__admin/requests with each entry's time and
// duration left out, keys sorted.
func journalJSON(t *testing.T, ts *httptest.Server, session string) string {
	t.Helper()
	var kv []string
	if session != "" {
		kv = []string{SessionHeader, session}
	}
	st, body := do(t, ts, "GET", "/__admin/requests", "", kv...)
	if st != 200 {
		t.Fatalf("GET /__admin/requests: %d %s", st, body)
	}
	var v struct{ Requests []map[string]any }
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("GET /__admin/requests: %v: %s", err, body)
	}
	for _, e := range v.Requests {
		if _, ok := e["time"]; !ok {
			t.Errorf("entry without a time: %v", e)
		}
		delete(e, "time")
		delete(e, "duration")
	}
	out, _ := json.Marshal(v.Requests)
	return string(out)
}

// TestJournalCredentials: the journal keeps credentials masked, in memory
// and in Redis, as GET /__admin/requests shows, and whole with
// Journal.Credentials clear.
func TestJournalCredentials(t *testing.T) {
	const (
		masked = `[{"headers":{"Accept-Encoding":["gzip"],"Authorization":["Bearer ****wxyz"],"Cookie":["sid=****0003; theme=****"],"Proxy-Authorization":["Basic ****ZA=="],"User-Agent":["Go-http-client/1.1"],"X-Api-Key":["****0002"]},"method":"GET","operation":"GET /things","path":"/things","query":"api_key=****0001\u0026limit=2","response":{"ok":true},"seq":1,"status":200,"token":"****wxyz"}]`
		clear  = `[{"headers":{"Accept-Encoding":["gzip"],"Authorization":["Bearer abcdefghijwxyz"],"Cookie":["sid=cookie-key-0003; theme=dark"],"Proxy-Authorization":["Basic dXNlcjpwYXNzd29yZA=="],"User-Agent":["Go-http-client/1.1"],"X-Api-Key":["header-key-0002"]},"method":"GET","operation":"GET /things","path":"/things","query":"api_key=query-key-0001\u0026limit=2","response":{"ok":true},"seq":1,"status":200,"token":"abcdefghijwxyz"}]`
	)
	eachStore(t, func(t *testing.T, opts Options) {
		for _, c := range []struct {
			name, creds, want string
		}{
			{"default", "", masked},
			{"masked", CredentialsMasked, masked},
			{"clear", CredentialsClear, clear},
		} {
			t.Run(c.name, func(t *testing.T) {
				o := opts
				o.Spec, o.Journal.Credentials, o.Store.Prefix = []byte(credentialsSpec), c.creds, "creds-"+c.name+":"
				observed := make(chan journal.Entry, 1)
				o.Observe = func(e journal.Entry) { observed <- e }
				_, ts := newTestServer(t, o)
				st, body := do(t, ts, "GET", "/things?api_key=query-key-0001&limit=2", "", credentialHeaders...)
				expect(t, "GET /things", st, body, 200, `{"ok":true}`)
				if got := journalJSON(t, ts, ""); got != c.want {
					t.Errorf("journal:\n%s\nwant\n%s", got, c.want)
				}
				want := "Bearer ****wxyz"
				if c.creds == CredentialsClear {
					want = "Bearer abcdefghijwxyz"
				}
				if e := <-observed; e.Header.Get("Authorization") != want {
					t.Errorf("Observe saw Authorization %q, want %q", e.Header.Get("Authorization"), want)
				}
			})
		}
	})
}

// TestJournalCredentialsOption: a value other than masked or clear is
// refused by New.
func TestJournalCredentialsOption(t *testing.T) {
	_, err := New(Options{Journal: JournalOptions{Credentials: "plain"}})
	var oe *pipeline.OptionError
	if !errors.As(err, &oe) || err.Error() != `journal-credentials: must be masked or clear, not "plain"` {
		t.Errorf("New: %v", err)
	}
}

// TestMaskURL: a URL keeps its user name and loses its password and its
// API-key query parameters to the mask; other URLs are kept as written.
func TestMaskURL(t *testing.T) {
	sec := &journal.Secrets{Query: []string{"api_key"}}
	for _, c := range []struct{ in, want string }{
		{"http://hooks.example/in", "http://hooks.example/in"},
		{"http://hooks.example/in?limit=1", "http://hooks.example/in?limit=1"},
		{"http://user:password-0004@hooks.example/in", "http://user:****0004@hooks.example/in"},
		{"http://user:short@hooks.example/in", "http://user:****@hooks.example/in"},
		{"http://user@hooks.example/in", "http://user@hooks.example/in"},
		{"http://hooks.example/in?api_key=query-key-0001&limit=2", "http://hooks.example/in?api_key=****0001&limit=2"},
		{"http://u:pass-word-9999@hooks.example/in?api_key=k", "http://u:****9999@hooks.example/in?api_key=****"},
		{"http://[::1%zz/in", "http://[::1%zz/in"}, // not a URL: kept
	} {
		if got := sec.MaskURL(c.in); got != c.want {
			t.Errorf("maskURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCallbackURLMasked: a callback URL that carries a password is
// refused, and the journal's outbound entry and the log line show it
// masked; whole with Journal.Credentials clear.
func TestCallbackURLMasked(t *testing.T) {
	for _, c := range []struct{ creds, shown string }{
		{"", "http://cb:****0004@192.0.2.10/cb?plant=4"},
		{CredentialsClear, "http://cb:password-0004@192.0.2.10/cb?plant=4"},
	} {
		t.Run("credentials "+c.creds, func(t *testing.T) {
			var logs bytes.Buffer
			var mu sync.Mutex
			s, ts := newTestServer(t, Options{Spec: callbackSpec(t), Journal: JournalOptions{Credentials: c.creds},
				Logger: slog.New(slog.NewTextHandler(lockedWriter{&logs, &mu}, nil))})
			st, body := do(t, ts, "POST", "/plants", `{"id":4,"name":"fern","callbackUrl":"http://cb:password-0004@192.0.2.10/cb"}`)
			if st != 201 {
				t.Fatalf("create: %d %s", st, body)
			}
			var e journal.Entry
			for _, x := range outbound(t, s, 2) {
				if x.Operation == "callback onPlant" {
					e = x
				}
			}
			want := `"http://cb:xxxxx@192.0.2.10/cb?plant=4" carries credentials; callbacks do not send them`
			if e.URL != c.shown || e.Error != want {
				t.Errorf("journal entry: URL %q, error %q; want %q, %q", e.URL, e.Error, c.shown, want)
			}
			mu.Lock()
			defer mu.Unlock()
			if line := `msg="callback refused" callback=onPlant operation="POST /plants" url="` + c.shown + `"`; !strings.Contains(logs.String(), line) {
				t.Errorf("log:\n%s\nwant a line with %s", logs.String(), line)
			}
		})
	}
}
