package exercise

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
)

const bodySpec = `openapi: 3.1.0
info: {title: bodies, version: '1'}
paths:
  /json:
    post:
      requestBody:
        required: true
        content:
          text/plain: {schema: {type: string}}
          application/json: {schema: {$ref: '#/components/schemas/Pet'}}
      responses: {'200': {description: ok}}
  /any:
    post:
      requestBody:
        required: true
        content:
          '*/*': {schema: {type: object, required: [a], properties: {a: {type: integer}}}}
      responses: {'200': {description: ok}}
  /form:
    post:
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [name, tags, meta, colors]
              properties:
                name: {type: string}
                tags: {type: array, minItems: 2, items: {type: string}}
                meta: {type: object, required: [n], properties: {n: {type: integer}}}
                colors: {type: array, minItems: 1, items: {type: string, enum: [red, green]}}
            encoding:
              colors: {style: pipeDelimited, explode: false}
      responses: {'200': {description: ok}}
  /multipart:
    post:
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file, meta, count]
              properties:
                file: {type: string, format: binary}
                meta: {type: object, required: [n], properties: {n: {type: integer}}}
                count: {type: integer}
            encoding:
              file: {contentType: 'image/png, image/jpeg'}
      responses: {'200': {description: ok}}
  /text:
    post:
      requestBody:
        required: true
        content:
          text/*: {schema: {type: string, minLength: 3}}
      responses: {'200': {description: ok}}
  /xml:
    post:
      requestBody:
        required: true
        content:
          application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
      responses: {'200': {description: ok}}
  /bytes:
    put:
      requestBody:
        required: true
        content:
          application/octet-stream: {schema: {type: string, format: binary}}
      responses: {'200': {description: ok}}
  /optional:
    post:
      requestBody:
        content:
          application/json: {schema: {$ref: '#/components/schemas/Endless'}}
      responses: {'200': {description: ok}}
components:
  schemas:
    Pet:
      type: object
      xml: {name: pet}
      required: [id, name, password]
      properties:
        id: {type: integer, readOnly: true, xml: {attribute: true}}
        name: {type: string}
        password: {type: string, writeOnly: true}
        created: {type: string, format: date-time, readOnly: true}
    Endless:
      type: object
      required: [next]
      properties:
        next: {$ref: '#/components/schemas/Endless'}
`

// TestBodies checks the body made for each media type: its Content-Type
// and its text.
func TestBodies(t *testing.T) {
	doc := load(t, bodySpec)
	tests := []struct {
		op, contentType string
		want            []string // what the body holds
	}{
		{"POST /json", "application/json", []string{`"password":`, `"name":`}},
		{"POST /any", "application/json", []string{`{"a":`}},
		{"POST /form", "application/x-www-form-urlencoded", []string{"meta=%7B%22n%22%3A", "&tags=", "&tags=", "colors="}},
		{"POST /multipart", "multipart/form-data; boundary=plantmock-", []string{
			"Content-Type: image/png", `name="meta"`, "Content-Type: application/json", `name="count"`, "Content-Type: text/plain"}},
		{"POST /text", "text/plain", nil},
		{"POST /xml", "application/xml", []string{`<pet><name>`, "<password>"}},
		{"PUT /bytes", "application/octet-stream", nil},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			op := operation(t, doc, tt.op)
			req, err := Request(doc, op, "http://mock.test", 3)
			if err != nil {
				t.Fatal(err)
			}
			if ct := req.Header.Get("Content-Type"); !strings.HasPrefix(ct, tt.contentType) {
				t.Errorf("Content-Type = %q, want %q", ct, tt.contentType)
			}
			body, err := io.ReadAll(req.Body)
			if err != nil {
				t.Fatal(err)
			}
			if len(body) == 0 {
				t.Errorf("the body is empty")
			}
			for _, w := range tt.want {
				if !strings.Contains(string(body), w) {
					t.Errorf("body %s\nholds no %s", body, w)
				}
			}
			for _, ro := range []string{"created", `"id"`, ` id="`} {
				if strings.Contains(string(body), ro) {
					t.Errorf("body %s holds a read-only property (%s)", body, ro)
				}
			}
		})
	}
}

