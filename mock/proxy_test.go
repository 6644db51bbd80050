package mock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// realStore is an upstream for the proxy tests: a Plant Store that
// answers by the plant's name, correctly or breaking the document in a
// known way, and keeps what it was sent.
type realStore struct {
	base string // the URL the mock is given: http://HOST:PORT/base
	mu   sync.Mutex
	seen []*http.Request // with Body read into bodies
	body []string
}

func (u *realStore) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	u.mu.Lock()
	u.seen, u.body = append(u.seen, r), append(u.body, string(b))
	u.mu.Unlock()
	var p struct{ Name any }
	json.Unmarshal(b, &p)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Real", "yes")
	switch p.Name {
	case "undeclared":
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, `{"name":"undeclared"}`)
	case "missing":
		io.WriteString(w, `{"tag":"no name"}`)
	case "wrongtype":
		io.WriteString(w, `{"name":"wrongtype","tag":7}`)
	case "ctype":
		h.Set("Content-Type", "text/plain")
		io.WriteString(w, "ctype")
	case "slow":
		<-r.Context().Done() // until the proxy gives up
	case "huge":
		// Over the checked size, without a Content-Length.
		io.WriteString(w, `{"name":"huge","tag":"`)
		chunk := strings.Repeat("x", 1<<20)
		for range 17 {
			io.WriteString(w, chunk)
		}
		io.WriteString(w, `"}`)
	case "garbage":
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err == nil {
			buf.WriteString("not HTTP at all\r\n\r\n")
			buf.Flush()
			conn.Close()
		}
	case "reset":
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.(interface{ SetLinger(int) error }).SetLinger(0)
			conn.Close()
		}
	default:
		io.WriteString(w, `{"name":"real `+fmt.Sprint(p.Name)+`"}`)
	}
}

// proxyServer starts a mock of the Plant Store proxying to a realStore
// mounted under /base, with a request log in logs.
func proxyServer(t *testing.T, opts Options) (*realStore, *httptest.Server, *bytes.Buffer) {
	t.Helper()
	u := &realStore{}
	mux := http.NewServeMux()
	mux.Handle("/base/", http.StripPrefix("/base", u))
	up := httptest.NewServer(mux)
	t.Cleanup(up.Close)
	var logs bytes.Buffer
	u.base = up.URL + "/base"
	opts.Proxy.URL = u.base
	if opts.Proxy.Timeout == 0 {
		opts.Proxy.Timeout = 500 * time.Millisecond
	}
	opts.LogRequests = true
	opts.Logger = slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil))
	_, ts := newTestServer(t, opts)
	return u, ts, &logs
}

