package mock

import (
	"slices"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// contradictionsSpec has a schema of each kind that no value satisfies,
// as public descriptions have them: a uuid pattern beside maxLength 32
// (AppRunner's ServiceId), a pattern whose $ comes before characters it
// requires (IoT Wireless's ServerTrust, its braces escaped), an object
// whose additionalProperties false refuses what its member requires
// (Codat's paged lists), a member whose additionalProperties false
// refuses what the schema it is in requires (Azure Logic's assemblies,
// items of a collection without a create, made up and kept), and an
// object that declares no property and whose every oneOf alternative
// requires one (Jira's workflow conditions).
const contradictionsSpec = `openapi: 3.1.0
info: {title: contradictions, version: '1'}
paths:
  /endpoint:
    get:
      responses:
        '200':
          description: the endpoint
          content: {application/json: {schema: {$ref: '#/components/schemas/Endpoint'}}}
  /transactions:
    get:
      responses:
        '200':
          description: a page of transactions
          content: {application/json: {schema: {$ref: '#/components/schemas/TransactionPage'}}}
  /workflow:
    get:
      responses:
        '200':
          description: a workflow's rules
          content: {application/json: {schema: {$ref: '#/components/schemas/Rules'}}}
  /assemblies/{name}:
    get:
      parameters: [{name: name, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: an assembly
          content: {application/json: {schema: {$ref: '#/components/schemas/Assembly'}}}
components:
  schemas:
    Endpoint:
      type: object
      required: [ServiceId]
      properties:
        ServiceId: {type: string, pattern: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', minLength: 32, maxLength: 32}
        ServerTrust: {type: string, pattern: '[^-A-Za-z0-9+/=]\|=[^=]\|=\{3,\}$\{1,4096\}', minLength: 1, maxLength: 4096}
    Paging:
      type: object
      required: [pageNumber, pageSize]
      properties:
        pageNumber: {type: integer}
        pageSize: {type: integer}
    TransactionPage:
      allOf:
        - {type: object, properties: {results: {type: array, items: {type: string}}}}
        - $ref: '#/components/schemas/Paging'
      additionalProperties: false
    Artifact:
      type: object
      properties: {createdTime: {type: string, format: date-time}}
      additionalProperties: false
    Assembly:
      type: object
      allOf: [$ref: '#/components/schemas/Artifact']
      required: [assemblyName]
      properties:
        assemblyName: {type: string}
    Rules:
      type: object
      required: [conditionsTree]
      properties:
        conditionsTree: {$ref: '#/components/schemas/Condition'}
    Condition:
      type: object
      additionalProperties: false
      discriminator: {propertyName: nodeType}
      oneOf:
        - $ref: '#/components/schemas/SimpleCondition'
        - $ref: '#/components/schemas/CompoundCondition'
    SimpleCondition:
      type: object
      required: [nodeType, type]
      properties: {nodeType: {type: string}, type: {type: string}}
    CompoundCondition:
      type: object
      required: [conditions, nodeType, operator]
      properties:
        conditions: {type: array, items: {$ref: '#/components/schemas/Condition'}}
        nodeType: {type: string}
        operator: {type: string, enum: [AND, OR]}
`

// TestContradictions checks that a schema no value satisfies, where load
// can tell, is a mistake of the document with the keyword at fault left
// out, and that every answer that holds one is then declared: a 2xx
// whose body fits the schema as served (exercise.Check, as the corpus
// probe judges answers), never the 500 or the broken body it was.
func TestContradictions(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(contradictionsSpec)})
	wantMistakes := []string{
		"#/components/schemas/TransactionPage/additionalProperties (line 47): additionalProperties false refuses pageNumber, which the schema requires: no object satisfies the schema, and the keyword is left out of it",
		"#/components/schemas/Artifact/additionalProperties (line 51): additionalProperties false refuses assemblyName, which #/components/schemas/Assembly requires: no object satisfies the schema, and the keyword is left out of it",
		"#/components/schemas/Condition/additionalProperties (line 65): additionalProperties false refuses nodeType, which every alternative of its anyOf or oneOf requires: no object satisfies the schema, and the keyword is left out of it",
		`#/components/schemas/Endpoint/properties/ServiceId/pattern (line 35): pattern: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]...(60 bytes)": no string it matches is at most maxLength 32 characters long (the shortest is 36): the keyword is left out of the schema`,
		`#/components/schemas/Endpoint/properties/ServerTrust/pattern (line 36): pattern: "[^-A-Za-z0-9+/=]\\|=[^=]\\|=\\{3,\\}...(43 bytes)": no string matches it ($, the end of the string, comes before characters it requires, or ^, the start, after them): the keyword is left out of the schema`,
	}
	if got := s.Mistakes(); !slices.Equal(got, wantMistakes) {
		t.Errorf("Mistakes =\n%q\nwant\n%q", got, wantMistakes)
	}
	doc, err := openapi.Load([]byte(contradictionsSpec))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, path, template string
	}{
		{"a pattern longer than maxLength, and one that matches nothing", "/endpoint", "/endpoint"},
		{"a list that refuses its paging fields", "/transactions", "/transactions"},
		{"a tree whose every alternative requires what it refuses", "/workflow", "/workflow"},
		{"a made-up item whose member refuses what it requires", "/assemblies/a1", "/assemblies/{name}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, resp, body := send(t, ts, call{method: "GET", path: tt.path})
			if resp.StatusCode != 200 {
				t.Fatalf("GET %s = %d %s, want 200", tt.path, resp.StatusCode, body)
			}
			i := slices.IndexFunc(doc.Operations, func(o *openapi.Operation) bool { return o.Path == tt.template })
			if i < 0 {
				t.Fatalf("no operation at %s", tt.template)
			}
			op := doc.Operations[i]
			if problems := exercise.Check(doc, op, resp, body); len(problems) > 0 {
				t.Errorf("GET %s = %s: %q", tt.path, body, problems)
			}
		})
	}
}
