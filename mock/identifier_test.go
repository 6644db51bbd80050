package mock

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
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

// TestServerAssignedIntegers: the mock assigns identifiers the create body
// does not carry, counting up per collection, and every later operation
// finds the resource under it.
func TestServerAssignedIntegers(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(petstoreExpanded)})
	rex := `{"id":1,"name":"Rex","tag":"dog"}`
	tom := `{"id":2,"name":"Tom"}`
	ada := `{"id":3,"name":"Ada"}`
	for _, c := range []call{
		{name: "create", method: "POST", path: "/pets", header: jsonHeader(""), body: `{"name":"Rex","tag":"dog"}`,
			status: 200, wantHeader: jsonHeader(rex), wantBody: rex},
		{name: "second create", method: "POST", path: "/pets", header: jsonHeader(""), body: `{"name":"Tom"}`,
			status: 200, wantHeader: jsonHeader(tom), wantBody: tom},
		{name: "list", method: "GET", path: "/pets",
			status: 200, wantHeader: jsonHeader("[" + rex + "," + tom + "]"), wantBody: "[" + rex + "," + tom + "]"},
		{name: "get", method: "GET", path: "/pets/1",
			status: 200, wantHeader: jsonHeader(rex), wantBody: rex},
		{name: "delete", method: "DELETE", path: "/pets/1",
			status: 204, wantHeader: map[string]string{}},
		{name: "get after delete", method: "GET", path: "/pets/1",
			status: 404, wantHeader: jsonHeader(`{"code":40401,"message":"no resource with id 1 in /pets"}`),
			wantBody: `{"code":40401,"message":"no resource with id 1 in /pets"}`},
		{name: "a deleted number is not given again", method: "POST", path: "/pets", header: jsonHeader(""), body: `{"name":"Ada"}`,
			status: 200, wantHeader: jsonHeader(ada), wantBody: ada},
		{name: "list after", method: "GET", path: "/pets",
			status: 200, wantHeader: jsonHeader("[" + tom + "," + ada + "]"), wantBody: "[" + tom + "," + ada + "]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.header = map[string]string{"Content-Type": "application/json"}
			if c.body == "" {
				c.header = nil
			}
			check(t, s, ts, c)
		})
	}
}

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

