package admin

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// fakeMock is a Mock of the test's own: the admin API sees nothing else
// of a server.
type fakeMock struct {
	sess *fakeSession
}

func (m *fakeMock) Health(context.Context) Health {
	return Health{Version: "1.2.3", Spec: "Test 1", Store: "memory"}
}

func (m *fakeMock) Session(_ context.Context, name string) (Session, *problem.Problem) {
	if name == "bad name" {
		return nil, problem.Invalid(problem.CodeSession, problem.ClassRequest, "X-Mock-Session is malformed")
	}
	return m.sess, nil
}

func (m *fakeMock) Match(journal.Match) (func(journal.Entry) bool, error) {
	return func(e journal.Entry) bool { return e.Status == 201 }, nil
}

func (m *fakeMock) Contract() Report                { return nil }
func (m *fakeMock) Scenarios() []*scenario.Scenario { return nil }
func (m *fakeMock) Operations() []string            { return []string{"GET /a", "POST /a"} }
func (m *fakeMock) Webhooks() []Webhook {
	return []Webhook{{Name: "new", Methods: []string{"POST"}}, {Name: "set", Methods: []string{"POST"}}, {Name: "gone", Methods: []string{"POST"}}}
}
func (m *fakeMock) Recording() Recording { return nil }
func (m *fakeMock) Documents() []Document {
	return []Document{{Name: "only", Title: "Test", Version: "1", Base: "/", Operations: 2}}
}
func (m *fakeMock) Document(name string) (Mock, bool) { return m, name == "only" }
func (m *fakeMock) Reloads() any                      { return map[string]string{"status": "none"} }
func (m *fakeMock) Raw() []byte                       { return nil }
func (m *fakeMock) OperationExamples() any            { return []string{} }
func (m *fakeMock) Explain(r *http.Request) any {
	b, _ := io.ReadAll(r.Body)
	return map[string]any{"method": r.Method, "uri": r.URL.RequestURI(), "type": r.Header.Get("Content-Type"), "body": string(b)}
}
func (s *fakeSession) Seed(context.Context, string, any) (int, *problem.Problem) { return 0, nil }

// fakeSession keeps what the calls change, for the test to read.
type fakeSession struct {
	entries []journal.Entry
	active  *string
	reset   int
	err     error // what every call that can fail fails with
}

func (s *fakeSession) Entries(context.Context) ([]journal.Entry, error) { return s.entries, s.err }
func (s *fakeSession) ResetJournal(context.Context) error               { s.entries = nil; return s.err }
func (s *fakeSession) Resources(context.Context) ([]store.Collection, error) {
	return []store.Collection{{Name: "/a", Docs: [][]byte{[]byte(`{"id":1}`)}}}, s.err
}
func (s *fakeSession) ResetResources(context.Context) error { return s.err }
func (s *fakeSession) Reset(context.Context) error          { s.reset++; return s.err }
func (s *fakeSession) Active(context.Context) (string, bool, error) {
	if s.active == nil {
		return "", false, s.err
	}
	return *s.active, true, s.err
}
func (s *fakeSession) Activate(_ context.Context, name *string) error {
	if name != nil && *name != "slow" {
		return problem.Invalid(problem.CodeScenario, problem.ClassRequest, "no scenario is named %q", *name)
	}
	s.active = name
	return s.err
}
func (s *fakeSession) Subscriber(_ context.Context, name string) (Subscriber, bool, error) {
	if name == "set" || name == "gone" {
		return Subscriber{URL: "http://127.0.0.1:9/in"}, true, s.err
	}
	return Subscriber{}, false, s.err
}
func (s *fakeSession) Subscribe(context.Context, string, Subscriber) error { return s.err }
func (s *fakeSession) Send(_ context.Context, name string, _ any) (int, string, error) {
	if name == "gone" {
		return 0, "", ErrNoSubscriber // removed after Subscriber was asked
	}
	return 0, "", problem.Invalid(problem.CodeSchema, problem.ClassRequest, "the body breaks the schema")
}

