package answer_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// mock answers requests to one document as the pipeline does once a
// request is routed and checked: it routes, decodes the JSON body,
// reads Prefer, negotiates the media type, and has the Answerer decide.
// Problems become the status and error body the operation declares.
type mock struct {
	t     testing.TB
	doc   *openapi.Document
	plans answer.Plans
	a     *answer.Answerer
	sess  *session.Session
	log   *bytes.Buffer // the Answerer's log, as text
}

// newMock loads spec and plans its operations, with a store of at most
// 100 resources and generated data seeded with 1.
func newMock(t testing.TB, spec string) *mock {
	t.Helper()
	d, err := openapi.Load([]byte(spec))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	var schemas []*openapi.Schema
	for _, op := range d.Operations {
		for _, r := range op.Responses {
			for _, m := range r.Content {
				schemas = append(schemas, m.Schema)
			}
		}
	}
	_, over := gen.Oversized(schemas, gen.Budget{})
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	plans, _, err := answer.BuildPlans(d, "", over)
	if err != nil {
		t.Fatalf("BuildPlans: %v", err)
	}
	a := &answer.Answerer{Store: store.NewMemory(100), Seed: 1, MaxResources: 100, Log: log}
	return &mock{t: t, doc: d, plans: plans, a: a, sess: &session.Session{}, log: &buf}
}

// reply is what the mock answered.
type reply struct {
	status   int
	ct       string // Content-Type
	location string
	body     string
	notes    []string
	p        *problem.Problem // the problem refused with, if any
}

// req is a request to the mock: its header as name, value pairs.
type req struct {
	method, target, body string
	header               []string
}

// do answers a request, checking that a success conforms to the
// document. A JSON body must be valid against the operation's schema,
// as the pipeline checks it before the answer.
func (m *mock) do(method, target, body string, header ...string) reply {
	m.t.Helper()
	return m.send(req{method: method, target: target, body: body, header: header})
}

func (m *mock) send(rq req) reply {
	t := m.t
	t.Helper()
	r := httptest.NewRequest(rq.method, rq.target, strings.NewReader(rq.body))
	if rq.body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(rq.header); i += 2 {
		r.Header.Set(rq.header[i], rq.header[i+1])
	}
	route, vals, _ := m.doc.Find(r.URL.EscapedPath(), rq.method)
	if route == nil || route.Operation(rq.method) == nil {
		t.Fatalf("%s %s: no operation", rq.method, rq.target)
	}
	pl := m.plans[route.Operation(rq.method)]
	x := &answer.Turn{Client: r, R: r, Plan: pl, Vals: vals, Sess: m.sess}
	if rq.body != "" && strings.Contains(r.Header.Get("Content-Type"), "json") {
		v, err := jsonx.Decode([]byte(rq.body))
		if err != nil {
			t.Fatalf("%s %s: body: %v", rq.method, rq.target, err)
		}
		if media := pl.Op.Body.Media(strings.ToLower(r.Header.Get("Content-Type"))); media != nil && media.Schema != nil {
			if vs := media.Schema.ValidateRequest(v); len(vs) > 0 {
				t.Fatalf("%s %s: the body would be refused before the answer: %v", rq.method, rq.target, vs)
			}
		}
		x.Body = v
	} else if media := formMedia(pl.Op.Body, r.Header.Get("Content-Type")); rq.body != "" && media != nil {
		v, vs := media.DecodeForm([]byte(rq.body), r.Header.Get("Content-Type"))
		if len(vs) == 0 && media.Schema != nil {
			vs = media.Schema.ValidateRequest(v)
		}
		if len(vs) > 0 {
			t.Fatalf("%s %s: the body would be refused before the answer: %v", rq.method, rq.target, vs)
		}
		x.Body = v
	}
	if pf := r.Header["Prefer"]; len(pf) > 0 {
		var p *problem.Problem
		if x.Prefer, p = answer.ParsePrefer(pf); p != nil {
			return m.refused(pl, x, p)
		}
	}
	status := pl.Success
	if !x.Prefer.Usual(pl.Success) && x.Prefer.Code != 0 {
		status = int(x.Prefer.Code)
	}
	o, ct, p := m.a.Negotiate(x, pl.OffersFor(status), false)
	if p != nil {
		return m.refused(pl, x, p)
	}
	x.Settle(o, ct)
	var out answer.Outcome
	if x.Prefer.Usual(pl.Success) {
		out, p = m.a.Behave(x)
	} else if o != nil {
		out.Body, p = m.a.Body(x, x.Prefer.Example, x.Prefer.Dynamic)
	}
	if p != nil {
		return m.refused(pl, x, p)
	}
	status, b := answer.SentAs(status, out.Body)
	if b == nil {
		ct = ""
	}
	rp := reply{status: status, ct: ct, location: out.Location, body: string(b), notes: x.Notes}
	m.conforms(r, x, rp)
	return rp
}

