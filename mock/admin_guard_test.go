package mock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// guardCall sends one request to ts under host (the address of ts when
// empty) with the headers in kv, and returns the answer.
func guardCall(t *testing.T, ts *httptest.Server, method, path, host, body string, kv ...string) (int, map[string]string, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for i := 0; i+1 < len(kv); i += 2 {
		req.Header.Set(kv[i], kv[i+1])
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, headerMap(resp.Header), string(got)
}

// TestAdminGuard: the admin API answers calls with no browser marks, from
// its own origin and from the origins of AdminCORS, under IP addresses,
// localhost and AllowedHosts; it refuses every other origin and Host with
// 403, with no CORS headers, whatever CORS is for the mocked API, which
// keeps its own.
func TestAdminGuard(t *testing.T) {
	s, ts := newTestServer(t, Options{CORS: true, Admin: AdminOptions{CORS: []string{"http://localhost:3000", "https://Admin.Example"}, AllowedHosts: []string{"mock.internal", "*.corp.example"}}})
	port := ts.Listener.Addr().(*net.TCPAddr).Port
	self := "127.0.0.1:" + itoa(port)
	const journal = `{"requests":[]}`
	otherOrigin := func(o string) string {
		return errBody(problem.CodeForbidden, "the admin API does not answer pages of other origins ("+o+"); allow one with --admin-cors ORIGIN")
	}
	otherHost := func(h string) string {
		return errBody(problem.CodeForbidden, `the admin API does not answer calls to host "`+h+`": use the mock's address or localhost, or allow that name with --allowed-host (this keeps DNS rebinding out)`)
	}
	allowed := func(o string) map[string]string {
		return jsonHeader(journal, "Access-Control-Allow-Origin", o, "Access-Control-Allow-Credentials", "true", "Vary", "Origin")
	}
	for _, c := range []struct {
		name, method, path, host string
		kv                       []string
		status                   int
		header                   map[string]string
		body                     string
	}{
		{name: "no browser", host: "", status: 200, header: jsonHeader(journal), body: journal},
		{name: "typed by a person", kv: []string{"Sec-Fetch-Site", "none"}, status: 200, header: jsonHeader(journal), body: journal},
		{name: "same origin", kv: []string{"Sec-Fetch-Site", "same-origin", "Origin", "http://" + self}, status: 200, header: jsonHeader(journal), body: journal},
		{name: "same origin, Origin alone", kv: []string{"Origin", "http://" + self}, status: 200, header: jsonHeader(journal), body: journal},
		{name: "another site", kv: []string{"Sec-Fetch-Site", "cross-site", "Origin", "http://evil.example"},
			status: 403, header: jsonHeader(otherOrigin("http://evil.example")), body: otherOrigin("http://evil.example")},
		{name: "another port of the same host", kv: []string{"Sec-Fetch-Site", "same-site", "Origin", "http://127.0.0.1:8080"},
			status: 403, header: jsonHeader(otherOrigin("http://127.0.0.1:8080")), body: otherOrigin("http://127.0.0.1:8080")},
		{name: "Origin alone, another origin", kv: []string{"Origin", "http://evil.example"},
			status: 403, header: jsonHeader(otherOrigin("http://evil.example")), body: otherOrigin("http://evil.example")},
		{name: "an opaque origin", kv: []string{"Origin", "null"},
			status: 403, header: jsonHeader(otherOrigin("null")), body: otherOrigin("null")},
		{name: "cross-site without Origin", kv: []string{"Sec-Fetch-Site", "cross-site"},
			status: 403, header: jsonHeader(otherOrigin("null")), body: otherOrigin("null")},
		{name: "a no-cors text/plain reset from another site", method: "POST", path: "/__admin/reset",
			kv:     []string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors", "Origin", "http://evil.example", "Content-Type", "text/plain"},
			status: 403, header: jsonHeader(otherOrigin("http://evil.example")), body: otherOrigin("http://evil.example")},
		{name: "an allowed origin", kv: []string{"Sec-Fetch-Site", "same-site", "Origin", "http://localhost:3000"},
			status: 200, header: allowed("http://localhost:3000"), body: journal},
		{name: "an allowed origin, default port", kv: []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://admin.example"},
			status: 200, header: allowed("https://admin.example"), body: journal},
		{name: "an allowed origin's preflight", method: "OPTIONS", path: "/__admin/reset",
			kv:     []string{"Sec-Fetch-Site", "same-site", "Origin", "http://localhost:3000", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "x-mock-session"},
			status: 204, header: map[string]string{"Access-Control-Allow-Origin": "http://localhost:3000", "Access-Control-Allow-Credentials": "true",
				"Access-Control-Allow-Methods": "GET, POST, PUT, DELETE", "Access-Control-Allow-Headers": "x-mock-session", "Access-Control-Max-Age": "600",
				"Vary": "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"}},
		{name: "another origin's preflight", method: "OPTIONS", path: "/__admin/reset",
			kv:     []string{"Sec-Fetch-Site", "cross-site", "Origin", "http://evil.example", "Access-Control-Request-Method", "POST"},
			status: 403, header: jsonHeader(otherOrigin("http://evil.example")), body: otherOrigin("http://evil.example")},
		{name: "localhost", host: "localhost:" + itoa(port), status: 200, header: jsonHeader(journal), body: journal},
		{name: "a name under .localhost", host: "app.localhost:" + itoa(port), status: 200, header: jsonHeader(journal), body: journal},
		{name: "IPv6 loopback", host: "[::1]:" + itoa(port), status: 200, header: jsonHeader(journal), body: journal},
		{name: "another IP address", host: "192.0.2.7", status: 200, header: jsonHeader(journal), body: journal},
		{name: "an allowed host", host: "MOCK.internal:" + itoa(port), status: 200, header: jsonHeader(journal), body: journal},
		{name: "an allowed domain's host", host: "ci.corp.example", status: 200, header: jsonHeader(journal), body: journal},
		{name: "a rebinding name", host: "rebind.attacker.example:" + itoa(port),
			status: 403, header: jsonHeader(otherHost("rebind.attacker.example:" + itoa(port))), body: otherHost("rebind.attacker.example:" + itoa(port))},
		{name: "a rebinding name, same origin by its own account", host: "rebind.attacker.example", kv: []string{"Sec-Fetch-Site", "same-origin"},
			status: 403, header: jsonHeader(otherHost("rebind.attacker.example")), body: otherHost("rebind.attacker.example")},
		{name: "the domain itself is not its hosts", host: "corp.example", status: 403, header: jsonHeader(otherHost("corp.example")), body: otherHost("corp.example")},
		{name: "health under any name", path: healthPath, host: "rebind.attacker.example", status: 200,
			header: jsonHeader(`{"spec":"OpenAPI Plant Store 1.0.0","status":"ok","store":"memory","version":"` + Version + `"}`),
			body:   `{"spec":"OpenAPI Plant Store 1.0.0","status":"ok","store":"memory","version":"` + Version + `"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			method, path := c.method, c.path
			if method == "" {
				method = "GET"
			}
			if path == "" {
				path = "/__admin/requests"
			}
			status, header, body := guardCall(t, ts, method, path, c.host, "", c.kv...)
			if status != c.status || !equalMaps(header, c.header) || body != c.body {
				t.Errorf("%d %v %s\nwant %d %v %s", status, header, body, c.status, c.header, c.body)
			}
		})
	}

	// The mocked API keeps its CORS for any origin, and the store is
	// whole: the refused reset reset nothing.
	status, header, _ := guardCall(t, ts, "POST", "/plants", "", `{"id":1,"name":"Fern"}`,
		"Authorization", "Bearer t", "Content-Type", "application/json", "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site")
	if status != 200 || header["Access-Control-Allow-Origin"] != "http://evil.example" {
		t.Errorf("the mocked API from another origin: %d %v", status, header)
	}
	guardCall(t, ts, "POST", "/__admin/reset", "", "", "Origin", "http://evil.example", "Content-Type", "text/plain")
	guardCall(t, ts, "DELETE", "/__admin/store", "rebind.attacker.example", "")
	if n := stored(s, "/plants"); n != 1 {
		t.Errorf("after refused resets the store holds %d plants, want 1", n)
	}
}

// TestAdminGuardOptions: New refuses origins and hosts it cannot use,
// naming the option.
func TestAdminGuardOptions(t *testing.T) {
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Admin: AdminOptions{CORS: []string{"*"}}}, `admin-cors: "*" is not an origin: write it as scheme://host[:port], as browsers send it in Origin`},
		{Options{Admin: AdminOptions{CORS: []string{"http://localhost:3000/app"}}}, `admin-cors: "http://localhost:3000/app" is not an origin: write it as scheme://host[:port], as browsers send it in Origin`},
		{Options{Admin: AdminOptions{CORS: []string{"localhost:3000"}}}, `admin-cors: "localhost:3000" is not an origin: write it as scheme://host[:port], as browsers send it in Origin`},
		{Options{Admin: AdminOptions{AllowedHosts: []string{"http://mock.internal"}}}, `allowed-host: "http://mock.internal" is not a host name: write a name (mock.example.com), *.domain or *, without scheme or port`},
		{Options{Admin: AdminOptions{AllowedHosts: []string{"mock.internal:4010"}}}, `allowed-host: "mock.internal:4010" is not a host name: write a name (mock.example.com), *.domain or *, without scheme or port`},
	} {
		_, err := New(c.opts)
		var oe *pipeline.OptionError
		if !errors.As(err, &oe) || err.Error() != c.want {
			t.Errorf("New(%+v) = %v\nwant the OptionError %s", c.opts, err, c.want)
		}
	}
	s, ts := newTestServer(t, Options{Admin: AdminOptions{AllowedHosts: []string{"*"}}})
	if status, _, body := guardCall(t, ts, "GET", "/__admin/requests", "any.name.example", ""); status != 200 || body != `{"requests":[]}` {
		t.Errorf("--allowed-host '*': %d %s", status, body)
	}
	_ = s
}

// TestAdminOpenWarning: serving the admin API on an address other
// machines reach, without an admin token, logs one warning; on loopback,
// with a token, or without the admin API, nothing.
func TestAdminOpenWarning(t *testing.T) {
	for _, c := range []struct {
		name      string
		addr      string
		opts      Options
		adminAddr string // ServeAdmin on this address too
		want      string
	}{
		{name: "all interfaces", addr: "0.0.0.0:0", want: "the admin API is open to the network"},
		{name: "loopback", addr: "127.0.0.1:0"},
		{name: "a token", addr: "0.0.0.0:0", opts: Options{Admin: AdminOptions{Token: "t0k3n"}}},
		{name: "no admin API", addr: "0.0.0.0:0", opts: Options{Admin: AdminOptions{Disabled: true}}},
		{name: "an admin listener on all interfaces", addr: "127.0.0.1:0", opts: Options{Admin: AdminOptions{Disabled: true}}, adminAddr: "0.0.0.0:0", want: "the admin API is open to the network"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var logs syncBuffer
			c.opts.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{ReplaceAttr: dropTime}))
			s, err := New(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx, cancel := context.WithCancel(context.Background())
			var done []chan error
			var addrs []string
			serve := func(addr string, f func(context.Context, net.Listener) error) {
				ln, err := net.Listen("tcp", addr)
				if err != nil {
					t.Fatal(err)
				}
				addrs = append(addrs, ln.Addr().String())
				ch := make(chan error, 1)
				go func() { ch <- f(ctx, ln) }()
				done = append(done, ch)
			}
			serve(c.addr, s.Serve)
			if c.adminAddr != "" {
				serve(c.adminAddr, s.ServeAdmin)
			}
			// The warning is logged before serving starts: once an answer
			// came on every listener, it is in the log or never will be.
			for _, a := range addrs {
				_, port, _ := net.SplitHostPort(a)
				resp, err := http.Get("http://127.0.0.1:" + port + healthPath)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
			cancel()
			for _, ch := range done {
				if err := <-ch; err != nil {
					t.Error(err)
				}
			}
			got := logs.String()
			want := ""
			if c.want != "" {
				want = `level=WARN msg="the admin API is open to the network: whoever reaches this address can read the journal and change the mock's state; set an admin token (--admin-token or PLANTMOCK_ADMIN_TOKEN) or listen on 127.0.0.1" addr=` + addrs[len(addrs)-1] + "\n"
			}
			if got != want {
				t.Errorf("log:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// dropTime leaves the time out of log records.
func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// adminLog is a handler in front of the mock that keeps the method, path
// and status of every admin call it answered, so that a test knows the
// calls it refused did reach it.
type adminLog struct {
	h  http.Handler
	mu sync.Mutex // guards seen
	// seen holds "METHOD /path STATUS", in order.
	seen []string
}

func (l *adminLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := &statusWriter{ResponseWriter: w, status: 200}
	l.h.ServeHTTP(rec, r)
	if strings.HasPrefix(r.URL.Path, AdminPrefix) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.seen = append(l.seen, r.Method+" "+r.URL.Path+" "+itoa(rec.status))
	}
}

func (l *adminLog) calls() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

// statusWriter records the status a handler sent.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// attackPage is a page of another origin that tries what a hostile web
// site would against the mock at %s: read the journal, replace the
// store, activate a scenario and subscribe a webhook to a receiver of its
// own with CORS calls (the last three preflighted), then reset the state
// and send the webhook with no-cors calls, whose answers it cannot read. window.results says what it could
// read; window.done is set when every call has settled.
const attackPage = `<!doctype html><title>elsewhere</title><script>
const m = %q, results = {};
async function attempt(name, f) {
  try { results[name] = await f(); } catch (e) { results[name] = 'blocked: ' + e.name; }
}
(async () => {
  await attempt('read', async () => { const r = await fetch(m + '/__admin/requests'); return r.status + ' ' + await r.text(); });
  const put = async (path, body) => (await fetch(m + path, {method: 'PUT', headers: {'Content-Type': 'application/json'}, body})).status;
  await attempt('store', () => put('/__admin/store/plants', '[]'));
  await attempt('scenario', () => put('/__admin/scenario', '{"name":"slow"}'));
  await attempt('subscribe', () => put('/__admin/webhooks/%%2Fplant%%2Fwebhook', '{"url":%q}'));
  const plain = async path => (await fetch(m + path, {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body: '{}'})).type;
  await attempt('reset', () => plain('/__admin/reset'));
  await attempt('send', () => plain('/__admin/webhooks/%%2Fplant%%2Fwebhook/send'));
  window.results = results;
  window.done = true;
})();
</script>`

// TestAdminFromOtherOrigin: in a real browser, a page of another origin
// can neither read the admin API nor change the mock's state through
// it, with CORS on for the mocked API; every one of its calls reached the
// mock and was refused. Once its origin is allowed (--admin-cors), the
// same page reads the journal, so the refusals are the guard's doing.
func TestAdminFromOtherOrigin(t *testing.T) {
	var hits atomic.Int32
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer receiver.Close()
	b := startBrowser(t) // the page's blocked calls are logged as errors
	for _, allowed := range []bool{false, true} {
		var mock *httptest.Server
		page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, attackPage, mock.URL, receiver.URL+"/hook")
		}))
		defer page.Close()
		// The page is served from localhost, the mock from 127.0.0.1:
		// another site, as the browser counts sites.
		pageURL := strings.Replace(page.URL, "127.0.0.1", "localhost", 1)
		opts := Options{CORS: true, Spec: readSpec(t, "../examples/webhooks.yaml")}
		if allowed {
			opts.Admin.CORS = []string{pageURL}
		}
		s, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		log := &adminLog{h: s}
		mock = httptest.NewServer(log)
		defer mock.Close()
		do(t, mock, "POST", "/plants", `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t")
		state := func() string {
			var out []string
			for _, p := range []string{"/__admin/store", "/__admin/scenarios", "/__admin/webhooks"} {
				st, body := do(t, mock, "GET", p, "")
				out = append(out, itoa(st)+" "+body)
			}
			return strings.Join(out, "\n")
		}
		before := state()
		b.do("loading the page of another origin", chromedp.Navigate(pageURL+"/"))
		b.waitFor("the page's calls", `window.done === true`, true)
		got, err := b.eval(`window.results`)
		if err != nil {
			t.Fatal(err)
		}
		if !allowed {
			const blocked, opaque = "blocked: TypeError", "opaque"
			want := map[string]any{"read": blocked, "store": blocked, "scenario": blocked, "subscribe": blocked, "reset": opaque, "send": opaque}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the page saw %v\nwant %v", got, want)
			}
			if after := state(); after != before {
				t.Errorf("the state changed:\n%s\nwas\n%s", after, before)
			}
			wantCalls := []string{"GET /__admin/requests 403", "OPTIONS /__admin/store/plants 403", "OPTIONS /__admin/scenario 403",
				"OPTIONS /__admin/webhooks/%2Fplant%2Fwebhook 403", "POST /__admin/reset 403", "POST /__admin/webhooks/%2Fplant%2Fwebhook/send 403"}
			// The calls the test made itself have no browser marks.
			var fromPage []string
			for _, c := range log.calls() {
				if strings.HasSuffix(c, " 403") {
					fromPage = append(fromPage, strings.Replace(c, "/plant/webhook", "%2Fplant%2Fwebhook", 1))
				}
			}
			if !reflect.DeepEqual(fromPage, wantCalls) {
				t.Errorf("refused calls %q\nwant %q", fromPage, wantCalls)
			}
			if n := hits.Load(); n != 0 {
				t.Errorf("the receiver was sent %d webhooks", n)
			}
			continue
		}
		read, _ := got.(map[string]any)["read"].(string)
		if !strings.HasPrefix(read, `200 {"requests":[{`) {
			t.Errorf("with --admin-cors the page read %q, want the journal", read)
		}
	}
}

// TestAdminRebinding: in a real browser, a page whose host name resolves
// to the mock (as under DNS rebinding) is same-origin with it, and its
// calls to the admin API are refused; under localhost they are answered.
func TestAdminRebinding(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t")
	b := newBrowser(t, chromedp.Flag("host-resolver-rules", "MAP rebind.attacker.test 127.0.0.1"))
	port := itoa(ts.Listener.Addr().(*net.TCPAddr).Port)
	const calls = `(async () => {
	  const read = await fetch('/__admin/requests');
	  const reset = await fetch('/__admin/reset', {method: 'POST'});
	  return [read.status, (await read.text()).slice(0, 13), reset.status];
	})()`
	for _, c := range []struct {
		host string
		want []any
	}{
		{"rebind.attacker.test", []any{403.0, `{"error":4030`, 403.0}},
		{"localhost", []any{200.0, `{"requests":[`, 204.0}},
	} {
		// The health call answers under any name: the page loads from it.
		b.do("loading a page of "+c.host, chromedp.Navigate("http://"+c.host+":"+port+healthPath))
		raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]byte](calls, chromedp.EvalAsValue, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		var got []any
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: the page got %v, want %v", c.host, got, c.want)
		}
		if c.host != "localhost" && stored(s, "/plants") != 1 {
			t.Errorf("%s: the store was reset", c.host)
		}
	}
}
