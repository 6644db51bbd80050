package wire

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

var (
	yes = new(true)
	no  = new(false)

	str     = &Shape{Types: String}
	integer = &Shape{Types: Integer}
	strs    = &Shape{Types: Array, Items: str}
	ints    = &Shape{Types: Array, Items: integer}
	rgb     = &Shape{Types: Object, Properties: map[string]*Shape{"R": integer, "G": integer, "B": integer}}
)

func num(s string) json.Number { return json.Number(s) }

// wireRequest is where a test puts the parameter: the raw path text, the
// query string, header lines and Cookie lines.
type wireRequest struct {
	path    string
	query   string
	headers map[string][]string
}

func (w wireRequest) request(tb testing.TB) *http.Request {
	tb.Helper()
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.URL.RawQuery = w.query
	for k, vs := range w.headers {
		for _, v := range vs {
			r.Header.Add(k, v)
		}
	}
	return r
}

// decodeOne decodes the single parameter p from w.
func decodeOne(tb testing.TB, p Param, w wireRequest) Value {
	tb.Helper()
	ps, err := NewParams([]Param{p})
	if err != nil {
		tb.Fatalf("NewParams: %v", err)
	}
	path := func(name string) (string, bool) { return w.path, p.In == "path" && name == p.Name }
	vs := ps.Decode(nil, w.request(tb), path)
	if len(vs) != 1 {
		tb.Fatalf("Decode returned %d values, want 1", len(vs))
	}
	return vs[0]
}

// checkValue checks a decoded value against want, or its error against
// wantErr when that is not empty.
func checkValue(tb testing.TB, v Value, want any, wantErr string) {
	tb.Helper()
	if wantErr != "" {
		if v.Err == nil || v.Err.Error() != wantErr {
			tb.Errorf("error = %v, want %q", v.Err, wantErr)
		}
		if _, ok := v.Err.(*Error); v.Err != nil && !ok {
			tb.Errorf("error is a %T, want *Error", v.Err)
		}
		return
	}
	if v.Err != nil {
		tb.Fatalf("unexpected error: %v", v.Err)
	}
	if !v.Present {
		tb.Fatalf("not present, want %#v", want)
	}
	if !reflect.DeepEqual(v.Value, want) {
		tb.Errorf("value = %#v, want %#v", v.Value, want)
	}
}