// syncWriter serializes writes to a buffer the handler's goroutines share.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// TestProxy: the answers of the real service reach the client unchanged,
// each way they break the document is counted in X-Mock-Violations,
// listed in the journal with its direction and logged; the upstream's
// failures are a 502 and a 504 in the error shape.
func TestProxy(t *testing.T) {
	u, ts, logs := proxyServer(t, Options{})
	bearer := map[string]string{"Authorization": "Bearer abc", "Content-Type": "application/json"}
	cases := []struct {
		name, body string
		header     map[string]string
		status     int
		violations string // X-Mock-Violations
		answer     string
	}{
		{"conforming", `{"id":1,"name":"fern"}`, with(bearer, "Connection", "X-Hop", "X-Hop", "1", "Keep-Alive", "timeout=5"), 200, "", `{"name":"real fern"}`},
		{"undeclared status", `{"id":2,"name":"undeclared"}`, bearer, 418, "1; response: status 418 is not declared by POST /plants", `{"name":"undeclared"}`},
		{"missing property", `{"id":3,"name":"missing"}`, bearer, 200, "1; response name: required property is missing", `{"tag":"no name"}`},
		{"wrong type", `{"id":4,"name":"wrongtype"}`, bearer, 200, "1; response tag: expected string, got number", `{"name":"wrongtype","tag":7}`},
		{"wrong content type", `{"id":5,"name":"ctype"}`, bearer, 200, "1; response: Content-Type text/plain is not declared for 200", "ctype"},
		{"invalid request, forwarded", `{"id":"6","name":"fern"}`, bearer, 200, "1; request id: expected integer, got string", `{"name":"real fern"}`},
		{"unknown path, forwarded", "", bearer, 200, "1; request route: no path of the OpenAPI document matches /nowhere", `{"name":"real <nil>"}`},
		{"no credentials, forwarded", `{"id":7,"name":"fern"}`, map[string]string{"Content-Type": "application/json"}, 200, "1; request security: missing credentials: send \"Authorization: Bearer <token>\"", `{"name":"real fern"}`},
	}
	for _, c := range cases {
		req := call{method: "POST", path: "/plants", header: c.header, body: c.body}
		if c.name == "unknown path, forwarded" {
			req = call{method: "GET", path: "/nowhere?x=1", header: c.header}
		}
		_, resp, got := send(t, ts, req)
		if resp.StatusCode != c.status || string(got) != c.answer || resp.Header.Get(ViolationsHeader) != c.violations || resp.Header.Get("X-Real") != "yes" {
			t.Errorf("%s: %d %s, %s: %q, X-Real %q\nwant %d %s, %q", c.name, resp.StatusCode, got, ViolationsHeader, resp.Header.Get(ViolationsHeader), resp.Header.Get("X-Real"), c.status, c.answer, c.violations)
		}
	}

	// The upstream's failures.
	_, resp, got := send(t, ts, call{method: "POST", path: "/plants", header: bearer, body: `{"id":8,"name":"slow"}`})
	if want := `{"error":50400,"message":"the upstream ` + u.base + ` did not answer within 500ms"}`; resp.StatusCode != 504 || string(got) != want {
		t.Errorf("slow: %d %s\nwant 504 %s", resp.StatusCode, got, want)
	}
	_, resp, got = send(t, ts, call{method: "POST", path: "/plants", header: bearer, body: `{"id":9,"name":"reset"}`})
	if resp.StatusCode != 502 || !strings.HasPrefix(string(got), `{"error":50200,"message":"the upstream `+u.base+` failed: `) {
		t.Errorf("reset: %d %s; want 502, error 50200", resp.StatusCode, got)
	}

	_, resp, got = send(t, ts, call{method: "POST", path: "/plants", header: bearer, body: `{"id":10,"name":"garbage"}`})
	if resp.StatusCode != 502 || !strings.HasPrefix(string(got), `{"error":50200,"message":"the upstream `+u.base+` failed: `) {
		t.Errorf("not HTTP: %d %s; want 502, error 50200", resp.StatusCode, got)
	}

	// What the upstream was sent: the path under its base, the body as
	// given, Host rewritten, X-Forwarded-* added, hop-by-hop headers gone.
	u.mu.Lock()
	first, firstBody := u.seen[0], u.body[0]
	u.mu.Unlock()
	if first.URL.Path != "/plants" || firstBody != `{"id":1,"name":"fern"}` || first.Header.Get("Authorization") != "Bearer abc" ||
		first.Header.Get("X-Hop") != "" || first.Header.Get("Keep-Alive") != "" ||
		first.Header.Get("X-Forwarded-For") != "127.0.0.1" || first.Header.Get("X-Forwarded-Host") != strings.TrimPrefix(ts.URL, "http://") ||
		first.Host != strings.TrimSuffix(strings.TrimPrefix(u.base, "http://"), "/base") {
		t.Errorf("the upstream got %s %s Host %s, headers %v, body %s", first.Method, first.URL, first.Host, first.Header, firstBody)
	}

	// The journal lists every violation with its direction.
	_, _, j := send(t, ts, call{method: "POST", path: "/__admin/requests/find", body: `{"status":418}`})
	var found struct {
		Requests []struct {
			Violations []journal.Violation
		}
	}
	if err := json.Unmarshal(j, &found); err != nil || len(found.Requests) != 1 ||
		len(found.Requests[0].Violations) != 1 || found.Requests[0].Violations[0] != (journal.Violation{Direction: "response", Path: "response", Reason: "status 418 is not declared by POST /plants"}) {
		t.Errorf("journal of the 418: %s", j)
	}
	// Every known violation is in the header (above), the journal, the
	// contract report and the log.
	known := []string{
		"response: status 418 is not declared by POST /plants",
		"response name: required property is missing",
		"response tag: expected string, got number",
		"response: Content-Type text/plain is not declared for 200",
		"request id: expected integer, got string",
		"request route: no path of the OpenAPI document matches /nowhere",
		`request security: missing credentials: send "Authorization: Bearer <token>"`,
	}
	_, _, all := send(t, ts, call{method: "GET", path: "/__admin/requests"})
	var journal struct {
		Requests []struct{ Violations []journal.Violation }
	}
	if err := json.Unmarshal(all, &journal); err != nil {
		t.Fatal(err)
	}
	inJournal := map[string]bool{}
	for _, e := range journal.Requests {
		for _, v := range e.Violations {
			inJournal[v.String()] = true
		}
	}
	_, _, report := send(t, ts, call{method: "GET", path: "/__admin/contract"})
	var r ContractReport
	if err := json.Unmarshal(report, &r); err != nil {
		t.Fatal(err)
	}
	inReport := map[string]bool{}
	for _, o := range r.Operations {
		for _, v := range o.Violations {
			inReport[Violation{Direction: v.Direction, Path: v.Path, Reason: v.Reason}.String()] = true
		}
	}
	for _, v := range known {
		if !inJournal[v] {
			t.Errorf("the journal lacks %q: %s", v, all)
		}
		if !inReport[v] {
			t.Errorf("the contract report lacks %q: %s", v, report)
		}
		if !strings.Contains(logs.String(), strings.ReplaceAll(v, `"`, `\"`)) { // the text log quotes values
			t.Errorf("the log lacks %q:\n%s", v, logs)
		}
	}
	for _, want := range []string{`status=504 `, `status=502 `} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log has no %s:\n%s", want, logs)
		}
	}
}

