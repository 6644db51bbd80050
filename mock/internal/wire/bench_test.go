package wire

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// BenchmarkQuery decodes a typical query: ?limit=10&tags=a,b.
func BenchmarkQuery(b *testing.B) {
	ps, err := NewParams([]Param{
		{Name: "limit", In: "query", Shape: integer},
		{Name: "tags", In: "query", Explode: no, Shape: strs},
		{Name: "offset", In: "query", Shape: integer},
	})
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/plants?limit=10&tags=a,b", nil)
	dst := make([]Value, 0, 3)
	b.ReportAllocs()
	for b.Loop() {
		dst = ps.Decode(dst, r, nil)
	}
	if dst[0].Err != nil || dst[1].Err != nil {
		b.Fatal(dst)
	}
}

// BenchmarkPath decodes an integer path parameter, /plants/{id}.
func BenchmarkPath(b *testing.B) {
	ps, err := NewParams([]Param{{Name: "id", In: "path", Shape: integer}})
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/plants/12345", nil)
	path := func(string) (string, bool) { return "12345", true }
	dst := make([]Value, 0, 1)
	b.ReportAllocs()
	for b.Loop() {
		dst = ps.Decode(dst, r, path)
	}
	if dst[0].Err != nil {
		b.Fatal(dst)
	}
}

// BenchmarkPathString decodes a string path parameter that needs no
// decoding, the most common case.
func BenchmarkPathString(b *testing.B) {
	ps, err := NewParams([]Param{{Name: "name", In: "path", Shape: str}})
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/plants/monstera", nil)
	path := func(string) (string, bool) { return "monstera", true }
	dst := make([]Value, 0, 1)
	b.ReportAllocs()
	for b.Loop() {
		dst = ps.Decode(dst, r, path)
	}
}

func BenchmarkURLEncoded(b *testing.B) {
	f := newTestForm(b)
	body := []byte("id=f81d4fae&count=3&tags=x&tags=y&address=%7B%22zip%22%3A%2212%22%7D")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.DecodeURLEncoded(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMultipart(b *testing.B) {
	f := newTestForm(b)
	body, ct := multipartBody(b, part{name: "id", body: "a1"}, part{name: "count", body: "3"},
		part{name: "avatar", filename: "a.png", contentType: "image/png", body: string(bytes.Repeat([]byte{0x89}, 4096))})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.DecodeMultipart(bytes.NewReader(body), ct, 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}

// deep30 is a form body of 30 pairs in deepObject style, as a payment
// API's create takes it: indexed line items with typed fields, a nested
// object, an indexed list and scalars; deep30JSON is the same data as
// JSON. shape30 is their schema's shape.
var (
	deep30 = "amount=2000&currency=eur&customer=cus_123&description=order+42" +
		"&metadata[order]=42&metadata[channel]=web&metadata[region]=eu" +
		"&expand[0]=customer&expand[1]=invoice&expand[2]=latest_charge" +
		"&shipping[name]=Ada&shipping[address][line1]=1+Main+St&shipping[address][city]=Paris&shipping[address][postal_code]=75001&shipping[address][country]=FR" +
		"&lines[0][price]=price_1&lines[0][quantity]=2&lines[1][price]=price_2&lines[1][quantity]=1&lines[2][price]=price_3&lines[2][quantity]=5" +
		"&capture=true&confirm=false&off_session=true&receipt_email=ada%40example.com&statement_descriptor=SHOP" +
		"&application_fee_amount=100&setup_future_usage=off_session&payment_method=pm_1&return_url=https%3A%2F%2Fexample.com%2Fdone"
	deep30JSON = `{"amount":2000,"currency":"eur","customer":"cus_123","description":"order 42",` +
		`"metadata":{"order":"42","channel":"web","region":"eu"},"expand":["customer","invoice","latest_charge"],` +
		`"shipping":{"name":"Ada","address":{"line1":"1 Main St","city":"Paris","postal_code":"75001","country":"FR"}},` +
		`"lines":[{"price":"price_1","quantity":2},{"price":"price_2","quantity":1},{"price":"price_3","quantity":5}],` +
		`"capture":true,"confirm":false,"off_session":true,"receipt_email":"ada@example.com","statement_descriptor":"SHOP",` +
		`"application_fee_amount":100,"setup_future_usage":"off_session","payment_method":"pm_1","return_url":"https://example.com/done"}`
)

func shape30() (*Shape, map[string]Encoding) {
	str, integer, boolean := &Shape{Types: String}, &Shape{Types: Integer}, &Shape{Types: Boolean}
	props := map[string]*Shape{
		"amount": integer, "currency": str, "customer": str, "description": str,
		"metadata": {Types: Object, Additional: str},
		"expand":   {Types: Array, Items: str},
		"shipping": {Types: Object, Properties: map[string]*Shape{"name": str, "address": {Types: Object, Additional: str}}},
		"lines":    {Types: Array, Items: &Shape{Types: Object, Properties: map[string]*Shape{"price": str, "quantity": integer}}},
		"capture":  boolean, "confirm": boolean, "off_session": boolean, "receipt_email": str, "statement_descriptor": str,
		"application_fee_amount": integer, "setup_future_usage": str, "payment_method": str, "return_url": str,
	}
	enc := map[string]Encoding{}
	for _, name := range []string{"metadata", "expand", "shipping", "lines"} {
		enc[name] = Encoding{Style: "deepObject", Explode: yes}
	}
	return &Shape{Types: Object, Properties: props}, enc
}

// BenchmarkFormDeepObject30 decodes deep30, a 30-pair deepObject form
// body, into the value BenchmarkJSON30 decodes from the same data as
// JSON: what a form body costs beside a JSON one.
func BenchmarkFormDeepObject30(b *testing.B) {
	s, enc := shape30()
	f, err := NewForm(s, enc)
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(deep30)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.DecodeURLEncoded(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJSON30 decodes deep30JSON, the data of deep30, as a JSON body
// is decoded (jsonx).
func BenchmarkJSON30(b *testing.B) {
	body := []byte(deep30JSON)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jsonx.Decode(body); err != nil {
			b.Fatal(err)
		}
	}
}

// TestForm30IsJSON30: the two benchmarks decode the same value.
func TestForm30IsJSON30(t *testing.T) {
	s, enc := shape30()
	f, err := NewForm(s, enc)
	if err != nil {
		t.Fatal(err)
	}
	form, err := f.DecodeURLEncoded([]byte(deep30))
	if err != nil {
		t.Fatal(err)
	}
	js, err := jsonx.Decode([]byte(deep30JSON))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(jsonx.Marshal(form)), string(jsonx.Marshal(js)); got != want {
		t.Errorf("form decodes to\n%s\nJSON to\n%s", got, want)
	}
}
