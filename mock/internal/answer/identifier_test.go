package answer_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestServerAssignedIntegers: the mock assigns identifiers the create body
// does not carry, counting up per collection, and every later operation
// finds the resource under it.
func TestServerAssignedIntegers(t *testing.T) {
	m := newMock(t, petstoreExpanded)
	rex, tom, ada := `{"id":1,"name":"Rex","tag":"dog"}`, `{"id":2,"name":"Tom"}`, `{"id":3,"name":"Ada"}`
	m.do("POST", "/pets", `{"name":"Rex","tag":"dog"}`).want(t, 200, rex)
	m.do("POST", "/pets", `{"name":"Tom"}`).want(t, 200, tom)
	m.do("GET", "/pets", "").want(t, 200, "["+rex+","+tom+"]")
	m.do("GET", "/pets/1", "").want(t, 200, rex)
	m.do("DELETE", "/pets/1", "").want(t, 204, "")
	m.do("GET", "/pets/1", "").want(t, 404, `{"code":40401,"message":"no resource with id 1 in /pets"}`)
	m.do("POST", "/pets", `{"name":"Ada"}`).want(t, 200, ada) // a deleted number is not given again
	m.do("GET", "/pets", "").want(t, 200, "["+tom+","+ada+"]")
}

// TestReadOnlyWriteOnly: required readOnly properties are required in
// answers only and writeOnly ones in requests only; readOnly values a
// client sends are not kept, writeOnly ones are kept but never answered;
// a patch that would break the schema changes nothing.
func TestReadOnlyWriteOnly(t *testing.T) {
	m := newMock(t, authorsSpec)
	m.a.Seed = 7
	body := `{"id":"00000000-0000-4000-8000-000000000077","createdAt":"1999-01-01T00:00:00Z","name":"Ann","bio":"b",` +
		`"password":"hunter2","cards":[{"number":"4111","cvc":"123"}]}`
	r := m.do("POST", "/authors", body)
	var a map[string]any
	if err := json.Unmarshal([]byte(r.body), &a); err != nil || r.status != 201 {
		t.Fatalf("create = %d %s", r.status, r.body)
	}
	id, _ := a["id"].(string)
	if !uuidRE.MatchString(id) || strings.HasSuffix(id, "077") {
		t.Errorf("id = %q, want a UUID the mock assigned, not the client's", id)
	}
	want := `{"bio":"b","cards":[{"number":"4111"}],"createdAt":"` + a["createdAt"].(string) + `","id":"` + id + `","name":"Ann"}`
	if r.body != want || a["createdAt"] == "1999-01-01T00:00:00Z" {
		t.Errorf("create = %s\nwant     %s, with a createdAt the mock made", r.body, want)
	}
	if r.location != "/authors/"+id {
		t.Errorf("Location = %q, want /authors/%s", r.location, id)
	}
	if strings.Join(r.notes, "|") != "ignored readOnly createdAt|ignored readOnly id" {
		t.Errorf("notes = %q", r.notes)
	}
	m.do("GET", "/authors/"+id, "").want(t, 200, want)
	doc := m.stored("/authors")
	for _, kept := range []string{`"password":"hunter2"`, `"cvc":"123"`} {
		if !strings.Contains(doc, kept) {
			t.Errorf("stored %s, want it to hold %s", doc, kept)
		}
	}
	if strings.Contains(doc, "1999") || strings.Contains(doc, "077") {
		t.Errorf("stored %s, want none of the client's readOnly values", doc)
	}
	m.send(req{method: "PATCH", target: "/authors/" + id, body: `{"bio":null}`, header: []string{"Content-Type", "application/merge-patch+json"}}).
		want(t, 422, `{"error":40004,"message":"the patched resource does not match the schema: bio: required property is missing"}`)
	if after := m.stored("/authors"); after != doc {
		t.Errorf("a refused patch changed the store: %s, was %s", after, doc)
	}
}

// TestAssignedUUIDsFollowTheSeed: the same seed gives the same identifiers.
func TestAssignedUUIDsFollowTheSeed(t *testing.T) {
	var ids [2]string
	for i := range ids {
		m := newMock(t, authorsSpec)
		m.a.Seed = 11
		ids[i] = m.do("POST", "/authors", `{"name":"Ann","bio":"b","password":"p"}`).location
	}
	if ids[0] != ids[1] || !strings.HasPrefix(ids[0], "/authors/") {
		t.Errorf("Locations under one seed = %q and %q, want the same", ids[0], ids[1])
	}
}

