package mock

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
)

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

// uuidRE matches a UUID in its canonical text form.
const uuidRE = `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`

// TestRequestIDPerAnswer: a required X-Request-Id is a fresh UUID on every
// answer.
func TestRequestIDPerAnswer(t *testing.T) {
	_, ts := newTestServer(t, Options{Spec: []byte(authorsSpec)})
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		_, resp, got := send(t, ts, call{method: "POST", path: "/authors", header: map[string]string{"Content-Type": "application/json"}, body: `{"name":"Ann","bio":"b","password":"p"}`})
		id := resp.Header.Get("X-Request-Id")
		if resp.StatusCode != 201 || !regexp.MustCompile(uuidRE).MatchString(id) || seen[id] {
			t.Errorf("create %d: status %d, X-Request-Id %q (seen before: %v), want 201 with a fresh UUID: %s", i, resp.StatusCode, id, seen[id], got)
		}
		seen[id] = true
	}
}

// petShop is a small store in the manner of the Swagger Petstore: a pet's
// integer id is optional in the create body, which answers 200 in XML or
// JSON; orders and lots (a number id) count from their id's minimum;
// users have readOnly UUIDs,
// tags string ids; and a note's id is an integer only in an alternative
// (NULLABLE stands for the version's null) and declared without a type in
// the note's read, whose path says integer.
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

// TestReplicasAssignDistinctIdentifiers: replicas sharing Redis take
// integer identifiers from one counter, so creates sent to either, at
// once, never get the same one.
func TestReplicasAssignDistinctIdentifiers(t *testing.T) {
	r := replicas(t, redistest.NewServer(t).URL(0), 2, Options{Spec: []byte(petShopIn("3.1.0"))})
	const n = 20
	got := make([]string, 2*n)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			_, _, body := send(t, r[i%2], call{method: "POST", path: "/orders", header: map[string]string{"Content-Type": "application/json"}, body: `{}`})
			got[i] = string(body)
		})
	}
	wg.Wait()
	var want []string
	for i := range 2 * n {
		want = append(want, fmt.Sprintf(`{"id":%d}`, 1000+i))
	}
	slices.Sort(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the orders created = %s\nwant %s", got, want)
	}
}
