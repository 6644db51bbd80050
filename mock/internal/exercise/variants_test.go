package exercise

import (
	"strings"
	"testing"
)

const variantSpec = `openapi: 3.0.3
info: {title: variants, version: '1'}
paths:
  /things:
    post:
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 9}}
        - {name: nested, in: query, schema: {type: object, properties: {a: {type: object, properties: {b: {type: string}}, required: [b]}}, required: [a]}}
      requestBody:
        required: true
        content:
          application/json: {schema: {$ref: '#/components/schemas/Thing'}}
          application/x-www-form-urlencoded: {schema: {$ref: '#/components/schemas/Thing'}}
      responses:
        '201': {description: made}
components:
  schemas:
    Thing:
      type: object
      required: [name]
      properties: {name: {type: string, minLength: 1}}
`

func TestInMedia(t *testing.T) {
	doc := load(t, variantSpec)
	op := operation(t, doc, "POST /things")
	c, err := Make(op, 7)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, media, contentType string
	}{
		{"json", "application/json", "application/json"},
		{"form", "application/x-www-form-urlencoded", "application/x-www-form-urlencoded"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := c.InMedia(op.Body.Content[i])
			if err != nil {
				t.Fatal(err)
			}
			if d.Media.Type != tt.media || c.Media.Type != "application/json" {
				t.Fatalf("media %s, original's %s", d.Media.Type, c.Media.Type)
			}
			req, err := d.Request("http://x")
			if err != nil {
				t.Fatal(err)
			}
			if got := req.Header.Get("Content-Type"); got != tt.contentType {
				t.Errorf("Content-Type %q, want %q", got, tt.contentType)
			}
		})
	}
}

func TestWithOptional(t *testing.T) {
	doc := load(t, variantSpec)
	op := operation(t, doc, "POST /things")
	c, err := Make(op, 7)
	if err != nil {
		t.Fatal(err)
	}
	d := c.WithOptional()
	if _, has := c.Values["query.limit"]; has {
		t.Fatalf("the original call changed: %v", c.Values)
	}
	if _, has := d.Values["query.nested"]; has {
		t.Errorf("a value form style cannot write was kept: %v", d.Values)
	}
	req, err := d.Request("http://x")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(req.URL.RawQuery, "limit=") {
		t.Errorf("query %q, want the optional limit", req.URL.RawQuery)
	}
}
