package media

import (
	"bytes"
	"encoding/csv"
	"net/url"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// FuzzNegotiate checks that no Accept header or offered type makes
// Negotiate or ContentType panic, that the index is in range exactly when
// ok, and that the type to send for a well-formed offered type is a
// concrete media type.
func FuzzNegotiate(f *testing.F) {
	for _, s := range []string{
		"", "*/*", "application/json", browser, "text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, */*;q=0.5",
		"application/json;q=0", `text/plain;x="a,b\"c", image/png`, "a/b;;;,,;q=1;q=0", "application/*+json", "*/*;q=0.0001",
		",,", `"`, "text/plain;q", "x/y; a = \"b\" ; q = 0.5 ; ext",
	} {
		f.Add(s, "application/json", "application/*", "*/*")
	}
	f.Fuzz(func(t *testing.T, accept, o1, o2, o3 string) {
		offered := []string{o1, o2, o3}
		i, ok := Negotiate(accept, offered)
		if ok != (i >= 0 && i < len(offered)) || !ok && i != -1 {
			t.Fatalf("Negotiate(%q, %q) = %d, %v", accept, offered, i, ok)
		}
		if j, ok2 := Negotiate(accept, offered); j != i || ok2 != ok {
			t.Fatalf("Negotiate is not deterministic: %d, %v then %d, %v", i, ok, j, ok2)
		}
		for _, o := range offered {
			ct := ContentType(o, accept)
			if _, isType := parseRange(o); !isType {
				continue
			}
			r, isType := parseRange(ct)
			if !isType || !r.concrete() {
				t.Fatalf("ContentType(%q, %q) = %q, not a concrete media type", o, accept, ct)
			}
		}
	})
}

// FuzzEncode checks that no value and no xml objects make Encode panic,
// and that what it writes is well-formed in its media type: XML documents
// parse (one root, namespaces declared, no attribute twice), JSON is one
// value, forms parse as a query, CSV reads back.
func FuzzEncode(f *testing.F) {
	f.Add(`{"id":1,"name":"Rex","tags":["a","b"]}`, "Pet", "p", "urn:p", "id", uint8(0x01))
	f.Add(`{"a b":[{"c":null}],"":"<&>","xmlns":"x"}`, "", "xml", "", "xmlns", uint8(0xff))
	f.Add(`[1,[2,[3]],{"k":"\u0000"}]`, "1", "xmlns", "http://www.w3.org/2000/xmlns/", "", uint8(0x0a))
	f.Add(`"text"`, "a:b", "", "urn:x", "a", uint8(0x04))
	f.Fuzz(func(t *testing.T, data, name, prefix, ns, pname string, flags uint8) {
		v, err := jsonx.Decode([]byte(data))
		if err != nil {
			v = data
		}
		s := fuzzSchema(v, name, prefix, ns, pname, flags)

		body, err := Encode("application/xml", v, s)
		if err != nil {
			t.Fatalf("XML: %v", err)
		}
		if err := checkXML(body); err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, body)
		}

		if body, err = Encode("application/json", v, s); err != nil || !isJSON(body) {
			t.Fatalf("JSON: %q, %v", body, err)
		}
		if body, err = Encode("application/x-www-form-urlencoded", v, s); err == nil {
			if _, err := url.ParseQuery(string(body)); err != nil {
				t.Fatalf("form %q: %v", body, err)
			}
		}
		if body, err = Encode("text/csv", v, s); err != nil {
			t.Fatalf("CSV: %v", err)
		}
		if _, isText := v.(string); !isText {
			r := csv.NewReader(bytes.NewReader(body))
			r.FieldsPerRecord, r.LazyQuotes = -1, false
			if _, err := r.ReadAll(); err != nil {
				t.Fatalf("CSV %q: %v", body, err)
			}
		}
		for _, mt := range []string{"text/html", "text/event-stream", "application/x-ndjson", "application/octet-stream"} {
			Encode(mt, v, s)
		}
	})
}

// fuzzSchema makes a schema for v whose xml objects come from the fuzzed
// strings: the root's, and for each property of an object, one chosen by
// a bit of flags (attribute, wrapped, named, namespaced in turn).
func fuzzSchema(v any, name, prefix, ns, pname string, flags uint8) *openapi.Schema {
	s := &openapi.Schema{Name: name, XML: &openapi.XML{Name: pname, Prefix: prefix, Namespace: ns, Wrapped: flags&1 != 0}}
	m, ok := v.(map[string]any)
	if !ok {
		if _, isArray := v.([]any); isArray {
			s.Items = &openapi.Schema{XML: &openapi.XML{Name: pname, Prefix: prefix, Namespace: ns}}
		}
		return s
	}
	bit := 0
	for k, pv := range m {
		x := &openapi.XML{Attribute: flags>>(bit%8)&1 != 0, Wrapped: flags>>((bit+1)%8)&1 != 0}
		if flags>>((bit+2)%8)&1 != 0 {
			x.Name = pname
		}
		if flags>>((bit+3)%8)&1 != 0 {
			x.Prefix, x.Namespace = prefix, ns
		}
		ps := &openapi.Schema{XML: x}
		if _, isArray := pv.([]any); isArray {
			ps.Items = &openapi.Schema{XML: &openapi.XML{Name: k, Prefix: prefix}}
		}
		s.Properties = append(s.Properties, openapi.Property{Name: k, Schema: ps})
		bit++
	}
	return s
}
