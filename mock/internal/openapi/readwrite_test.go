package openapi

import (
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
)

const readWriteSpec = `openapi: 3.1.0
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Payment:
      type: object
      required: [id, source]
      properties:
        id: {type: string, readOnly: true}
        amount: {type: number}
        source:
          oneOf:
            - type: object
              required: [number]
              properties:
                number: {type: string}
                cvc: {type: string, writeOnly: true}
            - type: object
              required: [iban]
              properties:
                iban: {type: string}
                holder: {type: string, readOnly: true}
        history:
          type: array
          items:
            type: object
            properties:
              at: {type: string, readOnly: true}
              pin: {type: string, writeOnly: true}
`

func TestWithoutReadOnlyWriteOnly(t *testing.T) {
	doc, err := Load([]byte(readWriteSpec))
	if err != nil {
		t.Fatal(err)
	}
	s := doc.Schemas["Payment"]
	in := `{"id":"p1","amount":5,"source":{"number":"4111","cvc":"123","holder":"Ann"},"history":[{"at":"now","pin":"1"},{"pin":"2"}]}`
	v, err := jsonx.Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	got, dropped := s.WithoutReadOnly(v)
	if want := `{"amount":5,"history":[{"pin":"1"},{"pin":"2"}],"source":{"cvc":"123","number":"4111"}}`; string(jsonx.Marshal(got)) != want {
		t.Errorf("WithoutReadOnly = %s\nwant             %s", jsonx.Marshal(got), want)
	}
	if want := []string{"history[0].at", "id", "source.holder"}; !reflect.DeepEqual(dropped, want) {
		t.Errorf("dropped = %q, want %q", dropped, want)
	}
	if want := `{"amount":5,"history":[{"at":"now"},{}],"id":"p1","source":{"holder":"Ann","number":"4111"}}`; string(jsonx.Marshal(s.WithoutWriteOnly(v))) != want {
		t.Errorf("WithoutWriteOnly = %s\nwant              %s", jsonx.Marshal(s.WithoutWriteOnly(v)), want)
	}
	if string(jsonx.Marshal(v)) != `{"amount":5,"history":[{"at":"now","pin":"1"},{"pin":"2"}],"id":"p1","source":{"cvc":"123","holder":"Ann","number":"4111"}}` {
		t.Errorf("the value was changed in place: %s", jsonx.Marshal(v))
	}
	if !s.HasReadOnly() || !s.HasWriteOnly() {
		t.Errorf("HasReadOnly, HasWriteOnly = %v, %v; want both", s.HasReadOnly(), s.HasWriteOnly())
	}
	// Required readOnly properties are required in answers only.
	if vs := s.ValidateRequest(map[string]any{"source": map[string]any{"iban": "x"}}); len(vs) != 0 {
		t.Errorf("a request without the readOnly id: %v, want valid", vs)
	}
	if vs := s.Validate(map[string]any{"source": map[string]any{"iban": "x"}}); len(vs) != 1 || vs[0].Path != "id" {
		t.Errorf("an answer without the readOnly id: %v, want id missing", vs)
	}
}

// TestOnlyReadOnlyRequired: in 3.0 (draft 4, where required may not be
// empty) a schema whose only required property is readOnly validates
// requests without it.
func TestOnlyReadOnlyRequired(t *testing.T) {
	doc, err := Load([]byte(`openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a:
    post:
      requestBody:
        content:
          application/json: {schema: {$ref: '#/components/schemas/A'}}
      responses:
        '201':
          description: made
          content:
            application/json: {schema: {$ref: '#/components/schemas/A'}}
components:
  schemas:
    A:
      type: object
      required: [id]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
`))
	if err != nil {
		t.Fatal(err)
	}
	body := doc.Operations[0].Body.Content[0].Schema
	if vs := body.ValidateRequest(map[string]any{"name": "x"}); len(vs) != 0 {
		t.Errorf("ValidateRequest without the readOnly id = %v, want valid", vs)
	}
	if vs := body.Validate(map[string]any{"name": "x"}); len(vs) != 1 {
		t.Errorf("Validate (an answer) without the readOnly id = %v, want id missing", vs)
	}
}
