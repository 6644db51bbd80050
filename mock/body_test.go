package mock

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/jsonx"
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