// TestProxyRefuse: with ProxyInvalid "refuse", a request that breaks the
// document is answered by the mock and never reaches the upstream;
// scenario rules and Prefer answer locally either way.
func TestProxyRefuse(t *testing.T) {
	sc, err := scenario.ParseScenario("s.yaml", []byte("name: local\nrules:\n  - when: {body: {name: scripted}}\n    respond: {status: 400, body: {error: 1, message: local}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	u, ts, _ := proxyServer(t, Options{Proxy: pipeline.ProxyOptions{Invalid: "refuse"}, Scenarios: []*scenario.Scenario{sc}, Scenario: "local"})
	bearer := map[string]string{"Authorization": "Bearer abc", "Content-Type": "application/json"}
	for _, c := range []struct {
		name, body string
		header     map[string]string
		status     int
		answer     string
	}{
		{"invalid", `{"id":"1","name":"fern"}`, bearer, 400, `{"error":40004,"message":"request body does not match the schema: id: expected integer, got string"}`},
		{"scripted", `{"id":2,"name":"scripted"}`, bearer, 400, `{"error":1,"message":"local"}`},
		{"preferred", `{"id":3,"name":"fern"}`, with(bearer, "Prefer", "code=400"), 400, ""},
	} {
		_, resp, got := send(t, ts, call{method: "POST", path: "/plants", header: c.header, body: c.body})
		if resp.StatusCode != c.status || c.answer != "" && string(got) != c.answer || resp.Header.Get(ViolationsHeader) != "" {
			t.Errorf("%s: %d %s (%s %q); want %d %s", c.name, resp.StatusCode, got, ViolationsHeader, resp.Header.Get(ViolationsHeader), c.status, c.answer)
		}
	}
	u.mu.Lock()
	n := len(u.seen)
	u.mu.Unlock()
	if n != 0 {
		t.Errorf("the upstream got %d requests; want none", n)
	}
	_, err = New(Options{Proxy: pipeline.ProxyOptions{URL: "ftp://x"}})
	var pe *pipeline.ProxyError
	var oe *pipeline.OptionError
	if !errors.As(err, &pe) || !errors.As(err, &oe) || oe.Name != "proxy" || err.Error() != `proxy: "ftp://x" is not an http:// or https:// URL` {
		t.Errorf("New with an ftp proxy: %v", err)
	}
	if _, err := New(Options{Proxy: pipeline.ProxyOptions{URL: "http://x", Invalid: "drop"}}); err == nil || err.Error() != `proxy-invalid: must be forward or refuse, not "drop"` {
		t.Errorf("New with proxy-invalid drop: %v", err)
	}
}

// TestProxyChoosesOperations: --mock-only keeps operations local (they
// answer from the mock's store, and a request that breaks the document
// is refused, not forwarded); --proxy-only forwards only those named and
// refuses unknown paths.
func TestProxyChoosesOperations(t *testing.T) {
	bearer := map[string]string{"Authorization": "Bearer abc", "Content-Type": "application/json"}
	u, ts, _ := proxyServer(t, Options{Proxy: pipeline.ProxyOptions{MockOnly: []string{"POST /plants"}}})
	for _, c := range []struct{ name, method, path, body, answer string }{
		{"mocked", "POST", "/plants", `{"id":1,"name":"fern"}`, `200 {"name":"fern"}`},
		{"mocked, invalid", "POST", "/plants", `{"id":"1","name":"fern"}`, `400 {"error":40004,"message":"request body does not match the schema: id: expected integer, got string"}`},
		{"unknown path, forwarded", "GET", "/elsewhere", "", `200 {"name":"real <nil>"}`},
	} {
		_, resp, got := send(t, ts, call{method: c.method, path: c.path, header: bearer, body: c.body})
		if a := fmt.Sprint(resp.StatusCode, " ", string(got)); a != c.answer {
			t.Errorf("mock-only, %s: %s; want %s", c.name, a, c.answer)
		}
	}
	u.mu.Lock()
	if len(u.seen) != 1 || u.seen[0].URL.Path != "/elsewhere" {
		t.Errorf("the upstream got %d requests; want only GET /elsewhere", len(u.seen))
	}
	u.mu.Unlock()

	_, ts, _ = proxyServer(t, Options{Proxy: pipeline.ProxyOptions{Only: []string{"POST /plants"}}})
	_, resp, got := send(t, ts, call{method: "POST", path: "/plants", header: bearer, body: `{"id":1,"name":"fern"}`})
	if a := fmt.Sprint(resp.StatusCode, " ", string(got)); a != `200 {"name":"real fern"}` {
		t.Errorf("proxy-only, the operation named: %s", a)
	}
	_, resp, got = send(t, ts, call{method: "GET", path: "/elsewhere", header: bearer})
	if a := fmt.Sprint(resp.StatusCode, " ", string(got)); a != `404 {"error":40400,"message":"no path of the OpenAPI document matches /elsewhere"}` {
		t.Errorf("proxy-only, an unknown path: %s", a)
	}
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Proxy: pipeline.ProxyOptions{URL: "http://x", Only: []string{"GET /plants"}}}, `proxy-only: operation "GET /plants" is not in the document (write it as METHOD /path/{template})`},
		{Options{Proxy: pipeline.ProxyOptions{URL: "http://x", Only: []string{"POST /plants"}, MockOnly: []string{"POST /plants"}}}, `mock-only: not with proxy-only: give one or the other`},
	} {
		if _, err := New(c.opts); err == nil || err.Error() != c.want {
			t.Errorf("New: %v; want %s", err, c.want)
		}
	}
}

