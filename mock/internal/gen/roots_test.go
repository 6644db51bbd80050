package gen

import (
	"slices"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestAnswerRoots: the component schemas by name, then each operation's
// responses' schemas, its default's last.
func TestAnswerRoots(t *testing.T) {
	doc, err := openapi.Load([]byte(`openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /a:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: string}}}}
        default: {description: error, content: {application/json: {schema: {type: integer}}}}
components:
  schemas:
    Zebra: {type: boolean}
    Ant: {type: number}
`))
	if err != nil {
		t.Fatal(err)
	}
	op := doc.Operations[0]
	want := []*openapi.Schema{doc.Schemas["Ant"], doc.Schemas["Zebra"], op.Response(200).Content[0].Schema, op.Default.Content[0].Schema}
	if got := AnswerRoots(doc); !slices.Equal(got, want) || slices.Contains(got, nil) {
		t.Errorf("AnswerRoots gives %v, want %v", got, want)
	}
}