// TestReadOnlyWriteOnly: required readOnly properties are required in
// answers only and writeOnly ones in requests only; readOnly values a
// client sends are not kept, writeOnly ones are kept but never answered.
func TestReadOnlyWriteOnly(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(authorsSpec), Seed: 7})
	body := `{"id":"00000000-0000-4000-8000-000000000077","createdAt":"1999-01-01T00:00:00Z","name":"Ann","bio":"b",` +
		`"password":"hunter2","cards":[{"number":"4111","cvc":"123"}]}`
	req, resp, got := send(t, ts, call{method: "POST", path: "/authors", header: map[string]string{"Content-Type": "application/json"}, body: body})
	if resp.StatusCode != 201 {
		t.Fatalf("create: status %d, want 201: %s", resp.StatusCode, got)
	}
	assertConforms(t, s, req, resp, got)
	var a map[string]any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatal(err)
	}
	id, _ := a["id"].(string)
	if !regexp.MustCompile(uuidRE).MatchString(id) || strings.HasSuffix(id, "077") {
		t.Errorf("id = %q, want a UUID the mock assigned, not the client's", id)
	}
	if a["createdAt"] == "1999-01-01T00:00:00Z" || a["createdAt"] == nil {
		t.Errorf("createdAt = %v, want one the mock made, not the client's", a["createdAt"])
	}
	if _, ok := a["password"]; ok {
		t.Errorf("the answer holds writeOnly password: %s", got)
	}
	if !strings.Contains(string(got), `"cards":[{"number":"4111"}]`) {
		t.Errorf("the answer's cards = %s, want the number without the writeOnly cvc", got)
	}
	if loc := resp.Header.Get("Location"); loc != "/authors/"+id {
		t.Errorf("Location = %q, want /authors/%s", loc, id)
	}
	// The item is where Location says, and reads the same.
	check(t, s, ts, call{method: "GET", path: "/authors/" + id, status: 200, wantHeader: jsonHeader(string(got)), wantBody: string(got)})
	// What is kept: the writeOnly values, not the client's readOnly ones.
	doc, _ := storedDoc(s, "/authors", id)
	for _, want := range []string{`"password":"hunter2"`, `"cvc":"123"`} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("stored %s, want it to hold %s", doc, want)
		}
	}
	if strings.Contains(string(doc), "1999") || strings.Contains(string(doc), "077") {
		t.Errorf("stored %s, want none of the client's readOnly values", doc)
	}
	notes := s.Journal()[0].Notes
	if want := []string{"ignored readOnly createdAt", "ignored readOnly id"}; strings.Join(notes, "|") != strings.Join(want, "|") {
		t.Errorf("journal notes = %q, want %q", notes, want)
	}

	// A request without the readOnly properties is valid; one without a
	// required writeOnly property is not.
	_, resp, got = send(t, ts, call{method: "POST", path: "/authors", header: map[string]string{"Content-Type": "application/json"}, body: `{"name":"Bo","bio":"x","password":"p"}`})
	if resp.StatusCode != 201 {
		t.Errorf("create without readOnly properties: status %d, want 201: %s", resp.StatusCode, got)
	}
	noPassword := `{"error":40004,"message":"request body does not match the schema: password: required property is missing"}`
	check(t, s, ts, call{method: "POST", path: "/authors", header: map[string]string{"Content-Type": "application/json"}, body: `{"name":"Cy","bio":"x"}`,
		status: 422, wantHeader: jsonHeader(noPassword), wantBody: noPassword})

	// A patch that would break the schema changes nothing.
	noBio := `{"error":40004,"message":"the patched resource does not match the schema: bio: required property is missing"}`
	check(t, s, ts, call{method: "PATCH", path: "/authors/" + id, header: map[string]string{"Content-Type": "application/merge-patch+json"}, body: `{"bio":null}`,
		status: 422, wantHeader: jsonHeader(noBio), wantBody: noBio})
	if after, _ := storedDoc(s, "/authors", id); string(after) != string(doc) {
		t.Errorf("a refused patch changed the store: %s, was %s", after, doc)
	}
}

// TestAssignedUUIDsFollowTheSeed: the same seed gives the same identifiers.
func TestAssignedUUIDsFollowTheSeed(t *testing.T) {
	var ids [2]string
	for i := range ids {
		_, ts := newTestServer(t, Options{Spec: []byte(authorsSpec), Seed: 11})
		_, resp, got := send(t, ts, call{method: "POST", path: "/authors", header: map[string]string{"Content-Type": "application/json"}, body: `{"name":"Ann","bio":"b","password":"p"}`})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create: status %d: %s", resp.StatusCode, got)
		}
		ids[i] = resp.Header.Get("Location")
	}
	if ids[0] != ids[1] || ids[0] == "" {
		t.Errorf("Locations under one seed = %q and %q, want the same", ids[0], ids[1])
	}
}

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

// TestExampleNeverAnIdentifier: creates without an identifier get fresh
// ones, never the schema's example or default.
func TestExampleNeverAnIdentifier(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(exampleIDSpec)})
	h := map[string]string{"Content-Type": "application/json"}
	for i, want := range []string{`{"id":1,"name":"a"}`, `{"id":2,"name":"b"}`} {
		check(t, s, ts, call{method: "POST", path: "/pets", header: h, body: `{"name":"` + string(rune('a'+i)) + `"}`,
			status: 200, wantHeader: jsonHeader(want), wantBody: want})
	}
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		_, resp, got := send(t, ts, call{method: "POST", path: "/tags", header: h, body: `{"label":"x"}`})
		var tag struct{ ID string }
		if err := json.Unmarshal(got, &tag); err != nil || resp.StatusCode != 201 {
			t.Fatalf("create %d = %d %s", i, resp.StatusCode, got)
		}
		if !regexp.MustCompile(`^t-[a-z]{4}$`).MatchString(tag.ID) || tag.ID == "t-abcd" || tag.ID == "t-dflt" || seen[tag.ID] {
			t.Errorf("create %d: id %q, want a fresh one matching the pattern, not the example or default", i, tag.ID)
		}
		seen[tag.ID] = true
	}
}