// TestContractReport: the report counts the exchanges of each operation
// and each kind of violation, on its side, with the first exchange that
// showed it, as JSON and as text.
func TestContractReport(t *testing.T) {
	_, ts, _ := proxyServer(t, Options{})
	bearer := map[string]string{"Authorization": "Bearer abc", "Content-Type": "application/json"}
	for _, b := range []string{`{"id":1,"name":"fern"}`, `{"id":2,"name":"missing"}`, `{"id":3,"name":"missing"}`, `{"id":"4","name":"fern"}`} {
		send(t, ts, call{method: "POST", path: "/plants", header: bearer, body: b})
	}
	send(t, ts, call{method: "GET", path: "/elsewhere", header: bearer})
	_, resp, got := send(t, ts, call{method: "GET", path: "/__admin/contract?format=text"})
	want := "(no operation): 1 exchange(s), 1 kind(s) of violation\n" +
		"  request x1: route: no path of the OpenAPI document matches /elsewhere (e.g. GET /elsewhere -> 200)\n" +
		"POST /plants: 4 exchange(s), 2 kind(s) of violation\n" +
		"  response x2: name: required property is missing (e.g. POST /plants -> 200)\n" +
		"  request x1: id: expected integer, got string (e.g. POST /plants -> 200)\n"
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" || string(got) != want {
		t.Errorf("text report: %d %s\n%s\nwant\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), got, want)
	}
	_, _, got = send(t, ts, call{method: "GET", path: "/__admin/contract"})
	var r journal.ContractReport
	if err := json.Unmarshal(got, &r); err != nil || r.Text() != want || r.Clean("") || r.Clean("response") {
		t.Errorf("JSON report %s (%v) does not say the same", got, err)
	}
}