// formMedia returns the form or multipart media of a body that a
// Content-Type names, or nil.
func formMedia(b *openapi.RequestBody, contentType string) *openapi.Media {
	if b == nil {
		return nil
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	if m := b.Media(mt); m != nil && m.IsForm() {
		return m
	}
	return nil
}

// refused is the answer of problem p, in the operation's error shape.
func (m *mock) refused(pl *answer.Plan, x *answer.Turn, p *problem.Problem) reply {
	status := p.Status
	if status == 0 {
		status = pl.Status[p.Class]
	}
	sh := pl.ErrorShape(status)
	return reply{status: status, ct: sh.ContentType, body: string(sh.Body(status, p)), notes: x.Notes, p: p}
}

// conforms checks a success against the document.
func (m *mock) conforms(r *http.Request, x *answer.Turn, rp reply) {
	m.t.Helper()
	h := http.Header{}
	if rp.ct != "" {
		h.Set("Content-Type", rp.ct)
	}
	if rp.location != "" {
		h.Set("Location", rp.location)
	}
	for i, rh := range x.Plan.Headers {
		h.Set(rh.Name, x.Plan.Headers[i].Value(m.a, x))
	}
	resp := &http.Response{StatusCode: rp.status, Header: h, Body: io.NopCloser(strings.NewReader(rp.body))}
	if vs := m.doc.CheckResponse(r, resp); len(vs) > 0 {
		m.t.Errorf("%s %s: answer %d %s breaks the contract: %v", r.Method, r.URL, rp.status, rp.body, vs)
	}
}

// put stores a resource as it is, under key, as a document changed
// since would have left it.
func (m *mock) put(col, key, doc string) {
	m.t.Helper()
	if _, err := m.a.Store.Create(context.Background(), "", col, key, func(string) ([]byte, error) { return []byte(doc), nil }); err != nil {
		m.t.Fatal(err)
	}
}

// stored returns the resources of a collection, in order, as JSON.
func (m *mock) stored(col string) string {
	m.t.Helper()
	docs, err := m.a.Store.List(context.Background(), "", col, -1)
	if err != nil {
		m.t.Fatal(err)
	}
	return "[" + string(bytes.Join(docs, []byte(","))) + "]"
}

// want asserts the exact status and body of a reply, and its notes.
func (rp reply) want(t testing.TB, status int, body string, notes ...string) {
	t.Helper()
	if rp.status != status || rp.body != body {
		t.Errorf("answer = %d %s\nwant     %d %s", rp.status, rp.body, status, body)
	}
	if !slices.Equal(rp.notes, notes) && !(len(rp.notes) == 0 && len(notes) == 0) {
		t.Errorf("notes = %q\nwant    %q", rp.notes, notes)
	}
}

// errorBody is the body of an error answer in the usual shape.
func errorBody(code int, msg string) string {
	return `{"error":` + strconv.Itoa(code) + `,"message":` + string(jsonx.Marshal(msg)) + `}`
}
