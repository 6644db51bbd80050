package media

import (
	"encoding/json"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// BenchmarkNegotiate chooses between JSON and XML for common headers.
func BenchmarkNegotiate(b *testing.B) {
	offered := []string{"application/json", "application/xml"}
	for _, bm := range []struct{ name, accept string }{
		{"none", ""},
		{"json", "application/json"},
		{"any", "*/*"},
		{"browser", browser},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := Negotiate(bm.accept, offered); !ok {
					b.Fatal("not acceptable")
				}
			}
		})
	}
}

// BenchmarkContentType makes */* concrete for a browser's header.
func BenchmarkContentType(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if ContentType("*/*", browser) != "text/html" {
			b.Fatal("wrong type")
		}
	}
}

func benchPet() (any, *openapi.Schema) {
	s := object("Pet",
		prop("id", withXML(typed("integer"), openapi.XML{Attribute: true})),
		prop("name", typed("string")),
		prop("status", typed("string")),
		prop("tags", array("", withXML(typed("string"), openapi.XML{Name: "tag"}))))
	v := map[string]any{
		"id":     json.Number("42"),
		"name":   "Monstera deliciosa",
		"status": "available",
		"tags":   []any{"indoor", "large"},
	}
	return v, s
}

// BenchmarkEncode writes a small object in JSON and XML.
func BenchmarkEncode(b *testing.B) {
	v, s := benchPet()
	for _, mt := range []string{"application/json", "application/xml", "application/x-www-form-urlencoded"} {
		b.Run(KindOf(mt).String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Encode(mt, v, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