// TestCheckTraffic: recorded traffic (HAR) is judged as a proxy judges
// exchanges, each known violation on its side.
func TestCheckTraffic(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "(no operation): 1 exchange(s), 1 kind(s) of violation\n" +
		"  request x1: route: no path of the OpenAPI document matches /nowhere (e.g. GET /nowhere -> 404)\n" +
		"POST /plants: 5 exchange(s), 4 kind(s) of violation\n" +
		"  response x1: status 201 is not declared by POST /plants (e.g. POST /plants -> 201)\n" +
		"  response x1: name: required property is missing (e.g. POST /plants -> 200)\n" +
		"  response x1: Content-Type text/html is not declared for 200 (e.g. POST /plants -> 200)\n" +
		"  request x1: id: expected integer, got string (e.g. POST /plants -> 400)\n" +
		"traffic: 6 exchange(s) judged, 5 breaking the document:\n" +
		"  traffic.har: entry 2: POST /plants -> 201\n" +
		"    response: status 201 is not declared by POST /plants\n" +
		"  traffic.har: entry 3: POST /plants -> 200\n" +
		"    response name: required property is missing (#/components/schemas/Plant/required)\n" +
		"  traffic.har: entry 4: POST /plants -> 200\n" +
		"    response: Content-Type text/html is not declared for 200\n" +
		"  traffic.har: entry 5: POST /plants -> 400\n" +
		"    request id: expected integer, got string (#/components/schemas/NewPlant/allOf/1/properties/id/type)\n" +
		"  traffic.har: entry 6: GET /nowhere -> 404\n" +
		"    request route: no path of the OpenAPI document matches /nowhere\n"
	checkTraffic(t, s, testHAR, want)
}

