package wire

import (
	"reflect"
	"testing"
)

// formShape is the body schema of the form tests.
var formShape = &Shape{Types: Object, Properties: map[string]*Shape{
	"id":      str,
	"count":   integer,
	"tags":    strs,
	"address": {Types: Object, Properties: map[string]*Shape{"zip": str}},
	"color":   rgb,
	"ids":     ints,
	"words":   strs,
	"hue":     rgb,
	"note":    &Shape{Types: String},
	"avatar":  str,
	"expand":  strs,
	"lines":   &Shape{Types: Array, Items: &Shape{Types: Object, Properties: map[string]*Shape{"price": str, "quantity": integer}}},
}}

var formEncoding = map[string]Encoding{
	"color":  {Style: "deepObject"},
	"ids":    {Explode: no},
	"words":  {Style: "pipeDelimited"},
	"hue":    {Style: "form", Explode: yes},
	"note":   {ContentType: "application/json"},
	"avatar": {ContentType: "image/png, image/jpeg"},
	"meta":   {ContentType: "application/json"}, // not declared by the schema
	"expand": {Style: "deepObject", Explode: yes},
	"lines":  {Style: "deepObject", Explode: yes},
}

func newTestForm(tb testing.TB) *Form {
	tb.Helper()
	f, err := NewForm(formShape, formEncoding)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

func TestDecodeURLEncoded(t *testing.T) {
	f := newTestForm(t)
	tests := []struct {
		name    string
		body    string
		want    map[string]any
		wantErr string
	}{
		{
			name: "every kind of property",
			body: "id=a+b&count=3&tags=x&tags=y&address=%7B%22zip%22%3A%2212%22%7D&color[R]=1&color[G]=2&ids=1,2" +
				"&words=a|b&R=9&note=%22hi%22&avatar=iVBOR%3D&meta=%5B1%5D&extra=e1&extra=e2&single=s",
			want: map[string]any{
				"id": "a b", "count": num("3"), "tags": []any{"x", "y"}, "address": map[string]any{"zip": "12"},
				"color": map[string]any{"R": num("1"), "G": num("2")}, "ids": []any{num("1"), num("2")},
				"words": []any{"a", "b"}, "hue": map[string]any{"R": num("9")}, "note": "hi", "avatar": "iVBOR=",
				"meta": []any{num("1")}, "extra": []any{"e1", "e2"}, "single": "s",
			},
		},
		{
			// OpenAPI 3.1.1, "Example: URL Encoded Form with JSON Values".
			name: "specification example",
			body: "id=f81d4fae-7dec-11d0-a765-00a0c91e6bf6&address=%7B%22streetAddress%22:%22123+Example+Dr.%22,%22city%22:%22Somewhere%22,%22state%22:%22CA%22,%22zip%22:%2299999%2B1234%22%7D",
			want: map[string]any{"id": "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "address": map[string]any{
				"streetAddress": "123 Example Dr.", "city": "Somewhere", "state": "CA", "zip": "99999+1234",
			}},
		},
		{name: "empty body", body: "", want: map[string]any{}},
		{name: "one empty array", body: "tags=", want: map[string]any{"tags": []any{}}},
		{name: "scalar repeated", body: "count=1&count=2", wantErr: "count: appears 2 times but takes one value"},
		{name: "malformed escape in a value", body: "count=%2", wantErr: `count: malformed percent-escape "%2"`},
		{name: "malformed escape in an undeclared name", body: "a%zz=1", wantErr: `body: malformed percent-escape "%zz" in the name "a%zz"`},
		{name: "invalid UTF-8 name", body: "%ff=1", wantErr: `body: invalid UTF-8 in the name "\xff"`},
		{name: "JSON property malformed", body: "address=%7B", wantErr: "address: invalid JSON: unexpected end of input"},
		{name: "JSON property empty", body: "address=", wantErr: "address: value is empty, expected JSON"},
		{name: "deepObject property malformed", body: "color[R=1", wantErr: `color: "color[R" is not a deepObject name: a bracket is not closed`},
		// As the SDKs of form-encoded APIs write arrays (see TestStyles).
		{name: "deepObject indexed arrays", body: "expand[0]=a&expand[1]=b&lines[0][price]=p&lines[0][quantity]=2", want: map[string]any{
			"expand": []any{"a", "b"}, "lines": []any{map[string]any{"price": "p", "quantity": num("2")}}}},
		{name: "deepObject array by its name", body: "expand=a", want: map[string]any{"expand": []any{"a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.DecodeURLEncoded([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				if _, ok := err.(*Error); !ok {
					t.Errorf("error is a %T, want *Error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestFreeFormProperty(t *testing.T) {
	f, err := NewForm(&Shape{Types: Object, Properties: map[string]*Shape{
		"id":   str,
		"rest": {Types: Object, Additional: integer},
	}}, map[string]Encoding{"rest": {Explode: yes}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.DecodeURLEncoded([]byte("id=1&a=2&b=3"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": "1", "rest": map[string]any{"a": num("2"), "b": num("3")}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func TestNewFormRefuses(t *testing.T) {
	tests := []struct {
		name string
		enc  map[string]Encoding
		want string
	}{
		{"path style", map[string]Encoding{"id": {Style: "label"}}, `id: encoding style "label" is not a style of query parameters`},
		{"unknown style", map[string]Encoding{"id": {Style: "csv"}}, `id: encoding style "csv" is not a style of query parameters`},
		{"malformed content type", map[string]Encoding{"id": {ContentType: "image/png, /"}}, `id: malformed encoding contentType "image/png, /"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewForm(formShape, tt.enc)
			if err == nil || err.Error() != tt.want {
				t.Errorf("NewForm = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestAllowReserved checks that allowReserved counts by its presence
// only: given, true or false, it makes a property styled (here an object
// read from its own names instead of JSON text); raw reserved characters
// are accepted either way.
func TestAllowReserved(t *testing.T) {
	shape := &Shape{Types: Object, Properties: map[string]*Shape{
		"q":  str,
		"at": {Types: Object, Properties: map[string]*Shape{"lat": {Types: Number}}},
	}}
	body := []byte("q=a/b:c?d@e!$'()*,;[]&lat=1.5")
	for _, enc := range []map[string]Encoding{
		{"q": {AllowReserved: yes}, "at": {AllowReserved: yes}},
		{"q": {AllowReserved: no}, "at": {AllowReserved: no}},
	} {
		f, err := NewForm(shape, enc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.DecodeURLEncoded(body)
		if err != nil {
			t.Fatalf("allowReserved %v: %v", *enc["q"].AllowReserved, err)
		}
		want := map[string]any{"q": "a/b:c?d@e!$'()*,;[]", "at": map[string]any{"lat": num("1.5")}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("allowReserved %v: got %#v, want %#v", *enc["q"].AllowReserved, got, want)
		}
	}
}

func TestListMode(t *testing.T) {
	tests := []struct {
		list string
		want mode
	}{
		{"application/json", modeJSON},
		{"application/json, application/problem+json", modeJSON},
		{"text/plain; charset=utf-8", modeText},
		{"application/json, text/plain", modeRaw},
		{"image/png", modeRaw},
	}
	for _, tt := range tests {
		if got := listMode(tt.list); got != tt.want {
			t.Errorf("listMode(%q) = %v, want %v", tt.list, got, tt.want)
		}
	}
}