// TestAdminOnItsInterfaces: the admin API answers from Mock and Session
// alone, with the status, content type and body each call gives.
func TestAdminOnItsInterfaces(t *testing.T) {
	sess := &fakeSession{entries: []journal.Entry{{Seq: 1, Method: "POST", Path: "/a", Status: 201}, {Seq: 2, Method: "GET", Path: "/a", Status: 200}}}
	h, err := New(&fakeMock{sess: sess}, &Events{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	for _, c := range []struct {
		name, method, path, body, session string
		status                            int
		want                              string
	}{
		{"health", "GET", "/__admin/health", "", "", 200, `{"spec":"Test 1","status":"ok","store":"memory","version":"1.2.3"}`},
		{"journal's newest", "GET", "/__admin/requests?limit=1", "", "", 200,
			`{"requests":[{"seq":2,"time":"0001-01-01T00:00:00Z","duration":0,"method":"GET","path":"/a","headers":null,"status":200}]}`},
		{"count through Match", "POST", "/__admin/requests/count", `{"status":201}`, "", 200, `{"count":1}`},
		{"bad session", "GET", "/__admin/requests", "", "bad name", 400, `{"error":40008,"message":"X-Mock-Session is malformed"}`},
		{"store", "GET", "/__admin/store", "", "", 200, `{"collections":{"/a":[{"id":1}]}}`},
		{"unknown scenario", "PUT", "/__admin/scenario", `{"name":"fast"}`, "", 400, `{"error":40006,"message":"no scenario is named \"fast\""}`},
		{"scenario", "PUT", "/__admin/scenario", `{"name":"slow"}`, "", 200, `{"active":"slow"}`},
		{"scenarios", "GET", "/__admin/scenarios", "", "", 200, `{"active":"slow","scenarios":null}`},
		{"reset", "POST", "/__admin/reset", "", "", 204, ""},
		{"operations", "GET", "/__admin/ui/operations", "", "", 200, `{"operations":["GET /a","POST /a"]}`},
		{"webhook without subscriber", "GET", "/__admin/webhooks/new", "", "", 200, `{"name":"new","methods":["POST"],"url":null,"token":false}`},
		{"undeclared webhook", "GET", "/__admin/webhooks/old", "", "", 404, `{"error":40010,"message":"\"old\" is not a webhook of the document; declared: new, set, gone"}`},
		{"send without subscriber", "POST", "/__admin/webhooks/new/send", "", "", 409,
			`{"error":40010,"message":"webhook new has no subscriber in this session; PUT /__admin/webhooks/new {\"url\": ...} first, or start the mock with --webhook"}`},
		{"subscriber removed before the send", "POST", "/__admin/webhooks/gone/send", "", "", 409,
			`{"error":40010,"message":"webhook gone has no subscriber in this session; PUT /__admin/webhooks/gone {\"url\": ...} first, or start the mock with --webhook"}`},
		{"send refused", "POST", "/__admin/webhooks/set/send", `{"x":1}`, "", 400, `{"error":40004,"message":"the body breaks the schema"}`},
		{"not recording", "GET", "/__admin/record", "", "", 404, `{"error":40400,"message":"the mock is not recording: start it with --proxy URL --record DIR"}`},
		{"reload", "GET", "/__admin/reload", "", "", 200, `{"status":"none"}`},
		{"documents", "GET", "/__admin/documents", "", "", 200,
			`{"documents":[{"name":"only","title":"Test","version":"1","base":"/","operations":2,"scenarios":0,"webhooks":0,"exchanges":0}]}`},
		{"a document", "GET", "/__admin/ui/operations?document=only", "", "", 200, `{"operations":["GET /a","POST /a"]}`},
		{"a document not served", "GET", "/__admin/requests?document=nope", "", "", 404, `{"error":40400,"message":"document=nope names no document the mock serves; documents: only"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(c.body))
			if c.session != "" {
				req.Header.Set(SessionHeader, c.session)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status || string(b) != c.want {
				t.Errorf("%s %s: %d %s\nwant %d %s", c.method, c.path, resp.StatusCode, b, c.status, c.want)
			}
			if ct := resp.Header.Get("Content-Type"); c.want != "" && ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
	if sess.reset != 1 {
		t.Errorf("the session was reset %d times, want once", sess.reset)
	}
}

// TestAdminStoreFailures: a session whose state cannot be read answers
// 503 when the shared store did not answer, 500 otherwise.
func TestAdminStoreFailures(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		want   string
	}{
		{store.ErrUnavailable, 503, `{"error":50300,"message":"the mock's shared store did not answer in time: ` + store.ErrUnavailable.Error() + `"}`},
		{errors.New("disk full"), 500, `{"error":50000,"message":"the store failed: disk full"}`},
	} {
		h, err := New(&fakeMock{sess: &fakeSession{err: c.err}}, &Events{}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1/__admin/requests", nil))
		if rec.Code != c.status || rec.Body.String() != c.want {
			t.Errorf("%v: %d %s\nwant %d %s", c.err, rec.Code, rec.Body, c.status, c.want)
		}
	}
}
