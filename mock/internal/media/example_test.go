package media_test

import (
	"encoding/json"
	"fmt"

	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func ExampleNegotiate() {
	offered := []string{"application/json", "application/xml", "text/csv"}
	for _, accept := range []string{
		"",
		"application/xml",
		"text/*;q=0.5, application/json;q=0.4",
		"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
		"image/png",
	} {
		i, ok := media.Negotiate(accept, offered)
		if !ok {
			fmt.Printf("%q: not acceptable\n", accept)
			continue
		}
		fmt.Printf("%q: %s\n", accept, offered[i])
	}
	// Output:
	// "": application/json
	// "application/xml": application/xml
	// "text/*;q=0.5, application/json;q=0.4": text/csv
	// "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8": application/xml
	// "image/png": not acceptable
}

func ExampleContentType() {
	fmt.Println(media.ContentType("application/*", "application/xml"))
	fmt.Println(media.ContentType("*/*", ""))
	fmt.Println(media.ContentType("image/*", "image/gif, image/*;q=0.1"))
	fmt.Println(media.ContentType("application/json", "text/html"))
	// Output:
	// application/xml
	// application/json
	// image/gif
	// application/json
}

func ExampleEncode() {
	pet := &openapi.Schema{
		Name: "Pet",
		Properties: []openapi.Property{
			{Name: "id", Schema: &openapi.Schema{XML: &openapi.XML{Attribute: true}}},
			{Name: "name"},
			{Name: "tags", Schema: &openapi.Schema{
				XML:   &openapi.XML{Wrapped: true},
				Items: &openapi.Schema{XML: &openapi.XML{Name: "tag"}},
			}},
		},
	}
	v := map[string]any{"id": json.Number("7"), "name": "Fern & Co", "tags": []any{"green", "shade"}}
	for _, mt := range []string{"application/json", "application/xml", "application/x-www-form-urlencoded", "image/png"} {
		body, err := media.Encode(mt, v, pet)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s\n", body)
	}
	// Output:
	// {"id":7,"name":"Fern & Co","tags":["green","shade"]}
	// <?xml version="1.0" encoding="UTF-8"?>
	// <Pet id="7"><name>Fern &amp; Co</name><tags><tag>green</tag><tag>shade</tag></tags></Pet>
	//
	// id=7&name=Fern+%26+Co&tags=green&tags=shade
	// media: value not writable in the media type: an object as image/png
}

func ExampleSample() {
	for _, mt := range []string{"image/png", "application/pdf", "application/octet-stream"} {
		fmt.Printf("%s %d bytes, Writable %v\n", mt, len(media.Sample(mt, nil)), media.Writable(mt))
	}
	// Output:
	// image/png 71 bytes, Writable false
	// application/pdf 308 bytes, Writable false
	// application/octet-stream 8 bytes, Writable false
}
