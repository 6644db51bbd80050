package pipeline

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// TestCheckBodyFastPath checks that checkBody reads a valid Plant Store
// create with the schema's fast path, in one pass: the value jsonx.Decode
// builds, with a fraction of the allocations of decoding and validating
// apart: 16 against 62, the request's own included.
func TestCheckBodyFastPath(t *testing.T) {
	s := plantEngine(t)
	sv := s.Served()
	pl := sv.Plans[sv.Doc.Operations[0]]
	u, _ := url.Parse("http://127.0.0.1/plants")
	check := func() *exchange {
		r := &http.Request{Method: "POST", URL: u, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader(validBody)), ContentLength: int64(len(validBody))}
		x := &exchange{Turn: answer.Turn{R: r, Plan: pl}, Sv: sv}
		if p := s.checkBody(x); p != nil {
			t.Fatalf("%s: %s", validBody, p.Message)
		}
		return x
	}
	want, err := jsonx.Decode(validBody)
	if err != nil {
		t.Fatal(err)
	}
	if x := check(); !reflect.DeepEqual(x.Body, want) {
		t.Errorf("body %#v, want %#v", x.Body, want)
	}
	if n := testing.AllocsPerRun(100, func() { check() }); n > 30 {
		t.Errorf("checkBody makes %v allocations: not the fast path", n)
	}
}

// checkPlantBody returns a function that runs checkBody on a Plant Store
// create with the given body.
func checkPlantBody(tb testing.TB) func(body []byte) (*exchange, *problem.Problem) {
	tb.Helper()
	s := plantEngine(tb)
	sv := s.Served()
	pl := sv.Plans[sv.Doc.Operations[0]]
	u, _ := url.Parse("http://127.0.0.1/plants")
	return func(body []byte) (*exchange, *problem.Problem) {
		r := &http.Request{Method: "POST", URL: u, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body))}
		x := &exchange{Turn: answer.Turn{R: r, Plan: pl}, Sv: sv}
		return x, s.checkBody(x)
	}
}

// TestCheckBodyFastPathInvalid checks that checkBody finds what is wrong
// with an invalid Plant Store create with the schema's fast path too:
// the violations decoding and validating apart find, with a fraction of
// their allocations (29 against 72, the request's own included).
func TestCheckBodyFastPathInvalid(t *testing.T) {
	check := checkPlantBody(t)
	body := []byte(`{"id":"x1","name":7}`)
	want := []openapi.Violation{
		{Path: "id", Reason: "expected integer, got string", Schema: "#/components/schemas/NewPlant/allOf/1/properties/id/type"},
		{Path: "name", Reason: "expected string, got number", Schema: "#/components/schemas/Plant/properties/name/type"},
	}
	x, p := check(body)
	switch {
	case p == nil:
		t.Fatalf("%s: accepted", body)
	case p.Code != problem.CodeSchema || p.Class != problem.ClassSchema || p.Message != "request body does not match the schema":
		t.Errorf("%s: %v %v %q", body, p.Code, p.Class, p.Message)
	case !reflect.DeepEqual(p.Violations, want):
		t.Errorf("%s: violations %#v, want %#v", body, p.Violations, want)
	}
	if x.Body != nil || !bytes.Equal(x.Raw, body) {
		t.Errorf("%s: body %#v, raw %q", body, x.Body, x.Raw)
	}
	v, err := jsonx.Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	if full := x.Plan.Op.Body.JSON().Schema.ValidateRequest(v); !reflect.DeepEqual(full, want) {
		t.Errorf("%s: the usual path finds %#v", body, full)
	}
	if n := testing.AllocsPerRun(100, func() { check(body) }); n > 40 {
		t.Errorf("checkBody makes %v allocations: not the fast path", n)
	}
}

// TestTimeoutsOrDefaults: each zero timeout takes DefaultTimeouts', each
// set one stays.
func TestTimeoutsOrDefaults(t *testing.T) {
	got := Timeouts{Read: time.Second, Idle: -1}.OrDefaults()
	want := Timeouts{Header: DefaultTimeouts.Header, Read: time.Second, Write: DefaultTimeouts.Write, Idle: DefaultTimeouts.Idle}
	if got != want {
		t.Errorf("OrDefaults: %+v, want %+v", got, want)
	}
}
