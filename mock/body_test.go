package mock

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestCheckBodyFastPath checks that checkBody reads a valid Plant Store
// create with the schema's fast path, in one pass: the value jsonx.Decode
// builds, with a fraction of the allocations of decoding and validating
// apart: 16 against 62, the request's own included.
func TestCheckBodyFastPath(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	sv := s.served()
	pl := sv.plans[sv.doc.Operations[0]]
	u, _ := url.Parse("http://127.0.0.1/plants")
	check := func() *exchange {
		r := &http.Request{Method: "POST", URL: u, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader(validBody)), ContentLength: int64(len(validBody))}
		x := &exchange{r: r, sv: sv, plan: pl}
		if p := s.checkBody(x); p != nil {
			t.Fatalf("%s: %s", validBody, p.message)
		}
		return x
	}
	want, err := jsonx.Decode(validBody)
	if err != nil {
		t.Fatal(err)
	}
	if x := check(); !reflect.DeepEqual(x.body, want) {
		t.Errorf("body %#v, want %#v", x.body, want)
	}
	if n := testing.AllocsPerRun(100, func() { check() }); n > 30 {
		t.Errorf("checkBody makes %v allocations: not the fast path", n)
	}
}

// checkPlantBody returns a function that runs checkBody on a Plant Store
// create with the given body.
func checkPlantBody(tb testing.TB) func(body []byte) (*exchange, *problem) {
	tb.Helper()
	s, err := New(Options{})
	if err != nil {
		tb.Fatal(err)
	}
	sv := s.served()
	pl := sv.plans[sv.doc.Operations[0]]
	u, _ := url.Parse("http://127.0.0.1/plants")
	return func(body []byte) (*exchange, *problem) {
		r := &http.Request{Method: "POST", URL: u, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body))}
		x := &exchange{r: r, sv: sv, plan: pl}
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
	case p.code != CodeSchema || p.class != classSchema || p.message != "request body does not match the schema":
		t.Errorf("%s: %v %v %q", body, p.code, p.class, p.message)
	case !reflect.DeepEqual(p.violations, want):
		t.Errorf("%s: violations %#v, want %#v", body, p.violations, want)
	}
	if x.body != nil || !bytes.Equal(x.raw, body) {
		t.Errorf("%s: body %#v, raw %q", body, x.body, x.raw)
	}
	v, err := jsonx.Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	if full := x.plan.op.Body.JSON().Schema.ValidateRequest(v); !reflect.DeepEqual(full, want) {
		t.Errorf("%s: the usual path finds %#v", body, full)
	}
	if n := testing.AllocsPerRun(100, func() { check(body) }); n > 40 {
		t.Errorf("checkBody makes %v allocations: not the fast path", n)
	}
}
