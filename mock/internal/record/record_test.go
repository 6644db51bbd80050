package record_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/option"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/record"
	"github.com/plantmock/plantmock/mock/internal/stream"
)

// plantsSpec is the document of the recorded exchanges: a collection of
// plants identified by id, and a stream of events.
const plantsSpec = `openapi: 3.2.0
info: {title: Recorded Plants, version: 1.0.0}
paths:
  /plants:
    get:
      responses:
        '200': {description: all, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Plant'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
        '409': {$ref: '#/components/responses/Error'}
  /plants/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: one, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
        '404': {$ref: '#/components/responses/Error'}
  /events:
    get:
      responses:
        '200':
          description: events
          content:
            text/event-stream:
              itemSchema:
                type: object
                required: [data]
                properties: {event: {type: string}, data: {type: string}}
components:
  schemas:
    Plant:
      type: object
      required: [id, name]
      properties: {id: {type: integer}, name: {type: string}}
    Error:
      type: object
      required: [error, message]
      properties: {error: {type: integer}, message: {type: string}}
  responses:
    Error: {description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
`

// plansOf returns the plans of plantsSpec's operations by name, "POST
// /plants", as the pipeline hands them to listeners.
func plansOf(tb testing.TB) map[string]*answer.Plan {
	tb.Helper()
	doc, err := openapi.Load([]byte(plantsSpec))
	if err != nil {
		tb.Fatal(err)
	}
	plans, _, err := answer.BuildPlans(doc, "", nil)
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]*answer.Plan{}
	for op, pl := range plans {
		out[op.Method+" "+op.Path] = pl
	}
	return out
}

// exchange is a proxied exchange, as the pipeline tells its listeners
// of one the real service answered.
type exchange struct {
	op     string   // "GET /plants/{id}"
	vals   []string // its path parameters' values
	body   string   // the request's body
	header []string // the request's headers, name then value
	status int
	resp   string   // the answer's body
	answer []string // the answer's headers, name then value; crudStore's when nil
}

// told returns the value a listener is told of x: a JSON request with
// the bearer token tok-9, and an answer sent whole.
func (x exchange) told(tb testing.TB, plans map[string]*answer.Plan) *event.Answered {
	tb.Helper()
	pl := plans[x.op]
	if pl == nil {
		tb.Fatalf("no operation %s", x.op)
	}
	h := http.Header{"Authorization": {"Bearer tok-9"}, "User-Agent": {"Go-http-client/1.1"}, "Accept-Encoding": {"gzip"}}
	if x.body != "" {
		h.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(x.header); i += 2 {
		h.Add(x.header[i], x.header[i+1])
	}
	ans := x.answer
	if ans == nil {
		ans = []string{"Content-Type", "application/json", "Set-Cookie", "session=s3ssion-value", "X-Trace", "t-1"}
	}
	a := http.Header{}
	for i := 0; i+1 < len(ans); i += 2 {
		a.Add(ans[i], ans[i+1])
	}
	return &event.Answered{Plan: pl, Proxied: true, Header: h, Vals: x.vals, Raw: []byte(x.body), Token: "tok-9",
		Status: x.status, Answer: a, Response: []byte(x.resp), Written: len(x.resp)}
}

// session is one small session through a recording proxy of a store of
// plants: creates (one repeated, told apart by a header), a list, a read
// and a miss. testdata/session holds what its snapshot writes.
var session = []exchange{
	{op: "POST /plants", body: `{"id":1,"name":"fern"}`, header: []string{"X-Variant", "a"}, status: 201, resp: `{"id":1,"name":"fern"}`},
	{op: "POST /plants", body: `{"id":1,"name":"fern"}`, header: []string{"X-Variant", "a"}, status: 409, resp: `{"error":409,"message":"plant 1 exists"}`},
	{op: "POST /plants", body: `{"id":2,"name":"ivy"}`, header: []string{"X-Variant", "b"}, status: 201, resp: `{"id":2,"name":"ivy"}`},
	{op: "GET /plants", status: 200, resp: `[{"id":1,"name":"fern"},{"id":2,"name":"ivy"}]`},
	{op: "GET /plants/{id}", vals: []string{"2"}, status: 200, resp: `{"id":2,"name":"ivy"}`},
	{op: "GET /plants/{id}", vals: []string{"9"}, status: 404, resp: `{"error":404,"message":"no plant 9"}`},
}

// sessionBytes is what session weighs against the bound: for each
// exchange 256, its request body, X-Variant (9+1+2) where sent, X-Trace
// (7+3+2) and its answer's body.
const sessionBytes = (256 + 22 + 12 + 12 + 22) + (256 + 22 + 12 + 12 + 40) + (256 + 21 + 12 + 12 + 21) +
	(256 + 12 + 46) + (256 + 12 + 21) + (256 + 12 + 36)

// newRecording returns a recording into a new folder, and the folder.
func newRecording(tb testing.TB, redact ...string) (*record.Recording, string) {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "rec")
	r, err := record.New(dir, redact, slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatal(err)
	}
	return r, dir
}

