package gen

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// typical is an answer schema as documents usually write them: an object
// of a few scalar properties with formats and bounds, an array of strings
// and a nested object.
const typical = `openapi: 3.0.3
info: {title: b, version: '1'}
paths:
  /plants/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Plant'}
components:
  schemas:
    Plant:
      type: object
      required: [id, name, createdAt]
      properties:
        id: {type: integer, format: int64, minimum: 1}
        name: {type: string, maxLength: 40}
        tag: {type: string}
        email: {type: string, format: email}
        createdAt: {type: string, format: date-time}
        price: {type: number, minimum: 0, maximum: 500}
        inStock: {type: boolean}
        status: {type: string, enum: [available, pending, sold]}
        tags: {type: array, items: {type: string}, maxItems: 5}
        owner:
          type: object
          required: [id]
          properties:
            id: {type: string, format: uuid}
            name: {type: string}
            nickname: {type: string, nullable: true}
`

func loadBench(b *testing.B, spec string) *openapi.Schema {
	b.Helper()
	doc, err := openapi.Load([]byte(spec))
	if err != nil {
		b.Fatal(err)
	}
	_, r := doc.Operations[0].Success()
	return r.JSON().Schema
}

// BenchmarkValueTypical generates the answer of a typical object schema,
// as the mock does for a canned answer.
func BenchmarkValueTypical(b *testing.B) {
	s := loadBench(b, typical)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Value(s, Faker(1, uint64(i)))
	}
}

// allOfSchema is the Plant Store's NewPlant: an allOf of a component and
// an object that adds a required property.
const allOfSchema = `openapi: 3.1.0
info: {title: b, version: '1'}
paths:
  /plants:
    post:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/NewPlant'}
components:
  schemas:
    Plant:
      type: object
      required: [name]
      properties:
        name: {type: string}
        tag: {type: string}
    NewPlant:
      allOf:
        - $ref: '#/components/schemas/Plant'
        - type: object
          required: [id]
          properties:
            id: {type: integer, format: int64}
`

// BenchmarkValueAllOf generates the answer of an allOf of two objects.
func BenchmarkValueAllOf(b *testing.B) {
	s := loadBench(b, allOfSchema)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Value(s, Faker(1, uint64(i)))
	}
}

// BenchmarkValueEverything generates the answer of the schema of the
// tests, which uses most keywords.
func BenchmarkValueEverything(b *testing.B) {
	s := loadBench(b, spec)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Value(s, Faker(1, uint64(i)))
	}
}
