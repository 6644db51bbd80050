package wire

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

func TestPresence(t *testing.T) {
	tests := []struct {
		name    string
		shape   *Shape
		query   string
		present bool
		want    any
	}{
		{"absent", str, "other=1", false, nil},
		{"no query", str, "", false, nil},
		{"name alone", str, "flag", true, ""},
		{"empty value", str, "flag=", true, ""},
		{"empty integer stays text", integer, "flag=", true, ""},
		{"empty nullable integer stays text", &Shape{Types: Integer | Null}, "flag", true, ""},
		{"empty array", strs, "flag=", true, []any{}},
		{"empty pairs skipped", str, "&&flag=x&&", true, "x"},
		{"empty object", &Shape{Types: Object}, "flag=", true, map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			explode := tt.shape.Types != Object // an exploded object has no name of its own
			v := decodeOne(t, Param{Name: "flag", In: "query", Explode: &explode, Shape: tt.shape}, wireRequest{query: tt.query})
			if v.Err != nil || v.Present != tt.present || !reflect.DeepEqual(v.Value, tt.want) {
				t.Errorf("got %+v, want present %v, value %#v", v, tt.present, tt.want)
			}
		})
	}
}

func TestCoercion(t *testing.T) {
	tests := []struct {
		name  string
		shape *Shape
		text  string
		want  any
	}{
		{"integer", integer, "10", num("10")},
		{"negative exponent", &Shape{Types: Number}, "-1.5e-3", num("-1.5e-3")},
		{"fraction for an integer stays a number", integer, "1.5", num("1.5")},
		{"leading zero is text", integer, "01", "01"},
		{"plus sign is text", integer, "%2B1", "+1"},
		{"hexadecimal is text", integer, "0x10", "0x10"},
		{"trailing dot is text", &Shape{Types: Number}, "1.", "1."},
		{"string allowed too: number first", &Shape{Types: String | Integer}, "10", num("10")},
		{"string allowed too: text otherwise", &Shape{Types: String | Integer}, "all", "all"},
		{"boolean", &Shape{Types: Boolean}, "true", true},
		{"boolean is exact", &Shape{Types: Boolean}, "True", "True"},
		{"boolean or string", &Shape{Types: Boolean | String}, "false", false},
		{"boolean not allowed", str, "true", "true"},
		{"null for a nullable integer", &Shape{Types: Integer | Null}, "null", nil},
		{"null for a nullable string is text", &Shape{Types: String | Null}, "null", "null"},
		{"any type keeps text", nil, "10", "10"},
		{"no types keeps text", &Shape{}, "true", "true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkValue(t, decodeOne(t, Param{Name: "v", In: "query", Shape: tt.shape}, wireRequest{query: "v=" + tt.text}), tt.want, "")
		})
	}
}

