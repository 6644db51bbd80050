package media

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func TestEncodeText(t *testing.T) {
	tests := []struct {
		name, mt string
		schema   *openapi.Schema
		value    string
		want     string
	}{
		{"string as it is", "text/plain", nil, `"a <b> & \"c\"\n"`, "a <b> & \"c\"\n"},
		{"number", "text/plain", nil, `-1.5e3`, "-1.5e3"},
		{"boolean", "text/plain; charset=utf-8", nil, `true`, "true"},
		{"null", "text/plain", nil, `null`, ""},
		{"object as JSON", "text/plain", nil, `{"b":[1],"a":"x"}`, `{"a":"x","b":[1]}`},
		{"array as JSON", "text/markdown", nil, `[1,2]`, `[1,2]`},
		{"HTML string as it is", "text/html", nil, `"<p>Hi</p>"`, "<p>Hi</p>"},
		{"HTML number", "text/html", nil, `3`, "3"},
		{"HTML object", "text/html", object("Pet"), `{"name":"<Rex>","tags":[]}`,
			"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Pet</title></head>\n<body><pre>{\n  &#34;name&#34;: &#34;&lt;Rex&gt;&#34;,\n  &#34;tags&#34;: []\n}</pre></body></html>\n"},
		{"HTML array, no name", "text/html", nil, `[1]`,
			"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Response</title></head>\n<body><pre>[\n  1\n]</pre></body></html>\n"},
		{"HTML title escaped", "text/html", object("A&B"), `{}`,
			"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>A&amp;B</title></head>\n<body><pre>{}</pre></body></html>\n"},
		{"event", "text/event-stream", nil, `{"a":1}`, "data: {\"a\":1}\n\n"},
		{"event of lines", "text/event-stream", nil, `"one\ntwo\r\nthree\rfour"`, "data: one\ndata: two\ndata: three\ndata: four\n\n"},
		{"event of nothing", "text/event-stream", nil, `null`, "data: \n\n"},
		{"CSV string as it is", "text/csv", nil, `"id,name\n1,Rex"`, "id,name\n1,Rex"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.mt, value(t, tt.value), tt.schema)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}
