package exercise

import (
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
)

const choiceSpec = `openapi: 3.0.3
info: {title: choices, version: '1'}
paths:
  /things/{kind}:
    post:
      parameters:
        - {name: kind, in: path, required: true, schema: {type: string, enum: [tool, seed]}}
        - {name: q, in: query, schema: {type: string, minLength: 2, maxLength: 5}}
        - {name: sort, in: query, schema: {type: array, items: {type: string, enum: [asc, desc]}}}
        - {name: code, in: query, schema: {type: string, pattern: '^[A-Z]{3}$', minLength: 3, maxLength: 3}}
      requestBody:
        required: true
        content:
          application/json: {schema: {$ref: '#/components/schemas/Thing'}}
      responses:
        '201': {description: made}
components:
  schemas:
    Thing:
      type: object
      required: [name, size]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string, minLength: 1, maxLength: 4000}
        size: {type: string, enum: [S, M]}
        tags: {type: array, minItems: 1, maxItems: 3, items: {type: string}}
        owner:
          oneOf:
            - {type: object, required: [user], properties: {user: {type: string}}, additionalProperties: false}
            - {type: object, required: [team], properties: {team: {type: integer}}, additionalProperties: false}
`

// TestChoices: the choices of a call, in their order, and each put into
// another call of the operation as a valid request.
func TestChoices(t *testing.T) {
	doc := load(t, choiceSpec)
	op := operation(t, doc, "POST /things/{kind}")
	c, err := Make(op, 3)
	if err != nil {
		t.Fatal(err)
	}
	c = c.WithOptional()
	before := jsonx.Clone(c.Body)
	var names []string
	chs := c.Choices()
	for _, ch := range chs {
		names = append(names, ch.Name)
	}
	want := []string{
		"alternative owner 1/2", "alternative owner 2/2",
		`enum path.kind="tool"`, `enum query.sort=["asc"]`, `enum size="S"`,
		`enum path.kind="seed"`, `enum query.sort=["desc"]`, `enum size="M"`,
		"minLength query.q=2", "minLength query.code=3", "minLength name=1", "minItems tags=1",
		"maxLength query.q=5", "maxLength query.code=3", "maxItems tags=3",
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("choices\n%q\nwant\n%q", names, want)
	}
	if !reflect.DeepEqual(c.Body, before) {
		t.Errorf("Choices changed the call's body: %v, was %v", c.Body, before)
	}
	other, err := Make(op, 99)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range chs {
		t.Run(ch.Name, func(t *testing.T) {
			d, ok := ch.On(other.WithOptional())
			if !ok {
				t.Fatal("the choice does not go into another call")
			}
			if _, err := d.Request("http://x"); err != nil {
				t.Fatalf("the request cannot be written: %v", err)
			}
			if vs := d.Media.Schema.ValidateRequest(d.Body); len(vs) > 0 {
				t.Errorf("body %s: %v", jsonx.Marshal(d.Body), vs)
			}
		})
	}
}