// unanswerableSpec declares a create whose answer requires a property no
// value satisfies.
const unanswerableSpec = `openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /things:
    post:
      requestBody:
        content:
          application/json: {schema: {type: object, properties: {name: {type: string}}}}
      responses:
        '201':
          description: made
          content:
            application/json:
              schema:
                type: object
                required: [name, stamp]
                properties:
                  name: {type: string}
                  stamp: false
`

// TestWriteThatCannotBeAnsweredStoresNothing: a create whose answer
// cannot fit the document answers why and keeps nothing.
func TestWriteThatCannotBeAnsweredStoresNothing(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(unanswerableSpec)})
	_, resp, got := send(t, ts, call{method: "POST", path: "/things", header: map[string]string{"Content-Type": "application/json"}, body: `{"name":"n"}`})
	if resp.StatusCode != 500 || !strings.Contains(string(got), "does not fit the declared response schema") {
		t.Errorf("create = %d %s, want 500 saying the answer does not fit", resp.StatusCode, got)
	}
	if n := stored(s, "/things"); n != 0 {
		t.Errorf("the store holds %d things, want none", n)
	}
}

// TestIdentifierIsScalar: a property named like the item path parameter
// that holds an object is not the identifier (GitHub's issue assignees).
func TestIdentifierIsScalar(t *testing.T) {
	const spec = `openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /issues/{n}/assignees:
    parameters: [{name: n, in: path, required: true, schema: {type: integer}}]
    post:
      requestBody:
        content:
          application/json: {schema: {type: object, properties: {assignees: {type: array, items: {type: string}}}}}
      responses:
        '201':
          description: the issue
          content:
            application/json:
              schema:
                type: object
                required: [number, assignee]
                properties:
                  number: {type: integer}
                  assignee: {anyOf: [{type: 'null'}, {type: object, properties: {login: {type: string}}}]}
  /issues/{n}/assignees/{assignee}:
    parameters:
      - {name: n, in: path, required: true, schema: {type: integer}}
      - {name: assignee, in: path, required: true, schema: {type: string}}
    get:
      responses:
        '204': {description: may be assigned}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	req, resp, got := send(t, ts, call{method: "POST", path: "/issues/5/assignees", header: map[string]string{"Content-Type": "application/json"}, body: `{"assignees":["ann"]}`})
	if resp.StatusCode != 201 {
		t.Errorf("create = %d %s, want 201", resp.StatusCode, got)
	}
	assertConforms(t, s, req, resp, got)
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

// TestAssignedIdentifiersTakeTheirType: a create without an identifier
// gets one of the identifier property's type and format (an integer
// sequence, from the minimum where there is one; a UUID; a string), in
// OpenAPI 3.0 and 3.1 and with either store; the answer is the declared
// 2xx, and the resource reads back by it. Identifiers the client gives are
// kept, and the sequence goes on above them.
func TestAssignedIdentifiersTakeTheirType(t *testing.T) {
	redis := redistest.NewServer(t)
	for _, v := range []string{"3.0.3", "3.1.0"} {
		for _, st := range []struct{ name, url string }{{"memory", ""}, {"redis", redis.URL(0)}} {
			t.Run(v+"/"+st.name, func(t *testing.T) {
				s, ts := newTestServer(t, Options{Spec: []byte(petShopIn(v)), Store: StoreOptions{URL: st.url}})
				sess := "X-Mock-Session"
				id := strings.NewReplacer(".", "", "/", "").Replace(v + st.name) // a session of its own in the shared Redis
				empty := map[string]string{"Content-Length": "0"}
				for _, c := range []call{
					{name: "pet created without id", method: "POST", path: "/pet", body: `{"name":"Rex","photoUrls":[]}`,
						status: 200, wantBody: `{"id":1,"name":"Rex","photoUrls":[]}`},
					{name: "second pet", method: "POST", path: "/pet", body: `{"name":"Tom","photoUrls":["a"]}`,
						status: 200, wantBody: `{"id":2,"name":"Tom","photoUrls":["a"]}`},
					{name: "pet read by its id", method: "GET", path: "/pet/2",
						status: 200, wantBody: `{"id":2,"name":"Tom","photoUrls":["a"]}`},
					{name: "pet with the client's id", method: "POST", path: "/pet", body: `{"id":77,"name":"Ada","photoUrls":[]}`,
						status: 200, wantBody: `{"id":77,"name":"Ada","photoUrls":[]}`},
					{name: "the sequence goes on above it", method: "POST", path: "/pet", body: `{"name":"Bo","photoUrls":[]}`,
						status: 200, wantBody: `{"id":78,"name":"Bo","photoUrls":[]}`},
					{name: "the client's pet read", method: "GET", path: "/pet/77",
						status: 200, wantBody: `{"id":77,"name":"Ada","photoUrls":[]}`},
					{name: "unknown pet", method: "GET", path: "/pet/3", status: 404, wantHeader: empty},
					{name: "order from the minimum", method: "POST", path: "/orders", body: `{"quantity":2}`,
						status: 201, wantHeader: jsonHeader(`{"id":1000,"quantity":2}`, "Location", "/orders/1000"), wantBody: `{"id":1000,"quantity":2}`},
					{name: "second order", method: "POST", path: "/orders", body: `{}`,
						status: 201, wantHeader: jsonHeader(`{"id":1001}`, "Location", "/orders/1001"), wantBody: `{"id":1001}`},
					{name: "order read", method: "GET", path: "/orders/1000",
						status: 200, wantBody: `{"id":1000,"quantity":2}`},
					{name: "order under the minimum", method: "GET", path: "/orders/1", status: 404, wantHeader: empty},
					{name: "order with the client's id", method: "POST", path: "/orders", body: `{"id":1500}`,
						status: 201, wantHeader: jsonHeader(`{"id":1500}`, "Location", "/orders/1500"), wantBody: `{"id":1500}`},
					{name: "order after it", method: "POST", path: "/orders", body: `{}`,
						status: 201, wantHeader: jsonHeader(`{"id":1501}`, "Location", "/orders/1501"), wantBody: `{"id":1501}`},
					{name: "lot numbered from above its minimum", method: "POST", path: "/lots", body: `{}`,
						status: 201, wantBody: `{"id":100}`},
					{name: "lot read", method: "GET", path: "/lots/100", status: 200, wantBody: `{"id":100}`},
					{name: "tag created without id", method: "POST", path: "/tags", body: `{"name":"red"}`,
						status: 201, wantBody: `{"id":"1","name":"red"}`},
					{name: "tag with the client's id", method: "POST", path: "/tags", body: `{"id":"blue","name":"blue"}`,
						status: 201, wantBody: `{"id":"blue","name":"blue"}`},
					{name: "tag read", method: "GET", path: "/tags/1", status: 200, wantBody: `{"id":"1","name":"red"}`},
					{name: "tag read by the client's id", method: "GET", path: "/tags/blue", status: 200, wantBody: `{"id":"blue","name":"blue"}`},
					{name: "note whose id is an integer alternative", method: "POST", path: "/notes", body: `{"text":"hi"}`,
						status: 201, wantBody: `{"id":1,"text":"hi"}`},
					{name: "note read where the id has no type", method: "GET", path: "/notes/1",
						status: 200, wantBody: `{"id":1,"text":"hi"}`},
				} {
					t.Run(c.name, func(t *testing.T) {
						c.header = map[string]string{sess: id}
						if c.body != "" {
							c.header["Content-Type"] = "application/json"
						}
						if c.wantHeader == nil {
							c.wantHeader = jsonHeader(c.wantBody)
						}
						check(t, s, ts, c)
					})
				}

				// A user's id is a fresh UUID, the one a client sends is not kept.
				var ids []string
				for _, body := range []string{`{"username":"ann"}`, `{"id":"00000000-0000-4000-8000-000000000001","username":"bo"}`} {
					_, resp, got := send(t, ts, call{method: "POST", path: "/users", header: map[string]string{sess: id, "Content-Type": "application/json"}, body: body})
					var u struct{ ID, Username string }
					if err := json.Unmarshal(got, &u); err != nil || resp.StatusCode != 201 {
						t.Fatalf("create user: %d %s", resp.StatusCode, got)
					}
					if !regexp.MustCompile(uuidRE).MatchString(u.ID) || strings.HasSuffix(u.ID, "0001") {
						t.Errorf("user id = %q, want a UUID the mock assigned", u.ID)
					}
					want := `{"id":"` + u.ID + `","username":"` + u.Username + `"}`
					check(t, s, ts, call{method: "GET", path: "/users/" + u.ID, header: map[string]string{sess: id},
						status: 200, wantHeader: jsonHeader(want), wantBody: want})
					ids = append(ids, u.ID)
				}
				if ids[0] == ids[1] {
					t.Errorf("two users got the same id %s", ids[0])
				}
			})
		}
	}
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

// TestSeededIdentifiersFromTheMinimum: seed data with integer identifiers
// above the minimum keeps them, those without get the next, and creates
// go on above the highest.
func TestSeededIdentifiersFromTheMinimum(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(petShopIn("3.1.0")), SeedData: []byte(`{"/orders":[{"id":1005,"quantity":1},{"quantity":2}]}`)})
	for _, c := range []call{
		{name: "seeded order", method: "GET", path: "/orders/1005", status: 200, wantBody: `{"id":1005,"quantity":1}`},
		{name: "seeded order without id", method: "GET", path: "/orders/1006", status: 200, wantBody: `{"id":1006,"quantity":2}`},
		{name: "create after", method: "POST", path: "/orders", header: map[string]string{"Content-Type": "application/json"}, body: `{}`,
			status: 201, wantHeader: jsonHeader(`{"id":1007}`, "Location", "/orders/1007"), wantBody: `{"id":1007}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.wantHeader == nil {
				c.wantHeader = jsonHeader(c.wantBody)
			}
			check(t, s, ts, c)
		})
	}
}

