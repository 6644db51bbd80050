package answer_test

import (
	"os"
	"regexp"
	"strings"
)

// specFile returns a document of testdata/, which the facade's tests
// read too.
func specFile(name string) string {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// petstoreExpanded is the classic example: a create body without id, and
// answers whose Pet is allOf [NewPet, {required: [id]}].
const petstoreExpanded = `openapi: 3.0.3
info: {title: Petstore Expanded, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200':
          description: pets
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/NewPet'}
      responses:
        '200':
          description: pet response
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        default:
          description: unexpected error
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer, format: int64}}
    get:
      responses:
        '200':
          description: pet response
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        default:
          description: unexpected error
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
    delete:
      responses:
        '204': {description: pet deleted}
        default:
          description: unexpected error
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
components:
  schemas:
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - type: object
          required: [id]
          properties:
            id: {type: integer, format: int64}
    NewPet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        tag: {type: string}
    Error:
      type: object
      required: [code, message]
      properties:
        code: {type: integer, format: int32}
        message: {type: string}
`

// authorsSpec has a readOnly uuid identifier and creation time, both
// required (in answers only), a writeOnly secret at several depths, and a
// 201 whose Location header names the new item.
var authorsSpec = specFile("authors.yaml")

// exampleIDSpec declares identifiers with examples and defaults, which
// must never become identifiers (every create would collide).
const exampleIDSpec = `openapi: 3.0.3
info: {title: examples, version: '1'}
paths:
  /pets:
    post:
      requestBody:
        content:
          application/json: {schema: {$ref: '#/components/schemas/Pet'}}
      responses:
        '200':
          description: made
          content:
            application/json: {schema: {$ref: '#/components/schemas/Pet'}}
        '409':
          description: taken
          content:
            application/json: {schema: {$ref: '#/components/schemas/Error'}}
  /tags:
    post:
      requestBody:
        content:
          application/json: {schema: {$ref: '#/components/schemas/Tag'}}
      responses:
        '201':
          description: made
          content:
            application/json: {schema: {$ref: '#/components/schemas/Tag'}}
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        id: {type: integer, format: int64, example: 40}
        name: {type: string}
    Tag:
      type: object
      required: [id, label]
      properties:
        id: {type: string, pattern: '^t-[a-z]{4}$', readOnly: true, example: t-abcd, default: t-dflt}
        label: {type: string}
    Error:
      type: object
      required: [error, message]
      properties:
        error: {type: integer}
        message: {type: string}
`

// petShop is a small store in the manner of the Swagger Petstore: a pet's
// integer id is optional in the create body, which answers 200 in XML or
// JSON; orders and lots (a number id) count from their id's minimum;
// users have readOnly UUIDs, tags string ids; and a note's id is an
// integer only in an alternative (NULLABLE stands for the version's
// null) and declared without a type in the note's read, whose path says
// integer.
var petShop = specFile("petshop.yaml")

// petShopIn returns petShop as a document of OpenAPI version v.
func petShopIn(v string) string {
	null := `{type: 'null'}`
	if strings.HasPrefix(v, "3.0") {
		null = `{type: integer, nullable: true}`
	}
	return strings.NewReplacer("VERSION", v, "NULLABLE", null).Replace(petShop)
}

// uuidRE matches a UUID in its canonical text form.
var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
