package verify_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

// TestOnlyRefusalsDeclared: an operation that declares no status under
// 400 (as Swagger's Petstore's PUT /pet declares only 400, 404 and 405)
// can only refuse; a 400 to its valid request is the document's answer,
// not a refusal of valid input.
func TestOnlyRefusalsDeclared(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: Refusals, version: '1'}
paths:
  /pets:
    put:
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '400': {description: invalid id}
        '404': {description: not found}
        '405': {description: validation exception}
  /pets/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '422': {description: cannot be read}
`
	m, err := mock.New(mock.Options{Spec: []byte(spec), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(m)
	defer srv.Close()
	rep, err := verify.Run(context.Background(), []byte(spec), srv.URL, verify.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Failures {
		t.Errorf("%s\n%s", f, f.Curl)
	}
	answered := map[string]int{}
	for _, c := range rep.Checks {
		if c.Kind == "positive" {
			answered[c.Operation] = c.Status
		}
	}
	if answered["PUT /pets"] != 400 || answered["GET /pets/{id}"] != 422 {
		t.Errorf("valid requests answered %v, want 400 and 422, the first declared", answered)
	}
}