// testHAR is traffic with known violations: a conforming create, an
// undeclared status, a missing property, a wrong content type, a request
// that breaks the schema, and an unknown path.
const testHAR = `{"log": {"version": "1.2", "entries": [
 {"request": {"method": "POST", "url": "http://localhost:4010/plants", "headers": [{"name": "Authorization", "value": "Bearer t"}, {"name": "Content-Type", "value": "application/json"}], "postData": {"mimeType": "application/json", "text": "{\"id\":1,\"name\":\"a\"}"}},
  "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"name\":\"a\"}"}}},
 {"request": {"method": "POST", "url": "http://localhost:4010/plants", "headers": [{"name": "Authorization", "value": "Bearer t"}], "postData": {"mimeType": "application/json", "text": "{\"id\":2,\"name\":\"b\"}"}},
  "response": {"status": 201, "headers": [], "content": {"mimeType": "application/json", "text": "{\"name\":\"b\"}"}}},
 {"request": {"method": "POST", "url": "http://localhost:4010/plants", "headers": [{"name": "Authorization", "value": "Bearer t"}], "postData": {"mimeType": "application/json", "text": "{\"id\":3,\"name\":\"c\"}"}},
  "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json", "encoding": "base64", "text": "eyJ0YWciOiJ4In0="}}},
 {"request": {"method": "POST", "url": "http://localhost:4010/plants", "headers": [{"name": "Authorization", "value": "Bearer t"}], "postData": {"mimeType": "application/json", "text": "{\"id\":4,\"name\":\"d\"}"}},
  "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/html"}], "content": {"mimeType": "text/html", "text": "<p>d</p>"}}},
 {"request": {"method": "POST", "url": "http://localhost:4010/plants", "headers": [{"name": "Authorization", "value": "Bearer t"}], "postData": {"mimeType": "application/json", "text": "{\"id\":\"5\",\"name\":\"e\"}"}},
  "response": {"status": 400, "headers": [], "content": {"mimeType": "application/json", "text": "{\"error\":1,\"message\":\"bad\"}"}}},
 {"request": {"method": "GET", "url": "http://localhost:4010/nowhere", "headers": []},
  "response": {"status": 404, "headers": [], "content": {"mimeType": "text/plain", "text": "no"}}}
]}}`

// TestProxyRefused: an upstream that refuses connections is a 502.
func TestProxyRefused(t *testing.T) {
	up := httptest.NewServer(http.NotFoundHandler())
	base := up.URL
	up.Close()
	_, ts := newTestServer(t, Options{Proxy: pipeline.ProxyOptions{URL: base}})
	_, resp, got := send(t, ts, call{method: "POST", path: "/plants", header: bearerJSON, body: `{"id":1,"name":"fern"}`})
	want := `{"error":50200,"message":"the upstream ` + base + ` failed: dial tcp ` + strings.TrimPrefix(base, "http://") + `: connect: connection refused"}`
	if resp.StatusCode != 502 || string(got) != want {
		t.Errorf("%d %s\nwant 502 %s", resp.StatusCode, got, want)
	}
}

// TestProxyHugeAnswer: an answer too long to check, without a
// Content-Length, reaches the client whole, and the journal says it was
// not checked.
func TestProxyHugeAnswer(t *testing.T) {
	_, ts, _ := proxyServer(t, Options{Proxy: pipeline.ProxyOptions{Timeout: time.Minute}})
	_, resp, got := send(t, ts, call{method: "POST", path: "/plants", header: bearerJSON, body: `{"id":11,"name":"huge"}`})
	if want := `{"name":"huge","tag":"` + strings.Repeat("x", 17<<20) + `"}`; resp.StatusCode != 200 || string(got) != want || resp.Header.Get(ViolationsHeader) != "" {
		t.Errorf("huge: %d, %d bytes (want %d), %s %q", resp.StatusCode, len(got), len(want), ViolationsHeader, resp.Header.Get(ViolationsHeader))
	}
	_, _, j := send(t, ts, call{method: "POST", path: "/__admin/requests/find", body: `{"body":{"name":"huge"}}`})
	if !strings.Contains(string(j), `"notes":["answer body over 16777216 bytes passed on unchecked"]`) {
		t.Errorf("the journal does not note the unchecked body: %.300s", j)
	}
}

