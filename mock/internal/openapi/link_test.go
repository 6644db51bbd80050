package openapi

import (
	"encoding/json"
	"reflect"
	"testing"
)

const linkSpec = `openapi: 3.0.3
info: {title: links, version: '1'}
paths:
  /things:
    post:
      operationId: createThing
      responses:
        '201':
          description: made
          links:
            byId: {operationId: getThing, parameters: {id: '$response.body#/id'}}
            byRef: {operationRef: '#/paths/~1things~1%7Bid%7D/get', parameters: {path.id: 7}}
            shared: {$ref: '#/components/links/Shared'}
            lost: {operationId: nothing}
            broken: {$ref: '#/components/links/Missing'}
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: thing}
components:
  links:
    Shared: {operationRef: 'https://example.com/api.yaml#/paths/~1things~1{id}/get'}
`

// TestLinks: a response's links are read, through $ref, and each leads
// to its operation by operationId or operationRef; a link that names no
// operation leads nowhere, one whose $ref points at nothing is left
// out.
func TestLinks(t *testing.T) {
	doc, err := Load([]byte(linkSpec))
	if err != nil {
		t.Fatal(err)
	}
	var create, read *Operation
	for _, o := range doc.Operations {
		switch o.Name {
		case "POST /things":
			create = o
		case "GET /things/{id}":
			read = o
		}
	}
	links := create.Response(201).Links
	tests := []struct {
		name   string
		params map[string]any
		target *Operation
	}{
		{"byId", map[string]any{"id": "$response.body#/id"}, read},
		{"byRef", map[string]any{"path.id": json.Number("7")}, read},
		{"shared", nil, read},
		{"lost", nil, nil},
	}
	if len(links) != len(tests) {
		t.Fatalf("%d links, want %d: %+v", len(links), len(tests), links)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lk := links[i]
			if lk.Name != tt.name || !reflect.DeepEqual(lk.Parameters, tt.params) {
				t.Errorf("link %+v, want %s with %v", lk, tt.name, tt.params)
			}
			if got := doc.LinkTarget(lk); got != tt.target {
				t.Errorf("target %v, want %v", got, tt.target)
			}
		})
	}
}
