package scenario_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/state"
)

// shopSpec is a small document with what rules can name: a create
// whose success is 201, an item with a path parameter, a webhook, and
// streamed answers (server-sent events and JSON Lines).
const shopSpec = `openapi: 3.2.0
info: {title: Shop, version: '1'}
paths:
  /plants:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
        '400': {$ref: '#/components/responses/Error'}
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
              itemSchema: {type: object, required: [data], properties: {event: {type: string}, data: {type: string}}}
  /export:
    get:
      responses:
        '200':
          description: one plant a line
          content:
            application/jsonl:
              itemSchema: {$ref: '#/components/schemas/Plant'}
  /plain:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
webhooks:
  plantCreated:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
      responses: {'200': {description: ok}}
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

// load loads an OpenAPI document.
func load(t testing.TB, spec string) *openapi.Document {
	t.Helper()
	doc, err := openapi.Load([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// plants is the Plant Store, the embedded document: POST /plants only,
// answering 200 or 400.
func plants(t testing.TB) *openapi.Document { return load(t, plantmock.OpenAPI) }

// shop is shopSpec loaded.
func shop(t testing.TB) *openapi.Document { return load(t, shopSpec) }

// compiling is what compiling takes of doc: its operations' success is
// their first 2xx status; what it logs goes to logs, when given.
func compiling(doc *openapi.Document, logs *bytes.Buffer) scenario.Compiling {
	log := slog.New(slog.DiscardHandler)
	if logs != nil {
		log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug,
			ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return a
			}}))
	}
	return scenario.Compiling{Doc: doc, Log: log, Success: func(op *openapi.Operation) int {
		for _, r := range op.Responses {
			if n, err := strconv.Atoi(r.Status); err == nil && n/100 == 2 {
				return n
			}
		}
		return 200
	}}
}

// parse parses a scenario written in YAML, as test.yaml.
func parse(t testing.TB, yml string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.ParseScenario("test.yaml", []byte(yml))
	if err != nil {
		t.Fatalf("ParseScenario: %v", err)
	}
	return sc
}

// compileOne compiles one scenario of YAML against doc and returns it.
func compileOne(t testing.TB, doc *openapi.Document, yml string) *scenario.Compiled {
	t.Helper()
	sc := parse(t, yml)
	set, err := scenario.CompileScenarios(compiling(doc, nil), nil, []*scenario.Scenario{sc}, "")
	if err != nil {
		t.Fatalf("CompileScenarios: %v", err)
	}
	return set.ByName[sc.Name]
}

// compileErr compiles scenarios against doc and returns the error's
// text, "" for none.
func compileErr(doc *openapi.Document, scs ...*scenario.Scenario) string {
	_, err := scenario.CompileScenarios(compiling(doc, nil), nil, scs, "")
	if err == nil {
		return ""
	}
	return err.Error()
}

// newSession opens an in-memory session to count rules in.
func newSession(t testing.TB) state.Session[journal.Entry] {
	t.Helper()
	b, err := state.Open(context.Background(), state.Options[journal.Entry]{
		Timeout: time.Second, MaxResources: 10, JournalSize: 10, JournalBytes: 1 << 20,
		MaxSessions: 1, Idle: time.Hour, Codec: journal.EntryCodec{},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b.Default()
}

// request is what a rule matches: op of doc, its path parameter
// values, headers as name, value pairs, and its JSON body ("" for none).
func request(t testing.TB, doc *openapi.Document, op, body string, vals []string, header ...string) scenario.Request {
	t.Helper()
	o := scenario.FindOperation(doc, op)
	if o == nil {
		t.Fatalf("no operation %s", op)
	}
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Add(header[i], header[i+1])
	}
	req := scenario.Request{Op: o, Header: h, Vals: vals, Token: tokenOf(h)}
	if body != "" {
		req.Body = decode(t, body)
	}
	return req
}

// tokenOf is the bearer token of h, as the request path reads it.
func tokenOf(h http.Header) string {
	a := h.Get("Authorization")
	if len(a) > 7 && (a[:7] == "Bearer " || a[:7] == "bearer ") {
		return a[7:]
	}
	return ""
}