// TestContractReportRefusals: without a proxy, the requests the mock
// refused for breaking the document are in the report, request side.
func TestContractReportRefusals(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	send(t, ts, call{method: "POST", path: "/plants", header: map[string]string{"Content-Type": "application/json"}, body: `{"id":1,"name":"a"}`})
	send(t, ts, call{method: "POST", path: "/plants", header: bearerJSON, body: `{"id":"2","name":"a"}`})
	send(t, ts, call{method: "POST", path: "/plants", header: bearerJSON, body: `{"id":3,"name":"a"}`})
	send(t, ts, call{method: "POST", path: "/plants", header: bearerJSON, body: `{"id":3,"name":"a"}`}) // a duplicate: state, not contract
	want := "POST /plants: 4 exchange(s), 2 kind(s) of violation\n" +
		"  request x1: security: missing credentials: send \"Authorization: Bearer <token>\" (e.g. POST /plants -> 401)\n" +
		"  request x1: id: expected integer, got string (e.g. POST /plants -> 400)\n"
	if got := s.Contract().Text(); got != want {
		t.Errorf("report:\n%s\nwant\n%s", got, want)
	}
}

// TestProxyToItself: a proxy whose upstream is the mock's own listener
// is refused when it connects (a 502 saying so), rather than looping.
func TestProxyToItself(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	s, err := New(Options{Proxy: pipeline.ProxyOptions{URL: base, Timeout: 2 * time.Second}}) // bounds a loop, should the check fail
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		s.Close()
	})
	st, body := request(t, "POST", base+"/plants", `{"id":1,"name":"fern"}`, "Authorization", "Bearer abc")
	addr := ln.Addr().String()
	want := `{"error":50200,"message":"the upstream ` + base + ` is refused: address ` + addr + ` is the mock's own listener (` + addr + `): nothing the mock sends goes there"}`
	expect(t, "proxy to itself", st, body, 502, want)
	if n := stored(s, "/plants"); n != 0 {
		t.Errorf("%d plants stored, want 0", n)
	}
}

// TestProxyRedirectPassedOn: the upstream's redirect reaches the client
// as it came; the mock does not follow it.
func TestProxyRedirectPassedOn(t *testing.T) {
	elsewhere := newCountingReceiver(t, noContent)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", elsewhere.URL+"/latest/meta-data")
		w.WriteHeader(http.StatusFound)
	}))
	t.Cleanup(up.Close)
	_, ts := newTestServer(t, Options{Proxy: pipeline.ProxyOptions{URL: up.URL}})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(ts.URL + "/plants")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != elsewhere.URL+"/latest/meta-data" {
		t.Errorf("%d, Location %q; want 302, Location %s", resp.StatusCode, resp.Header.Get("Location"), elsewhere.URL+"/latest/meta-data")
	}
	if n := elsewhere.conns.Load(); n != 0 {
		t.Errorf("the redirect's target got %d connections, want 0", n)
	}
}

// TestProxyKeepsConnections: the proxy keeps a connection to the
// upstream for each request it has had in flight at once, so that the
// next burst reuses them rather than dialling anew. Five bursts of eight
// requests, each burst held at the upstream until all eight have come,
// need eight connections; net/http's default of two idle connections a
// host would have the proxy dial six more each burst, 32 in all.
func TestProxyKeepsConnections(t *testing.T) {
	const burst, bursts = 8, 5
	var dialled atomic.Int64
	arrived := make(chan struct{}, burst)
	release := make(chan struct{})
	up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":1,"name":"fern"}`)
	}))
	up.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			dialled.Add(1)
		}
	}
	up.Start()
	t.Cleanup(up.Close)
	_, ts := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: up.URL}})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: burst}}
	t.Cleanup(client.CloseIdleConnections)
	for range bursts {
		answers := make(chan string, burst)
		for range burst {
			go func() {
				resp, err := client.Get(ts.URL + "/plants/1")
				if err != nil {
					answers <- err.Error()
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				answers <- fmt.Sprintf("%d %s", resp.StatusCode, body)
			}()
		}
		for range burst {
			<-arrived
		}
		for range burst {
			release <- struct{}{}
		}
		for range burst {
			if got, want := <-answers, `200 {"id":1,"name":"fern"}`; got != want {
				t.Fatalf("answer %s, want %s", got, want)
			}
		}
	}
	if n := dialled.Load(); n >= 2*burst {
		t.Errorf("the proxy dialled the upstream %d times for %d bursts of %d; want about %d", n, bursts, burst, burst)
	}
}

