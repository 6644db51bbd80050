package cases

import (
	"bytes"
	"encoding/json"
)

// Path is the one path of every document; a case is a PUT to it.
//
// PUT on a path that is not an item path (/things/{id}) keeps no state in
// the mock: an accepted body gets the declared 204 and nothing else. A
// POST whose body is an object would create a resource instead, and could
// be refused for reasons of the store (a duplicate identifier).
const Path = "/case"

// Document returns the OpenAPI document for one group: PUT /case with a
// required application/json body whose schema is components/schemas/Case,
// answered by 204. schemas are the component schemas.
func Document(openapi string, schemas map[string]any) []byte {
	return encode(caseDocument(openapi, schemas))
}

// AnswerDocument returns the document of the generation run for one group:
// Document's, with GET /case answered by 200 with an application/json body
// whose schema is components/schemas/Case.
func AnswerDocument(openapi string, schemas map[string]any) []byte {
	doc := caseDocument(openapi, schemas)
	doc["paths"].(map[string]any)[Path].(map[string]any)["get"] = map[string]any{
		"operationId": "answerCase",
		"responses": map[string]any{
			"200": map[string]any{
				"description": "A value of the schema.",
				"content": map[string]any{
					"application/json": map[string]any{
						"schema": map[string]any{"$ref": "#/components/schemas/Case"},
					},
				},
			},
		},
	}
	return encode(doc)
}

// caseDocument is the document of Document, as a JSON value.
func caseDocument(openapi string, schemas map[string]any) map[string]any {
	return map[string]any{
		"openapi": openapi,
		"info":    map[string]any{"title": "JSON Schema Test Suite group", "version": "1"},
		"paths": map[string]any{
			Path: map[string]any{
				"put": map[string]any{
					"operationId": "checkCase",
					"requestBody": map[string]any{
						"required": true,
						"content": map[string]any{
							"application/json": map[string]any{
								"schema": map[string]any{"$ref": "#/components/schemas/Case"},
							},
						},
					},
					"responses": map[string]any{
						"204": map[string]any{"description": "The body matches the schema."},
					},
				},
			},
		},
		"components": map[string]any{"schemas": schemas},
	}
}

// encode writes a document as indented JSON.
func encode(doc map[string]any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		panic("cases: " + err.Error()) // the values come from JSON
	}
	return buf.Bytes()
}

// DecodeJSON decodes raw, keeping numbers as written.
func DecodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