// tell tells r of each exchange.
func tell(tb testing.TB, r *record.Recording, xs ...exchange) {
	tb.Helper()
	plans := plansOf(tb)
	for _, x := range xs {
		r.Told(x.told(tb, plans))
	}
}

// snapshot writes r's files and checks their names (space-separated,
// sorted).
func snapshot(tb testing.TB, r *record.Recording, want string) {
	tb.Helper()
	written, err := r.Snapshot()
	if err != nil {
		tb.Fatalf("snapshot: %v", err)
	}
	if got := strings.Join(written, " "); got != want {
		tb.Fatalf("snapshot wrote %q, want %q", got, want)
	}
}

// files lists the files of a folder, sorted.
func files(tb testing.TB, dir string) string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

// readFile returns a file of the folder dir.
func readFile(tb testing.TB, dir, name string) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// TestNew: a recording starts empty in a folder it makes; a folder it
// cannot make is the proxy's mistake.
func TestNew(t *testing.T) {
	r, dir := newRecording(t)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("the folder: %v %v", fi, err)
	}
	want := record.RecordStatus{Folder: dir, Bound: 64 << 20}
	if got := r.Status(); got != want {
		t.Errorf("status %+v, want %+v", got, want)
	}
	if files(t, dir) != "" {
		t.Errorf("files of a new recording: %s", files(t, dir))
	}

	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := record.New(filepath.Join(file, "rec"), nil, slog.New(slog.DiscardHandler))
	var pe *option.ProxyError
	if !errors.As(err, &pe) || err.Error() != "record: mkdir "+file+": not a directory" {
		t.Errorf("New under a file: %T %v", err, err)
	}
}

// TestToldOnlyProxied: the recording keeps only exchanges the real
// service answered: not the mock's own answers, refusals, requests no
// operation matched, nor those a fault took over.
func TestToldOnlyProxied(t *testing.T) {
	plans := plansOf(t)
	miss := exchange{op: "GET /plants/{id}", vals: []string{"9"}, status: 404, resp: `{"error":404,"message":"no plant 9"}`}
	tests := []struct {
		name   string
		change func(a *event.Answered)
	}{
		{"answered by the mock", func(a *event.Answered) { a.Proxied = false }},
		{"refused", func(a *event.Answered) { a.Problem = &problem.Problem{Status: 401} }},
		{"no operation", func(a *event.Answered) { a.Plan = nil }},
		{"hijacked", func(a *event.Answered) { a.Hijacked, a.Status, a.Response, a.Written = true, 0, nil, 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, dir := newRecording(t)
			a := miss.told(t, plans)
			tt.change(a)
			r.Told(a)
			if got, want := r.Status(), (record.RecordStatus{Folder: dir, Bound: 64 << 20}); got != want {
				t.Errorf("status %+v, want %+v", got, want)
			}
			snapshot(t, r, "seed-data.json")
			if got := readFile(t, dir, record.SeedDataFile); got != "{}\n" {
				t.Errorf("seed data %q", got)
			}
		})
	}
}