// TestCheckTrafficDocuments: with several documents, each recorded
// exchange is judged by the document its path goes to, and the report
// names it.
func TestCheckTrafficDocuments(t *testing.T) {
	s, err := New(Options{Documents: []Document{{Spec: []byte(plantmock.OpenAPI), Base: "/store"}, {Spec: example(t, "tasks.yaml"), Base: "/tasks"}}})
	if err != nil {
		t.Fatal(err)
	}
	har := `{"log": {"version": "1.2", "entries": [
 {"request": {"method": "POST", "url": "http://localhost:4010/store/plants", "headers": [{"name": "Authorization", "value": "Bearer t"}, {"name": "Content-Type", "value": "application/json"}], "postData": {"mimeType": "application/json", "text": "{\"id\":\"1\",\"name\":\"a\"}"}},
  "response": {"status": 400, "headers": [], "content": {"mimeType": "application/json", "text": "{\"error\":1,\"message\":\"bad\"}"}}},
 {"request": {"method": "GET", "url": "http://localhost:4010/tasks/notes", "headers": [{"name": "X-API-Key", "value": "k"}]},
  "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "[{\"noteId\":\"x\",\"text\":\"a\"}]"}}},
 {"request": {"method": "GET", "url": "http://localhost:4010/elsewhere", "headers": []},
  "response": {"status": 404, "headers": [], "content": {"mimeType": "text/plain", "text": "no"}}}
]}}`
	want := "(no operation): 1 exchange(s), 1 kind(s) of violation\n" +
		"  request x1: route: no document is mounted at /elsewhere; mounted at: /store, /tasks (e.g. GET /elsewhere -> 404)\n" +
		"store: POST /plants: 1 exchange(s), 1 kind(s) of violation\n" +
		"  request x1: id: expected integer, got string (e.g. POST /store/plants -> 400)\n" +
		"tasks: GET /notes: 1 exchange(s), 1 kind(s) of violation\n" +
		"  response x1: [0].noteId: expected integer, got string (e.g. GET /tasks/notes -> 200)\n" +
		"traffic: 3 exchange(s) judged, 3 breaking the document:\n" +
		"  traffic.har: entry 1: POST /store/plants -> 400\n" +
		"    request id: expected integer, got string (#/components/schemas/NewPlant/allOf/1/properties/id/type)\n" +
		"  traffic.har: entry 2: GET /tasks/notes -> 200\n" +
		"    response [0].noteId: expected integer, got string (#/components/schemas/Note/properties/noteId/type)\n" +
		"  traffic.har: entry 3: GET /elsewhere -> 404\n" +
		"    request route: no document is mounted at /elsewhere; mounted at: /store, /tasks\n"
	checkTraffic(t, s, har, want)
}

// checkTraffic judges the HTTP Archive har, as the file traffic.har,
// with s and fails the test unless the contract report's text is want,
// the file named without its folder.
func checkTraffic(t *testing.T, s *Server, har, want string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "traffic.har")
	if err := os.WriteFile(file, []byte(har), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := s.CheckTraffic(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.ReplaceAll(r.Text(), dir+string(filepath.Separator), ""); got != want {
		t.Errorf("report:\n%s\nwant\n%s", got, want)
	}
}
