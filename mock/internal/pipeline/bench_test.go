package pipeline

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/journal"
)

// Stage benchmarks: the pieces of a valid create, one at a time.

func benchServer(b *testing.B) (*Engine, *answer.Plan, *http.Request) {
	b.Helper()
	s := plantEngine(b)
	op := s.Served().Doc.Operations[0]
	u, _ := url.Parse("http://127.0.0.1/plants")
	r := &http.Request{Method: "POST", URL: u, Header: http.Header{"Authorization": {"Bearer abc"}, "Content-Type": {"application/json"}}}
	return s, s.Served().Plans[op], r
}

func BenchmarkStageRoute(b *testing.B) {
	s, _, _ := benchServer(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if rt, _, _ := s.Served().Find("/plants", ""); rt == nil {
			b.Fatal("no route")
		}
	}
}

func BenchmarkStageSecurity(b *testing.B) {
	s, pl, r := benchServer(b)
	x := &exchange{Turn: answer.Turn{R: r, Plan: pl}, Sv: s.Served()}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if p := s.checkSecurity(x); p != nil {
			b.Fatal(p)
		}
	}
}

func BenchmarkStageDecode(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := jsonx.Decode(validBody); err != nil {
			b.Fatal(err)
		}
	}
}

func benchValidate(b *testing.B, body []byte, wantViolations bool) {
	_, pl, _ := benchServer(b)
	v, err := jsonx.Decode(body)
	if err != nil {
		b.Fatal(err)
	}
	schema := pl.Op.Body.JSON().Schema
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if vs := schema.Validate(v); (len(vs) > 0) != wantViolations {
			b.Fatal(vs)
		}
	}
}

func BenchmarkStageValidateValid(b *testing.B) { benchValidate(b, validBody, false) }

func BenchmarkStageValidateInvalid(b *testing.B) { benchValidate(b, invalidBody, true) }

func BenchmarkStageStore(b *testing.B) {
	s, _, _ := benchServer(b)
	doc := jsonx.Marshal(map[string]any{"id": 1, "name": "Monstera"})
	ctx := context.Background()
	keys := make([]string, b.N)
	for i := range keys {
		keys[i] = strconv.Itoa(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Store.Create(ctx, "", "/plants", keys[i], func(string) ([]byte, error) { return doc, nil })
	}
}

func BenchmarkStageResponseBuild(b *testing.B) {
	_, pl, _ := benchServer(b)
	v, _ := jsonx.Decode(validBody)
	schema := pl.SuccessMedia.Schema
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		answer.AppendProjected(make([]byte, 0, 256), v, schema)
	}
}

// BenchmarkStageResponseCheck is what checking an answer costs where it is
// not valid by construction (the Plant Store's creates are).
func BenchmarkStageResponseCheck(b *testing.B) {
	_, pl, _ := benchServer(b)
	v, _ := jsonx.Decode(validBody)
	out := answer.Project(v, pl.SuccessMedia.Schema)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if vs := pl.SuccessMedia.Schema.Validate(out); len(vs) > 0 {
			b.Fatal(vs)
		}
	}
}

// BenchmarkStageJournal is an entry recorded in the default session's
// journal in memory.
func BenchmarkStageJournal(b *testing.B) {
	s := plantEngine(b)
	e := journal.Entry{Method: "POST", Path: "/plants", Body: validBody, Status: 200}
	sess, ctx := s.Sessions.Def.State, context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sess.Record(ctx, e)
	}
}