// TestOptionalBody checks that an optional body no value can be made for
// is left out, and a required one makes Make fail, naming the media type.
func TestOptionalBody(t *testing.T) {
	doc := load(t, bodySpec)
	op := operation(t, doc, "POST /optional")
	c, err := Make(op, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Media != nil {
		t.Errorf("a body is made: %s", jsonx.Marshal(c.Body))
	}
	op.Body.Required = true
	defer func() { op.Body.Required = false }()
	_, err = Make(op, 1)
	if err == nil || !strings.Contains(err.Error(), "POST /optional: no body could be made: application/json: ") {
		t.Errorf("err = %v", err)
	}
}

// TestExamplesStayIntact checks that making a body from a schema's example
// and changing it leaves the example alone.
func TestExamplesStayIntact(t *testing.T) {
	doc := load(t, `openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /things:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              example: {id: 1, name: a}
              properties:
                id: {type: integer, readOnly: true}
                name: {type: string}
      responses: {'200': {description: ok}}
`)
	op := doc.Operations[0]
	for i := 0; i < 2; i++ {
		c, err := Make(op, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(jsonx.Marshal(c.Body)); got != `{"name":"a"}` {
			t.Errorf("body %d = %s, want the example without its read-only id", i, got)
		}
		c.Body.(map[string]any)["name"] = "changed"
	}
	if got := string(jsonx.Marshal(op.Body.Content[0].Schema.Example)); got != `{"id":1,"name":"a"}` {
		t.Errorf("the example is now %s", got)
	}
}

// TestBodyWriteOnlyInAlternative checks that a body whose anyOf
// alternative requires a writeOnly property carries it: a request must
// send it, and unevaluatedProperties: false refuses a body that matches
// no alternative.
func TestBodyWriteOnlyInAlternative(t *testing.T) {
	doc := load(t, `openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /payments:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [source]
              properties:
                source:
                  unevaluatedProperties: false
                  anyOf:
                    - type: object
                      required: [number, cvc]
                      properties:
                        object: {const: card}
                        number: {type: string}
                        cvc: {type: integer, writeOnly: true}
                        city: {type: string}
                    - type: object
                      required: [object, sort_code]
                      properties:
                        object: {const: bank}
                        sort_code: {type: string}
      responses: {'200': {description: ok}}
`)
	op := operation(t, doc, "POST /payments")
	cards := 0
	for seed := uint64(1); seed <= 40; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			c, err := Make(op, seed)
			if err != nil {
				t.Fatal(err)
			}
			if vs := c.Media.Schema.ValidateRequest(c.Body); len(vs) > 0 {
				t.Errorf("body %s: %v", jsonx.Marshal(c.Body), vs)
			}
			if src, _ := c.Body.(map[string]any)["source"].(map[string]any); src["cvc"] != nil {
				cards++
			}
		})
	}
	if cards == 0 {
		t.Errorf("no body of 40 is a card: the alternative with a writeOnly property is never made")
	}
}

const readOnlySpec = `openapi: 3.0.3
info: {title: read-only, version: '1'}
paths:
  /things:
    post:
      requestBody:
        required: true
        content:
          application/json: {schema: {$ref: '#/components/schemas/Thing'}}
          application/x-www-form-urlencoded: {schema: {$ref: '#/components/schemas/Thing'}}
          multipart/form-data: {schema: {$ref: '#/components/schemas/Thing'}}
          application/xml: {schema: {$ref: '#/components/schemas/Thing'}}
      responses: {'200': {description: ok}}
components:
  schemas:
    Stamped:
      type: object
      required: [roCreated]
      properties:
        roCreated: {type: string, readOnly: true}
    Thing:
      allOf:
        - $ref: '#/components/schemas/Stamped'
        - type: object
          required: [roId, name]
          properties:
            roId: {type: integer, readOnly: true, xml: {attribute: true}}
            name: {type: string}
            roEtag: {type: string, readOnly: true, xml: {attribute: true}}
            sub:
              type: object
              required: [roRid]
              properties:
                roRid: {type: integer, readOnly: true}
                x: {type: integer}
            list:
              type: array
              items:
                type: object
                required: [roKey]
                properties:
                  roKey: {type: string, readOnly: true}
                  v: {type: string}
`

// TestBodiesLeaveReadOnlyOut checks that no generated request body, in
// any media type, carries a readOnly property: required or not, of an
// allOf member, nested in an object or an array's items, or an XML
// attribute.
func TestBodiesLeaveReadOnlyOut(t *testing.T) {
	doc := load(t, readOnlySpec)
	op := operation(t, doc, "POST /things")
	for _, m := range op.Body.Content {
		t.Run(m.Type, func(t *testing.T) {
			for seed := uint64(1); seed <= 5; seed++ {
				c, err := Make(op, seed)
				if err != nil {
					t.Fatal(err)
				}
				d, err := c.WithOptional().InMedia(m)
				if err != nil {
					t.Fatal(err)
				}
				req, err := d.Request("http://mock.test")
				if err != nil {
					t.Fatal(err)
				}
				body, err := io.ReadAll(req.Body)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(body), "name") {
					t.Errorf("seed %d: body %s has no name", seed, body)
				}
				for _, ro := range []string{"roCreated", "roId", "roEtag", "roRid", "roKey"} {
					if strings.Contains(string(body), ro) {
						t.Errorf("seed %d: body %s carries the readOnly %s", seed, body, ro)
					}
				}
			}
		})
	}
}

// TestReadBody checks that a body written in each media type reads back
// as the value written: an XML element's text as a string.
func TestReadBody(t *testing.T) {
	doc := load(t, readOnlySpec)
	op := operation(t, doc, "POST /things")
	v := map[string]any{"name": "a b", "roId": json.Number("3"), "sub": map[string]any{"x": json.Number("1")},
		"list": []any{map[string]any{"v": "w"}, map[string]any{"v": "z", "roKey": "k"}}}
	asText := map[string]any{"name": "a b", "roId": "3", "sub": map[string]any{"x": "1"},
		"list": []any{map[string]any{"v": "w"}, map[string]any{"v": "z", "roKey": "k"}}}
	for _, m := range op.Body.Content {
		t.Run(m.Type, func(t *testing.T) {
			data, ct, err := writeBody(m, v, 1)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := ReadBody(m, data, ct)
			want := any(v)
			if m.Type == "application/xml" {
				want = asText
			}
			if !ok || string(jsonx.Marshal(got)) != string(jsonx.Marshal(want)) {
				t.Errorf("read %s back as %s (%v), want %s", data, jsonx.Marshal(got), ok, jsonx.Marshal(want))
			}
		})
	}
}