func TestContentParams(t *testing.T) {
	point := &Shape{Types: Object}
	tests := []struct {
		name    string
		param   Param
		wire    wireRequest
		want    any
		wantErr string
	}{
		{"JSON query", Param{Name: "c", In: "query", Content: "application/json", Shape: point}, wireRequest{query: "c=%7B%22lat%22%3A1.5%2C%22long%22%3A2%7D"}, map[string]any{"lat": num("1.5"), "long": num("2")}, ""},
		{"JSON array is one value", Param{Name: "c", In: "query", Content: "application/json", Shape: ints}, wireRequest{query: "c=[1,2]"}, []any{num("1"), num("2")}, ""},
		{"JSON repeated", Param{Name: "c", In: "query", Content: "application/json"}, wireRequest{query: "c=1&c=2"}, nil, "query.c: appears 2 times but takes one value"},
		{"JSON malformed", Param{Name: "c", In: "query", Content: "application/json"}, wireRequest{query: "c={"}, nil, "query.c: invalid JSON: unexpected end of input"},
		{"JSON empty", Param{Name: "c", In: "query", Content: "application/json"}, wireRequest{query: "c="}, nil, "query.c: value is empty, expected JSON"},
		{"JSON header", Param{Name: "X-Filter", In: "header", Content: "application/vnd.x+json"}, wireRequest{headers: map[string][]string{"X-Filter": {`{"a":[1]}`}}}, map[string]any{"a": []any{num("1")}}, ""},
		{"JSON path", Param{Name: "id", In: "path", Content: "application/json"}, wireRequest{path: "%5B%22a%22%5D"}, []any{"a"}, ""},
		{"JSON cookie", Param{Name: "c", In: "cookie", Content: "application/json"}, wireRequest{headers: map[string][]string{"Cookie": {"c=true"}}}, true, ""},
		{"text is coerced", Param{Name: "c", In: "query", Content: "text/plain", Shape: integer}, wireRequest{query: "c=12"}, num("12"), ""},
		{"other types keep text", Param{Name: "c", In: "query", Content: "application/xml", Shape: integer}, wireRequest{query: "c=12"}, "12", ""},
		{"JSON querystring", Param{Name: "q", In: "querystring", Content: "application/json"}, wireRequest{query: "%7B%22a%22:%5B1,%22x+y%22%5D%7D"}, map[string]any{"a": []any{num("1"), "x+y"}}, ""},
		{"JSON querystring malformed", Param{Name: "q", In: "querystring", Content: "application/json"}, wireRequest{query: "a=1"}, nil, "querystring.q: invalid JSON at offset 0: invalid character 'a' looking for beginning of value"},
		{"text querystring", Param{Name: "q", In: "querystring", Content: "text/plain", Shape: integer}, wireRequest{query: "%31%32"}, num("12"), ""},
		{"querystring bad escape", Param{Name: "q", In: "querystring", Content: "text/plain"}, wireRequest{query: "a%2"}, nil, `querystring.q: malformed percent-escape "%2"`},
		{"form querystring", Param{Name: "q", In: "querystring", Content: "application/x-www-form-urlencoded", Form: mustForm(rgb)}, wireRequest{query: "R=1&G=%zz"}, nil, `querystring.q.G: malformed percent-escape "%zz"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkValue(t, decodeOne(t, tt.param, tt.wire), tt.want, tt.wantErr)
		})
	}
}

func TestDecodeOperation(t *testing.T) {
	ps, err := NewParams([]Param{
		{Name: "id", In: "path", Shape: integer},
		{Name: "limit", In: "query", Shape: integer},
		{Name: "filter", In: "query", Style: "deepObject", Shape: &Shape{Types: Object}},
		{Name: "tags", In: "query", Explode: no, Shape: strs},
		{Name: "rest", In: "query", Shape: &Shape{Types: Object, Additional: str}},
		{Name: "X-Trace", In: "header", Shape: str},
		{Name: "session", In: "cookie", Shape: str},
		{Name: "prefs", In: "cookie", Shape: &Shape{Types: Object}},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/items/7?limit=x&filter[a]=1&tags=a,b&utm=z&q=w", nil)
	r.Header.Set("x-trace", "t1")
	r.Header.Set("Cookie", "session=s; theme=dark")
	path := func(name string) (string, bool) { return "7", name == "id" }
	got := ps.Decode(nil, r, path)
	want := []Value{
		{Present: true, Value: num("7")},
		{Present: true, Value: "x"},
		{Present: true, Value: map[string]any{"a": "1"}},
		{Present: true, Value: []any{"a", "b"}},
		{Present: true, Value: map[string]any{"utm": "z", "q": "w"}},
		{Present: true, Value: "t1"},
		{Present: true, Value: "s"},
		{Present: true, Value: map[string]any{"theme": "dark"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decode:\n got %#v\nwant %#v", got, want)
	}

	// dst is reused; without a path function, path parameters are absent.
	again := ps.Decode(got[:0], httptest.NewRequest(http.MethodGet, "/", nil), nil)
	if &again[0] != &got[0] {
		t.Error("Decode did not reuse dst")
	}
	for i, v := range again {
		if v.Present || v.Value != nil || v.Err != nil {
			t.Errorf("value %d of an empty request = %+v, want absent", i, v)
		}
	}
}

func TestNewParamsRefuses(t *testing.T) {
	tests := []struct {
		name string
		list []Param
		want string
	}{
		{"unknown location", []Param{{Name: "a", In: "body"}}, `parameter "a": "body" is not a parameter location`},
		{"no name", []Param{{In: "query"}}, "query parameter without a name"},
		{"unknown style", []Param{{Name: "a", In: "query", Style: "csv"}}, `query.a: unknown style "csv"`},
		{"style of another location", []Param{{Name: "a", In: "query", Style: "label"}}, `query.a: style "label" is not defined for query parameters`},
		{"form in a header", []Param{{Name: "a", In: "header", Style: "form"}}, `header.a: style "form" is not defined for header parameters`},
		{"deepObject in a path", []Param{{Name: "a", In: "path", Style: "deepObject"}}, `path.a: style "deepObject" is not defined for path parameters`},
		{"declared twice", []Param{{Name: "a", In: "query"}, {Name: "a", In: "query"}}, "query.a: declared twice"},
		{"querystring without content", []Param{{Name: "q", In: "querystring", Shape: str}}, "querystring.q: a querystring parameter is described by content"},
		{"header declared twice in other case", []Param{{Name: "X-A", In: "header"}, {Name: "x-a", In: "header"}}, "header.x-a: declared twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewParams(tt.list)
			if err == nil || err.Error() != tt.want {
				t.Errorf("NewParams = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := NewParams([]Param{{Name: "a", In: "query"}, {Name: "a", In: "header"}, {Name: "a", In: "cookie"}, {Name: "a", In: "path"}}); err != nil {
		t.Errorf("one name in every location: %v", err)
	}
}

func TestErrorString(t *testing.T) {
	if got := (&Error{Path: "query.a", Reason: "bad"}).Error(); got != "query.a: bad" {
		t.Errorf("got %q", got)
	}
	if got := (&Error{Reason: "bad"}).Error(); got != "body: bad" {
		t.Errorf("got %q", got)
	}
}

func TestParseType(t *testing.T) {
	for name, want := range map[string]TypeSet{"null": Null, "boolean": Boolean, "integer": Integer, "number": Number, "string": String, "array": Array, "object": Object, "file": 0} {
		if got := ParseType(name); got != want {
			t.Errorf("ParseType(%q) = %v, want %v", name, got, want)
		}
	}
}

func mustForm(s *Shape) *Form {
	f, err := NewForm(s, nil)
	if err != nil {
		panic(err)
	}
	return f
}

// TestQueryStringForm: a form querystring parameter is the whole query
// string decoded as a form body; absent when the query string is empty.
func TestQueryStringForm(t *testing.T) {
	p := Param{Name: "q", In: "querystring", Content: "application/x-www-form-urlencoded", Form: mustForm(&Shape{Types: Object, Properties: map[string]*Shape{"n": integer, "t": strs}})}
	checkValue(t, decodeOne(t, p, wireRequest{query: "n=4&t=a&t=b+c&x=y"}), map[string]any{"n": num("4"), "t": []any{"a", "b c"}, "x": "y"}, "")
	if v := decodeOne(t, p, wireRequest{}); v.Present || v.Value != nil || v.Err != nil {
		t.Errorf("no query string: %+v, want absent", v)
	}
}