// TestPathValueNoIdentifier checks an item path whose last parameter is a
// string while the item's id is a number: the path value cannot be the
// identifier, so a replace keeps the body's id (no string in a number
// property) and a merge whose body's id differs is not refused.
func TestPathValueNoIdentifier(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /groups/{group}/{member}:
    parameters:
      - {name: group, in: path, required: true, schema: {type: string}}
      - {name: member, in: path, required: true, schema: {type: string}}
    get:
      responses:
        '200': {description: the user, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
        '400': {description: invalid}
    put:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
      responses:
        '200': {description: the user, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
        '400': {description: invalid}
    patch:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
      responses:
        '200': {description: the user, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
        '400': {description: invalid}
components:
  schemas:
    User:
      type: object
      required: [id, name]
      properties:
        id: {type: number}
        name: {type: string}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	j := map[string]string{"Content-Type": "application/json"}
	for _, st := range []call{
		{name: "replace keeps the body's id", method: "PUT", path: "/groups/g/ann", header: j, body: `{"id":12,"name":"Ann"}`,
			status: 200, wantHeader: jsonHeader(`{"id":12,"name":"Ann"}`), wantBody: `{"id":12,"name":"Ann"}`},
		{name: "read returns the replace", method: "GET", path: "/groups/g/ann",
			status: 200, wantHeader: jsonHeader(`{"id":12,"name":"Ann"}`), wantBody: `{"id":12,"name":"Ann"}`},
		{name: "merge with another id is not refused", method: "PATCH", path: "/groups/g/ann", header: j, body: `{"id":13,"name":"Ann B"}`,
			status: 200, wantHeader: jsonHeader(`{"id":13,"name":"Ann B"}`), wantBody: `{"id":13,"name":"Ann B"}`},
	} {
		t.Run(st.name, func(t *testing.T) { check(t, s, ts, st) })
	}
}
