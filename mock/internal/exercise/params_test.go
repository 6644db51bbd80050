package exercise

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestParamText checks how values are written by style and explode, as
// the specification's "Style Examples" table writes them.
func TestParamText(t *testing.T) {
	arr := []any{"blue", "black", "brown"}
	obj := map[string]any{"R": json.Number("100"), "G": json.Number("200")}
	tests := []struct {
		name    string
		in      string
		style   string
		explode *bool
		v       any
		want    string
	}{
		{"path simple scalar", "path", "", nil, "blue", "blue"},
		{"path simple array", "path", "simple", nil, arr, "blue,black,brown"},
		{"path simple object", "path", "simple", nil, obj, "G,200,R,100"},
		{"path simple object exploded", "path", "simple", ptr(true), obj, "G=200,R=100"},
		{"path label scalar", "path", "label", nil, "blue", ".blue"},
		{"path label array", "path", "label", nil, arr, ".blue.black.brown"},
		{"path label object", "path", "label", nil, obj, ".G.200.R.100"},
		{"path label object exploded", "path", "label", ptr(true), obj, ".G=200.R=100"},
		{"path label escapes dots", "path", "label", nil, []any{"a.b", "c"}, ".a%2Eb.c"},
		{"path matrix scalar", "path", "matrix", nil, "blue", ";color=blue"},
		{"path matrix array", "path", "matrix", nil, arr, ";color=blue,black,brown"},
		{"path matrix array exploded", "path", "matrix", ptr(true), arr, ";color=blue;color=black;color=brown"},
		{"path matrix object", "path", "matrix", nil, obj, ";color=G,200,R,100"},
		{"path matrix object exploded", "path", "matrix", ptr(true), obj, ";G=200;R=100"},
		{"path escapes delimiters", "path", "", nil, []any{"a,b", "c/d e"}, "a%2Cb,c%2Fd%20e"},
		{"query form scalar", "query", "", nil, "blue", "color=blue"},
		{"query form array", "query", "", nil, arr, "color=blue&color=black&color=brown"},
		{"query form array unexploded", "query", "form", ptr(false), arr, "color=blue,black,brown"},
		{"query form object", "query", "", nil, obj, "G=200&R=100"},
		{"query form object unexploded", "query", "form", ptr(false), obj, "color=G,200,R,100"},
		{"query spaceDelimited", "query", "spaceDelimited", ptr(false), arr, "color=blue%20black%20brown"},
		{"query pipeDelimited", "query", "pipeDelimited", ptr(false), arr, "color=blue|black|brown"},
		{"query deepObject", "query", "deepObject", ptr(true), map[string]any{"R": json.Number("100"), "sub": map[string]any{"x": true}}, "color[R]=100&color[sub][x]=true"},
		{"query escapes", "query", "", nil, "a&b=c+d", "color=a%26b%3Dc%2Bd"},
		{"header scalar", "header", "", nil, "blue, black", "blue, black"},
		{"header array", "header", "", nil, arr, "blue,black,brown"},
		{"header object exploded", "header", "", ptr(true), obj, "G=200,R=100"},
		{"cookie scalar", "cookie", "", nil, "a b", "color=a%20b"},
		{"cookie array unexploded", "cookie", "form", ptr(false), arr, "color=blue,black,brown"},
		{"cookie object", "cookie", "", nil, obj, "G=200; R=100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &openapi.Param{Name: "color", In: tt.in, Style: tt.style, Explode: tt.explode}
			var (
				got string
				err error
			)
			switch tt.in {
			case "path":
				got, err = pathValue(p, tt.v)
			case "query":
				got, err = queryPart(p, tt.v)
			case "header":
				got, err = headerValue(p, tt.v)
			case "cookie":
				got, err = cookiePart(p, tt.v)
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestParamTextRefused checks the values a style cannot write.
func TestParamTextRefused(t *testing.T) {
	tests := []struct {
		name string
		p    openapi.Param
		v    any
		want string
	}{
		{"nested array", openapi.Param{Name: "a", In: "query"}, []any{[]any{"x"}}, "nests arrays or objects"},
		{"deepObject of a scalar", openapi.Param{Name: "a", In: "query", Style: "deepObject"}, "x", "needs an object"},
		{"header list element with a comma", openapi.Param{Name: "a", In: "header"}, []any{"x,y"}, "cannot be written in a header list"},
		{"header control character", openapi.Param{Name: "a", In: "header"}, "x\ny", "cannot be sent in a header"},
		{"header spaces at the ends", openapi.Param{Name: "a", In: "header"}, " x", "spaces at its ends"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.p.In == "header" {
				_, err = headerValue(&tt.p, tt.v)
			} else {
				_, err = queryPart(&tt.p, tt.v)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to say %q", err, tt.want)
			}
		})
	}
}

const styleSpec = `openapi: 3.1.0
info: {title: styles, version: '1'}
paths:
  /things/{a}/{b}/{c}:
    get:
      parameters:
        - {name: a, in: path, required: true, style: label, schema: {type: array, items: {type: string}}}
        - {name: b, in: path, required: true, style: matrix, explode: true, schema: {type: object, required: [x, y], properties: {x: {type: integer}, y: {type: string}}}}
        - {name: c, in: path, required: true, schema: {type: number}}
        - {name: tags, in: query, required: true, schema: {type: array, minItems: 2, items: {type: string}}}
        - {name: pipes, in: query, required: true, style: pipeDelimited, explode: false, schema: {type: array, minItems: 1, items: {type: integer}}}
        - {name: filter, in: query, required: true, style: deepObject, schema: {type: object, required: [min], properties: {min: {type: integer}, name: {type: string}}}}
        - {name: X-Ids, in: header, required: true, schema: {type: array, minItems: 1, items: {type: integer}}}
        - {name: session, in: cookie, required: true, schema: {type: string, format: uuid}}
        - {name: doc, in: query, required: true, content: {application/json: {schema: {type: object, required: [k], properties: {k: {type: boolean}}}}}}
        - {name: optional, in: query, schema: {type: string}}
      responses:
        '200': {description: ok}
  /things/mine:
    get:
      responses:
        '200': {description: ok}
  /things/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string, enum: [mine, yours]}}
      responses:
        '200': {description: ok}
`

// TestRequestReadsBack checks that requests for parameters of every style
// read back as valid with the operation's own decoder, for many seeds.
func TestRequestReadsBack(t *testing.T) {
	doc := load(t, styleSpec)
	op := operation(t, doc, "GET /things/{a}/{b}/{c}")
	for seed := uint64(0); seed < 50; seed++ {
		req, err := Request(doc, op, "http://mock.test", seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if req.URL.Query().Has("optional") {
			t.Errorf("seed %d: an optional parameter is sent: %s", seed, req.URL)
		}
		if !strings.HasPrefix(req.URL.EscapedPath(), "/things/.") {
			t.Errorf("seed %d: path %s is not in label style", seed, req.URL.EscapedPath())
		}
	}
}

// TestRequestAvoidsSiblings checks that a request does not route to a
// sibling operation: /things/{id} with id "mine" would be GET /things/mine.
func TestRequestAvoidsSiblings(t *testing.T) {
	doc := load(t, styleSpec)
	op := operation(t, doc, "GET /things/{id}")
	for seed := uint64(0); seed < 20; seed++ {
		req, err := Request(doc, op, "http://mock.test", seed)
		if err != nil {
			continue // every attempt drew "mine"
		}
		if got := req.URL.Path; got != "/things/yours" {
			t.Errorf("seed %d: path %s, want /things/yours", seed, got)
		}
	}
}

// TestCallValuesChange checks that a Call's values may be changed before
// it is written: a test addresses the resource a create made.
func TestCallValuesChange(t *testing.T) {
	doc := load(t, `openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /things/{thingId}:
    get:
      parameters:
        - {name: thingId, in: path, required: true, schema: {type: integer}}
      responses:
        '200': {description: ok}
`)
	c, err := Make(doc.Operations[0], 1)
	if err != nil {
		t.Fatal(err)
	}
	c.Values["path.thingId"] = json.Number("42")
	req, err := c.Request("http://mock.test/base")
	if err != nil {
		t.Fatal(err)
	}
	if got := req.URL.String(); got != "http://mock.test/base/things/42" {
		t.Errorf("URL = %s", got)
	}
	c.Values["path.thingId"] = "forty-two"
	if _, err := c.Request("http://mock.test"); err == nil || !strings.Contains(err.Error(), "read back as invalid") {
		t.Errorf("an invalid value is written: err = %v", err)
	}
}

// TestQueryString: a querystring parameter (OpenAPI 3.2) is written as
// the whole query string, in its media type, and reads back as valid.
func TestQueryString(t *testing.T) {
	doc := load(t, `openapi: 3.2.0
info: {title: t, version: '1'}
paths:
  /search:
    get:
      parameters:
        - name: filter
          in: querystring
          required: true
          content:
            application/x-www-form-urlencoded:
              schema:
                type: object
                required: [name, tags]
                additionalProperties: false
                properties:
                  name: {type: string, enum: ['a b&c']}
                  tags: {type: array, minItems: 2, maxItems: 2, items: {type: string, enum: [x]}}
      responses: {'204': {description: ok}}
  /select:
    get:
      parameters:
        - name: q
          in: querystring
          required: true
          content: {application/json: {schema: {type: object, required: [id], additionalProperties: false, properties: {id: {type: string, enum: ['1 2']}}}}}
      responses: {'204': {description: ok}}
`)
	for name, want := range map[string]string{
		"GET /search": "name=a%20b%26c&tags=x&tags=x",
		"GET /select": "%7B%22id%22%3A%221%202%22%7D",
	} {
		op := operation(t, doc, name)
		c, err := Make(op, 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		req, err := c.Request("http://mock.invalid")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if req.URL.RawQuery != want {
			t.Errorf("%s: query %q, want %q", name, req.URL.RawQuery, want)
		}
	}
}