// TestExampleNeverAnIdentifier: creates without an identifier get fresh
// ones, never the schema's example or default.
func TestExampleNeverAnIdentifier(t *testing.T) {
	m := newMock(t, exampleIDSpec)
	m.do("POST", "/pets", `{"name":"a"}`).want(t, 200, `{"id":1,"name":"a"}`)
	m.do("POST", "/pets", `{"name":"b"}`).want(t, 200, `{"id":2,"name":"b"}`)
	m.do("POST", "/pets", `{"id":2,"name":"c"}`).want(t, 409, `{"error":40900,"message":"id 2 already exists in /pets"}`)
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		r := m.do("POST", "/tags", `{"label":"x"}`)
		var tag struct{ ID string }
		if err := json.Unmarshal([]byte(r.body), &tag); err != nil || r.status != 201 {
			t.Fatalf("create %d = %d %s", i, r.status, r.body)
		}
		if tag.ID == "t-abcd" || tag.ID == "t-dflt" || seen[tag.ID] {
			t.Errorf("create %d: id %q, want a fresh one, not the example or default", i, tag.ID)
		}
		seen[tag.ID] = true
	}
}

// TestWriteThatCannotBeAnsweredStoresNothing: a create whose answer
// cannot fit the document answers why and keeps nothing.
func TestWriteThatCannotBeAnsweredStoresNothing(t *testing.T) {
	m := newMock(t, `openapi: 3.1.0
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
`)
	r := m.do("POST", "/things", `{"name":"n"}`)
	if r.status != 500 || !strings.HasPrefix(r.p.Message, "the resource does not fit the declared response schema: ") {
		t.Errorf("create = %d %s, want 500 saying the answer does not fit", r.status, r.body)
	}
	if got := m.stored("/things"); got != "[]" {
		t.Errorf("the store holds %s, want nothing", got)
	}
}

// TestIdentifierIsScalar: a property named like the item path parameter
// that holds an object is not the identifier (GitHub's issue assignees).
func TestIdentifierIsScalar(t *testing.T) {
	m := newMock(t, `openapi: 3.1.0
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
`)
	r := m.do("POST", "/issues/5/assignees", `{"assignees":["ann"]}`)
	if r.status != 201 || r.location != "" {
		t.Errorf("create = %d %s (Location %q), want 201", r.status, r.body, r.location)
	}
	if got := m.stored("/issues/5/assignees"); got != `[{"assignee":{"login":"Gibson1851"},"assignees":["ann"],"number":591}]` {
		t.Errorf("stored %s, want the body completed, under no identifier", got)
	}
}

