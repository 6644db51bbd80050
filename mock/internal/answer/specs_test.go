package answer_test

import (
	"regexp"
	"strings"
)

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
const authorsSpec = `openapi: 3.1.0
info: {title: Authors, version: '1'}
paths:
  /authors:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Author'}
      responses:
        '201':
          description: created
          headers:
            Location: {schema: {type: string}, required: true}
            X-Request-Id: {schema: {type: string, format: uuid}, required: true}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Author'}
        '422':
          description: invalid
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
  /authors/{authorId}:
    parameters:
      - {name: authorId, in: path, required: true, schema: {type: string, format: uuid}}
    get:
      responses:
        '200':
          description: one
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Author'}
        '404':
          description: none
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
    patch:
      requestBody:
        required: true
        content:
          application/merge-patch+json:
            schema: {type: object}
      responses:
        '200':
          description: patched
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Author'}
        '422':
          description: invalid
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
components:
  schemas:
    Author:
      type: object
      required: [id, name, createdAt, password, bio]
      properties:
        id: {type: string, format: uuid, readOnly: true}
        name: {type: string}
        bio: {type: string}
        createdAt: {type: string, format: date-time, readOnly: true}
        password: {type: string, writeOnly: true}
        cards:
          type: array
          items:
            type: object
            required: [number, cvc]
            properties:
              number: {type: string}
              cvc: {type: string, writeOnly: true}
    Error:
      type: object
      required: [error, message]
      properties:
        error: {type: integer}
        message: {type: string}
`

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
const petShop = `openapi: VERSION
info: {title: Pet Shop, version: '1'}
paths:
  /pet:
    post:
      requestBody:
        required: true
        content:
          application/json: {schema: {$ref: '#/components/schemas/Pet'}}
          application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
      responses:
        '200':
          description: added
          content:
            application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
            application/json: {schema: {$ref: '#/components/schemas/Pet'}}
        '400': {description: invalid input}
  /pet/{petId}:
    get:
      parameters: [{name: petId, in: path, required: true, schema: {type: integer, format: int64}}]
      responses:
        '200':
          description: a pet
          content:
            application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
            application/json: {schema: {$ref: '#/components/schemas/Pet'}}
        '400': {description: invalid id}
        '404': {description: not found}
  /orders:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}
      responses:
        '201':
          description: placed
          headers: {Location: {schema: {type: string}}}
          content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}
  /orders/{orderId}:
    get:
      parameters: [{name: orderId, in: path, required: true, schema: {type: integer, format: int32}}]
      responses:
        '200': {description: an order, content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}
        '404': {description: not found}
  /lots:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Lot'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Lot'}}}}
  /lots/{lotId}:
    get:
      parameters: [{name: lotId, in: path, required: true, schema: {type: number}}]
      responses:
        '200': {description: a lot, content: {application/json: {schema: {$ref: '#/components/schemas/Lot'}}}}
        '404': {description: not found}
  /users:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
  /users/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string, format: uuid}}]
      responses:
        '200': {description: a user, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
        '404': {description: not found}
  /tags:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
  /tags/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: a tag, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
        '404': {description: not found}
  /notes:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
  /notes/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200':
          description: a note
          content:
            application/json:
              schema: {type: object, properties: {id: {description: the note's number}, text: {type: string}}}
        '404': {description: not found}
components:
  schemas:
    Pet:
      type: object
      required: [name, photoUrls]
      properties:
        id: {type: integer, format: int64, example: 10}
        name: {type: string, example: doggie}
        photoUrls: {type: array, items: {type: string}}
        status: {type: string, enum: [available, pending, sold]}
      xml: {name: pet}
    Order:
      type: object
      properties:
        id: {type: integer, format: int32, minimum: 1000, example: 1000}
        quantity: {type: integer, format: int32}
    Lot:
      type: object
      properties:
        id: {type: number, minimum: 99.5}
    User:
      type: object
      properties:
        id: {type: string, format: uuid, readOnly: true}
        username: {type: string}
    Tag:
      type: object
      properties:
        id: {type: string, example: red}
        name: {type: string}
    Note:
      type: object
      properties:
        id: {anyOf: [{type: integer, format: int64}, NULLABLE]}
        text: {type: string}
`

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