// TestRecordBound: past its bound the recording keeps nothing more, and
// says so: once in the log, and in a count.
func TestRecordBound(t *testing.T) {
	var logs bytes.Buffer
	noTime := func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}
	dir := t.TempDir()
	r, err := record.New(dir, nil, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{ReplaceAttr: noTime})))
	if err != nil {
		t.Fatal(err)
	}
	// The miss weighs 256, X-Trace (7+3+2) and its body (36): 304. The
	// bound leaves room for two and a half.
	miss := exchange{op: "GET /plants/{id}", vals: []string{"9"}, status: 404, resp: `{"error":404,"message":"no plant 9"}`}
	r.Mu.Lock()
	r.Bound = 760
	r.Mu.Unlock()
	for range 4 {
		tell(t, r, miss)
	}
	want := record.RecordStatus{Folder: dir, Exchanges: 2, Pending: 2, Dropped: 2, Bytes: 608, Bound: 760}
	if got := r.Status(); got != want {
		t.Errorf("status %+v, want %+v", got, want)
	}
	wantLog := `level=WARN msg="the recording is full: exchanges from now on are not recorded; GET /__admin/record counts them" bound_bytes=760 operation="GET /plants/{id}"` + "\n"
	if logs.String() != wantLog {
		t.Errorf("log:\n%s\nwant\n%s", logs.String(), wantLog)
	}
	snapshot(t, r, "recorded-get-plants-{id}.yaml seed-data.json")
	if got, want := r.Status(), (record.RecordStatus{Folder: dir, Exchanges: 2, Dropped: 2, Bytes: 608, Bound: 760}); got != want {
		t.Errorf("status after the snapshot %+v, want %+v", got, want)
	}
	wantRules := `[{"when":{"operation":"GET /plants/{id}","params":{"id":"9"}},"times":1,"respond":{"status":404,"headers":{"X-Trace":"t-1"},"body":{"error":404,"message":"no plant 9"}}},` +
		`{"when":{"operation":"GET /plants/{id}","params":{"id":"9"}},"respond":{"status":404,"headers":{"X-Trace":"t-1"},"body":{"error":404,"message":"no plant 9"}}}]`
	if got := rules(t, dir, "recorded-get-plants-{id}"); got != wantRules {
		t.Errorf("rules:\n%s\nwant\n%s", got, wantRules)
	}
}