// TestAssignedIdentifiersTakeTheirType: a create without an identifier
// gets one of the identifier property's type and format (an integer
// sequence, from the minimum where there is one; a UUID; a string), in
// OpenAPI 3.0 and 3.1; the resource reads back by it. Identifiers the
// client gives are kept, and the sequence goes on above them.
func TestAssignedIdentifiersTakeTheirType(t *testing.T) {
	for _, v := range []string{"3.0.3", "3.1.0"} {
		t.Run(v, func(t *testing.T) {
			m := newMock(t, petShopIn(v))
			for _, c := range []struct {
				name, method, path, body string
				status                   int
				want, location           string
			}{
				{"pet created without id", "POST", "/pet", `{"name":"Rex","photoUrls":[]}`, 200, `{"id":1,"name":"Rex","photoUrls":[]}`, ""},
				{"second pet", "POST", "/pet", `{"name":"Tom","photoUrls":["a"]}`, 200, `{"id":2,"name":"Tom","photoUrls":["a"]}`, ""},
				{"pet read by its id", "GET", "/pet/2", "", 200, `{"id":2,"name":"Tom","photoUrls":["a"]}`, ""},
				{"pet with the client's id", "POST", "/pet", `{"id":77,"name":"Ada","photoUrls":[]}`, 200, `{"id":77,"name":"Ada","photoUrls":[]}`, ""},
				{"the sequence goes on above it", "POST", "/pet", `{"name":"Bo","photoUrls":[]}`, 200, `{"id":78,"name":"Bo","photoUrls":[]}`, ""},
				{"the client's pet read", "GET", "/pet/77", "", 200, `{"id":77,"name":"Ada","photoUrls":[]}`, ""},
				{"unknown pet", "GET", "/pet/3", "", 404, `{"error":40401,"message":"no resource with id 3 in /pet"}`, ""},
				{"order from the minimum", "POST", "/orders", `{"quantity":2}`, 201, `{"id":1000,"quantity":2}`, "/orders/1000"},
				{"second order", "POST", "/orders", `{}`, 201, `{"id":1001}`, "/orders/1001"},
				{"order read", "GET", "/orders/1000", "", 200, `{"id":1000,"quantity":2}`, ""},
				{"order under the minimum", "GET", "/orders/1", "", 404, `{"error":40401,"message":"no resource with id 1 in /orders"}`, ""},
				{"order with the client's id", "POST", "/orders", `{"id":1500}`, 201, `{"id":1500}`, "/orders/1500"},
				{"order after it", "POST", "/orders", `{}`, 201, `{"id":1501}`, "/orders/1501"},
				{"lot numbered from above its minimum", "POST", "/lots", `{}`, 201, `{"id":100}`, ""},
				{"lot read", "GET", "/lots/100", "", 200, `{"id":100}`, ""},
				{"tag created without id", "POST", "/tags", `{"name":"red"}`, 201, `{"id":"1","name":"red"}`, ""},
				{"tag with the client's id", "POST", "/tags", `{"id":"blue","name":"blue"}`, 201, `{"id":"blue","name":"blue"}`, ""},
				{"tag read", "GET", "/tags/1", "", 200, `{"id":"1","name":"red"}`, ""},
				{"tag read by the client's id", "GET", "/tags/blue", "", 200, `{"id":"blue","name":"blue"}`, ""},
				{"note whose id is an integer alternative", "POST", "/notes", `{"text":"hi"}`, 201, `{"id":1,"text":"hi"}`, ""},
				{"note read where the id has no type", "GET", "/notes/1", "", 200, `{"id":1,"text":"hi"}`, ""},
			} {
				r := m.do(c.method, c.path, c.body)
				if r.status != c.status || r.body != c.want || r.location != c.location {
					t.Errorf("%s: %d %s (Location %q)\nwant %d %s (Location %q)", c.name, r.status, r.body, r.location, c.status, c.want, c.location)
				}
			}
			// A user's id is a fresh UUID; the one a client sends is not kept.
			var ids []string
			for _, body := range []string{`{"username":"ann"}`, `{"id":"00000000-0000-4000-8000-000000000001","username":"bo"}`} {
				r := m.do("POST", "/users", body)
				var u struct{ ID, Username string }
				if err := json.Unmarshal([]byte(r.body), &u); err != nil || r.status != 201 {
					t.Fatalf("create user: %d %s", r.status, r.body)
				}
				if !uuidRE.MatchString(u.ID) || strings.HasSuffix(u.ID, "0001") {
					t.Errorf("user id = %q, want a UUID the mock assigned", u.ID)
				}
				m.do("GET", "/users/"+u.ID, "").want(t, 200, `{"id":"`+u.ID+`","username":"`+u.Username+`"}`)
				ids = append(ids, u.ID)
			}
			if ids[0] == ids[1] {
				t.Errorf("two users got the same id %s", ids[0])
			}
		})
	}
}

// TestPathValueNoIdentifier checks an item path whose last parameter is a
// string while the item's id is a number: the path value cannot be the
// identifier, so a replace keeps the body's id (no string in a number
// property) and a merge whose body's id differs is not refused.
func TestPathValueNoIdentifier(t *testing.T) {
	m := newMock(t, `openapi: 3.0.3
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
`)
	m.do("PUT", "/groups/g/ann", `{"id":12,"name":"Ann"}`).want(t, 200, `{"id":12,"name":"Ann"}`,
		`made up id "ann": the collection has no create operation`)
	m.do("GET", "/groups/g/ann", "").want(t, 200, `{"id":12,"name":"Ann"}`)
	m.do("PATCH", "/groups/g/ann", `{"id":13,"name":"Ann B"}`).want(t, 200, `{"id":13,"name":"Ann B"}`)
}