// TestRecordConcurrent: 32 exchanges told at once, each followed by a
// snapshot, are all kept, in rules and seed data.
func TestRecordConcurrent(t *testing.T) {
	const n = 32
	r, dir := newRecording(t)
	plans := plansOf(t)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		a := exchange{op: "POST /plants", body: fmt.Sprintf(`{"id":%d,"name":"p%d"}`, i+1, i+1), status: 201,
			resp: fmt.Sprintf(`{"id":%d,"name":"p%d"}`, i+1, i+1)}.told(t, plans)
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Told(a)
			_, errs[i] = r.Snapshot()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	st := r.Status()
	if st.Exchanges != n || st.Pending != 0 || st.Dropped != 0 {
		t.Errorf("status %+v, want %d exchanges, none pending or dropped", st, n)
	}
	var got, seeds []string
	for _, rl := range scenarioOf(t, dir, "recorded-post-plants").Rules {
		got = append(got, fmt.Sprint(rl.When.Body, " ", rl.Respond.Status, " ", rl.Respond.Body))
	}
	var seed map[string][]map[string]any
	if err := jsonUnmarshal(readFile(t, dir, record.SeedDataFile), &seed); err != nil {
		t.Fatal(err)
	}
	for _, p := range seed["/plants"] {
		seeds = append(seeds, fmt.Sprint(p))
	}
	var want, wantSeeds []string
	for i := 1; i <= n; i++ {
		want = append(want, fmt.Sprintf("map[id:%d name:p%d] 201 map[id:%d name:p%d]", i, i, i, i))
		wantSeeds = append(wantSeeds, fmt.Sprintf("map[id:%d name:p%d]", i, i))
	}
	for _, s := range [][]string{got, seeds, want, wantSeeds} {
		sort.Strings(s)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rules:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(seeds, "\n") != strings.Join(wantSeeds, "\n") || len(seed) != 1 {
		t.Errorf("seed data:\n%v\nwant\n%s", seed, strings.Join(wantSeeds, "\n"))
	}
}

// TestRecordRedact: credentials, cookies, the mock's own headers, a
// header holding the token and redacted headers are never recorded; a
// redacted property is left out of request bodies, where it would stop
// the rest from matching, and masked in answers and seed data, which
// then break the document (off_contract).
func TestRecordRedact(t *testing.T) {
	r, dir := newRecording(t, "name", "x-api-secret")
	for i, v := range []string{"1", "2"} {
		tell(t, r, exchange{op: "POST /plants", body: `{"id":1,"name":"fern","tags":[{"name":"a","on":true}]}`, status: 201,
			header: []string{"Authorization", "Bearer tok-" + v, "Cookie", "sid=c00kie" + v, "X-Api-Secret", "hush" + v, "X-Mock-Session", "s" + v,
				"X-Key", "key tok-9 " + v, "X-Forwarded-For", "10.0.0." + v, "User-Agent", "agent/" + v, "X-Kept", "k" + v},
			resp:   `{"id":1,"name":"fern","tags":[{"name":"a","on":true}]}`,
			answer: []string{"Content-Type", "application/json", "Set-Cookie", "session=s3ssion-value", "X-Api-Secret", "hush", "X-Mock-Violations", "1", "X-Trace", "t-1", "X-Trace", "t-" + fmt.Sprint(i+2)}})
	}
	snapshot(t, r, "recorded-post-plants.yaml seed-data.json")
	wantRules := `[{"when":{"operation":"POST /plants","headers":{"X-Kept":"k1"},"body":{"id":1,"tags":[{"on":true}]}},` +
		`"respond":{"status":201,"headers":{"X-Trace":"t-1, t-2"},"body":{"id":1,"name":"REDACTED","tags":[{"name":"REDACTED","on":true}]}},"off_contract":true},` +
		`{"when":{"operation":"POST /plants","headers":{"X-Kept":"k2"},"body":{"id":1,"tags":[{"on":true}]}},` +
		`"respond":{"status":201,"headers":{"X-Trace":"t-1, t-3"},"body":{"id":1,"name":"REDACTED","tags":[{"name":"REDACTED","on":true}]}},"off_contract":true}]`
	if got := rules(t, dir, "recorded-post-plants"); got != wantRules {
		t.Errorf("rules:\n%s\nwant\n%s", got, wantRules)
	}
	wantSeed := "{\n  \"/plants\": [\n    {\n      \"id\": 1,\n      \"name\": \"REDACTED\",\n      \"tags\": [\n        {\n          \"name\": \"REDACTED\",\n          \"on\": true\n        }\n      ]\n    }\n  ]\n}\n"
	if got := readFile(t, dir, record.SeedDataFile); got != wantSeed {
		t.Errorf("seed data:\n%s\nwant\n%s", got, wantSeed)
	}
}

// TestRecordOffContract: an answer whose response broke the document is
// recorded as off_contract; one whose request did is not.
func TestRecordOffContract(t *testing.T) {
	r, dir := newRecording(t)
	plans := plansOf(t)
	for i, dir := range []string{"response", "request"} {
		a := exchange{op: "GET /plants/{id}", vals: []string{fmt.Sprint(i + 1)}, status: 418, resp: `{"id":5,"teapot":true}`, answer: []string{"Content-Type", "application/json"}}.told(t, plans)
		a.E.Violations = []journal.Violation{{Path: dir, Reason: "status 418 is not declared", Direction: dir}}
		r.Told(a)
	}
	snapshot(t, r, "recorded-get-plants-{id}.yaml seed-data.json")
	want := `[{"when":{"operation":"GET /plants/{id}","params":{"id":"1"}},"respond":{"status":418,"body":{"id":5,"teapot":true}},"off_contract":true},` +
		`{"when":{"operation":"GET /plants/{id}","params":{"id":"2"}},"respond":{"status":418,"body":{"id":5,"teapot":true}}}]`
	if got := rules(t, dir, "recorded-get-plants-{id}"); got != want {
		t.Errorf("rules:\n%s\nwant\n%s", got, want)
	}
	if got := readFile(t, dir, record.SeedDataFile); got != "{}\n" {
		t.Errorf("seed data of answers that are no success: %q", got)
	}
}

// TestRecordVaryingHeaders: requests that differ only in a header are
// told apart by it, as are those only some send it with; headers every
// request has alike are not matched.
func TestRecordVaryingHeaders(t *testing.T) {
	r, dir := newRecording(t)
	create := exchange{op: "POST /plants", body: `{"id":1,"name":"fern"}`, status: 201, resp: `{"id":1,"name":"fern"}`}
	for _, h := range [][]string{{"X-Variant", "a", "X-Same", "s"}, {"X-Variant", "b", "X-Same", "s"}, {"X-Same", "s"}, {"X-Variant", "a", "X-Same", "s"}} {
		x := create
		x.header = h
		tell(t, r, x)
	}
	snapshot(t, r, "recorded-post-plants.yaml seed-data.json")
	var got []string
	for _, rl := range scenarioOf(t, dir, "recorded-post-plants").Rules {
		got = append(got, fmt.Sprint(rl.When.Headers, " ", rl.Times))
	}
	if want := "map[X-Variant:a] 1\nmap[X-Variant:a] 0\nmap[X-Variant:b] 0\nmap[] 0"; strings.Join(got, "\n") != want {
		t.Errorf("rules match on:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

// TestRecordBodies: rules of requests with more body properties come
// first, so that a smaller recorded body does not answer for them; a
// body that is not JSON matches any; an answer that is not JSON, or was
// cut short, is recorded without its body.
func TestRecordBodies(t *testing.T) {
	r, dir := newRecording(t)
	plans := plansOf(t)
	text := []string{"Content-Type", "text/plain"}
	tell(t, r,
		exchange{op: "POST /plants", body: `{"id":1}`, status: 201, resp: `not json`, answer: text},
		exchange{op: "POST /plants", body: `not json`, status: 201, resp: `{"id":`},
		exchange{op: "POST /plants", body: `{"id":1,"name":"fern"}`, status: 201, resp: `{"id":1,"name":"fern"}`})
	cut := exchange{op: "POST /plants", body: `{"id":2,"name":"ivy","x":1}`, status: 201, resp: `{"id":2,"name":"ivy"}`}.told(t, plans)
	cut.Written += 100 // its first bytes decode, yet it was longer
	r.Told(cut)
	snapshot(t, r, "recorded-post-plants.yaml seed-data.json")
	want := `[{"when":{"operation":"POST /plants","body":{"id":2,"name":"ivy","x":1}},"respond":{"status":201,"headers":{"X-Trace":"t-1"}}},` +
		`{"when":{"operation":"POST /plants","body":{"id":1,"name":"fern"}},"respond":{"status":201,"headers":{"X-Trace":"t-1"},"body":{"id":1,"name":"fern"}}},` +
		`{"when":{"operation":"POST /plants","body":{"id":1}},"respond":{"status":201}},` +
		`{"when":{"operation":"POST /plants"},"respond":{"status":201,"headers":{"X-Trace":"t-1"}}}]`
	if got := rules(t, dir, "recorded-post-plants"); got != want {
		t.Errorf("rules:\n%s\nwant\n%s", got, want)
	}
	wantSeed := "{\n  \"/plants\": [\n    {\n      \"id\": 1,\n      \"name\": \"fern\"\n    }\n  ]\n}\n"
	if got := readFile(t, dir, record.SeedDataFile); got != wantSeed {
		t.Errorf("seed data:\n%s\nwant\n%s", got, wantSeed)
	}
}

// TestRecordStream: an answer that is a stream of items is recorded as a
// scripted stream of them, with the end marker where the service sent
// it; one cut short is recorded without them.
func TestRecordStream(t *testing.T) {
	r, dir := newRecording(t, "text")
	plans := plansOf(t)
	var body []byte
	for _, it := range []string{`{"n":1,"text":"a"}`, `{"n":2,"text":"b"}`} {
		body = stream.AppendEvent(body, stream.Event{Event: "chunk", Data: it})
	}
	whole := exchange{op: "GET /events", status: 200, resp: string(stream.AppendEnd(body)), answer: []string{"Content-Type", "text/event-stream"}}.told(t, plans)
	cut := exchange{op: "GET /events", status: 200, resp: string(body[:10]), answer: []string{"Content-Type", "text/event-stream"}}.told(t, plans)
	cut.Written = len(body)
	cut.Header.Set("X-Part", "cut")
	r.Told(whole)
	r.Told(cut)
	snapshot(t, r, "recorded-get-events.yaml seed-data.json")
	want := `[{"when":{"operation":"GET /events"},"respond":{"status":200,"stream":{"items":[{"data":"{\"n\":1,\"text\":\"a\"}","event":"chunk"},{"data":"{\"n\":2,\"text\":\"b\"}","event":"chunk"}],"done":true}}},` +
		`{"when":{"operation":"GET /events","headers":{"X-Part":"cut"}},"respond":{"status":200}}]`
	if got := rules(t, dir, "recorded-get-events"); got != want {
		t.Errorf("rules:\n%s\nwant\n%s", got, want)
	}
}
