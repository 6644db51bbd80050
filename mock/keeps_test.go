package mock

import (
	"testing"
)

// keepsSpec has collections whose operations say no in few ways: a
// read that declares 403 but no 404, a create that declares no status
// for a conflict and one that declares only 400, a patch that declares
// no 422 or 400, and a read that declares only 429. Its hooks' create
// schema declares fewer properties than the answers, and its patch
// takes a permission the create does not.
const keepsSpec = `openapi: 3.1.0
info: {title: keeps, version: '1'}
paths:
  /hooks:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/HookIn'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Hook'}}}}
        '422': {$ref: '#/components/responses/Error'}
  /hooks/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: the hook, content: {application/json: {schema: {$ref: '#/components/schemas/Hook'}}}}
        '403': {$ref: '#/components/responses/Error'}
    patch:
      requestBody:
        required: true
        content:
          application/merge-patch+json: {schema: {$ref: '#/components/schemas/HookPatch'}}
          application/json-patch+json:
            schema:
              type: array
              items:
                type: object
                required: [op, path]
                properties:
                  op: {enum: [add, remove, replace, move, copy, test]}
                  path: {type: string}
                  from: {type: string}
                  value: {}
      responses:
        '200': {description: changed, content: {application/json: {schema: {$ref: '#/components/schemas/Hook'}}}}
        '422': {$ref: '#/components/responses/Error'}
    delete:
      responses:
        '204': {description: deleted}
  /tags:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
  /tags/{name}:
    parameters: [{name: name, in: path, required: true, schema: {type: string}}]
    get:
      responses:
        '200': {description: the tag, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
        '404': {$ref: '#/components/responses/Error'}
  /labels:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
        '400': {$ref: '#/components/responses/Error'}
  /labels/{name}:
    parameters: [{name: name, in: path, required: true, schema: {type: string}}]
    get:
      responses:
        '200': {description: the label, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
        '404': {$ref: '#/components/responses/Error'}
  /notes:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
  /notes/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: the note, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
        '404': {$ref: '#/components/responses/Error'}
    patch:
      requestBody:
        required: true
        content:
          application/merge-patch+json:
            schema: {type: object, properties: {text: {type: [string, 'null']}}}
      responses:
        '200': {description: changed, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
  /jobs:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
  /jobs/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: the job, content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
        '429': {$ref: '#/components/responses/Error'}
    delete:
      responses:
        '204': {description: deleted}
  /projects/{p}/users:
    parameters: [{name: p, in: path, required: true, schema: {type: string}}]
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [role]
              properties:
                user_id: {anyOf: [{type: string}, {type: 'null'}]}
                role: {type: string}
      responses:
        '200': {description: added, content: {application/json: {schema: {$ref: '#/components/schemas/ProjectUser'}}}}
  /projects/{p}/users/{user_id}:
    parameters:
      - {name: p, in: path, required: true, schema: {type: string}}
      - {name: user_id, in: path, required: true, schema: {type: string}}
    get:
      responses:
        '200': {description: the user, content: {application/json: {schema: {$ref: '#/components/schemas/ProjectUser'}}}}
        '404': {$ref: '#/components/responses/Error'}
  /uploads:
    post:
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file, purpose]
              properties:
                file: {type: string, format: binary}
                purpose: {type: string, enum: [train, test]}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Upload'}}}}
  /uploads/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: the upload, content: {application/json: {schema: {$ref: '#/components/schemas/Upload'}}}}
        '404': {$ref: '#/components/responses/Error'}
  /centers:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
  /centers/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: the center, content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
        '400': {$ref: '#/components/responses/Error'}
    delete:
      responses:
        '204': {description: deleted}
        '404': {$ref: '#/components/responses/Error'}
  /accounts:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
  /accounts/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: the account, content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
        '404': {$ref: '#/components/responses/Error'}
    patch:
      requestBody: {required: true, content: {application/merge-patch+json: {schema: {$ref: '#/components/schemas/Account'}}}}
      responses:
        '200': {description: changed, content: {application/json: {schema: {$ref: '#/components/schemas/Account'}}}}
        '422': {$ref: '#/components/responses/Error'}
components:
  responses:
    Error:
      description: refused
      content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}
  schemas:
    Error:
      type: object
      required: [message]
      properties: {message: {type: string}}
    HookIn:
      type: object
      additionalProperties: false
      required: [name]
      properties:
        name: {type: string}
        permission: {type: string, enum: [pull, push]}
    HookPatch:
      type: object
      additionalProperties: false
      properties:
        name: {type: [string, 'null']}
        permission: {type: string, enum: [pull, push, admin]}
    Hook:
      type: object
      required: [id, name, kind]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        kind: {const: hook}
        permission: {type: string}
        stamp: {type: string, readOnly: true}
    Tag:
      type: object
      required: [name, color]
      properties:
        name: {type: string}
        color: {type: string}
    Note:
      type: object
      required: [text]
      properties:
        id: {type: integer, readOnly: true}
        text: {type: string}
    Account:
      type: object
      properties:
        id: {type: integer, readOnly: true}
        identification:
          oneOf:
            - {type: object, additionalProperties: false, required: [type, iban], properties: {type: {const: iban}, iban: {type: string}}}
            - {type: object, additionalProperties: false, required: [type, number], properties: {type: {const: us}, number: {type: string}}}
    Upload:
      type: object
      required: [id, purpose]
      properties:
        id: {type: integer, readOnly: true}
        purpose: {type: string}
    ProjectUser:
      type: object
      required: [id, role]
      properties:
        id: {type: string}
        role: {type: string}
    Job:
      type: object
      required: [step]
      properties:
        id: {type: integer, readOnly: true}
        step: {type: integer, enum: [1]}
`

// TestKeepsItsDocument: the mock answers only what its document
// declares and keeps what it stores valid. A PATCH applies its body as
// its media type says: a merge patch (RFC 7396), or a JSON Patch (RFC
// 6902), refused where it cannot be applied or breaks the schema; a
// merge patch that names another alternative of a oneOf replaces the
// object whole. A patch that breaks the
// create schema only where its own schema let it (a property the
// answers add, a permission the create does not take) is applied; one
// that removes a required property is refused with the declared 422,
// or, where the patch declares none, answered with the item unchanged;
// a read after a delete answers the read's 403 where it declares no
// 404; a create that repeats an identifier is refused with the 400 its
// create declares, or, where it declares none, answered as if created
// with the store unchanged; a read after a delete that declares only
// 429 answers with an item made up for that answer alone, and one that
// declares 400 answers 400, also where the delete declared 404. An item a
// project adds by its user_id, which the answer does not hold, is
// answered with that key as its id, also where the user_id is null and
// the mock makes the key. A multipart create is stored as a JSON one is.
func TestKeepsItsDocument(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(keepsSpec), Seed: 1})
	h := map[string]string{"Content-Type": "application/json"}
	mp := map[string]string{"Content-Type": "application/merge-patch+json"}
	jp := map[string]string{"Content-Type": "application/json-patch+json"}
	for _, tt := range []struct {
		call
		note string // the journal's one note, "" for none
	}{
		{call: call{name: "create a hook", method: "POST", path: "/hooks", header: h, body: `{"name":"a"}`,
			status: 201, wantBody: `{"id":1,"kind":"hook","name":"a"}`}},
		{call: call{name: "patch a permission the create does not take", method: "PATCH", path: "/hooks/1", header: mp, body: `{"permission":"admin"}`,
			status: 200, wantBody: `{"id":1,"kind":"hook","name":"a","permission":"admin"}`}},
		{call: call{name: "patch away a required name", method: "PATCH", path: "/hooks/1", header: mp, body: `{"name":null}`,
			status: 422, wantBody: `{"message":"the patched resource does not match the schema: name: required property is missing"}`}},
		{call: call{name: "read the hook as patched", method: "GET", path: "/hooks/1",
			status: 200, wantBody: `{"id":1,"kind":"hook","name":"a","permission":"admin"}`}},
		{call: call{name: "JSON Patch a name", method: "PATCH", path: "/hooks/1", header: jp, body: `[{"op":"test","path":"/name","value":"a"},{"op":"replace","path":"/name","value":"b"}]`,
			status: 200, wantBody: `{"id":1,"kind":"hook","name":"b","permission":"admin"}`}},
		{call: call{name: "JSON Patch of a readOnly stamp", method: "PATCH", path: "/hooks/1", header: jp, body: `[{"op":"add","path":"/stamp","value":"x"}]`,
			status: 200, wantBody: `{"id":1,"kind":"hook","name":"b","permission":"admin"}`},
			note: "ignored readOnly stamp"},
		{call: call{name: "JSON Patch whose test fails", method: "PATCH", path: "/hooks/1", header: jp, body: `[{"op":"test","path":"/name","value":"a"},{"op":"replace","path":"/name","value":"c"}]`,
			status: 422, wantBody: `{"message":"the JSON Patch cannot be applied: a test operation failed"}`}},
		{call: call{name: "JSON Patch of a path to nothing", method: "PATCH", path: "/hooks/1", header: jp, body: `[{"op":"replace","path":"/owner/login","value":"c"}]`,
			status: 422, wantBody: `{"message":"the JSON Patch cannot be applied: a path names nothing in the resource"}`}},
		{call: call{name: "JSON Patch that removes a required name", method: "PATCH", path: "/hooks/1", header: jp, body: `[{"op":"remove","path":"/name"}]`,
			status: 422, wantBody: `{"message":"the patched resource does not match the schema: name: required property is missing"}`}},
		{call: call{name: "JSON Patch that sets a name of the wrong type", method: "PATCH", path: "/hooks/1", header: jp, body: `[{"op":"replace","path":"/name","value":7}]`,
			status: 422, wantBody: `{"message":"the patched resource does not match the schema: name: expected string, got number"}`}},
		{call: call{name: "read the hook as JSON Patched", method: "GET", path: "/hooks/1",
			status: 200, wantBody: `{"id":1,"kind":"hook","name":"b","permission":"admin"}`}},
		{call: call{name: "delete the hook", method: "DELETE", path: "/hooks/1", status: 204}},
		{call: call{name: "read the deleted hook", method: "GET", path: "/hooks/1",
			status: 403, wantBody: `{"message":"no resource with id 1 in /hooks"}`}},
		{call: call{name: "create a tag", method: "POST", path: "/tags", header: h, body: `{"name":"x","color":"red"}`,
			status: 201, wantBody: `{"name":"x","color":"red"}`}},
		{call: call{name: "create the tag again", method: "POST", path: "/tags", header: h, body: `{"name":"x","color":"blue"}`,
			status: 201, wantBody: `{"name":"x","color":"blue"}`},
			note: `answered as if created, storing nothing: name "x" already exists in /tags, and POST /tags declares no answer for a conflict`},
		{call: call{name: "read the tag as first made", method: "GET", path: "/tags/x",
			status: 200, wantBody: `{"name":"x","color":"red"}`}},
		{call: call{name: "create a label", method: "POST", path: "/labels", header: h, body: `{"name":"x","color":"red"}`,
			status: 201, wantBody: `{"name":"x","color":"red"}`}},
		{call: call{name: "create the label again", method: "POST", path: "/labels", header: h, body: `{"name":"x","color":"blue"}`,
			status: 400, wantBody: `{"message":"name \"x\" already exists in /labels"}`}},
		{call: call{name: "create a note", method: "POST", path: "/notes", header: h, body: `{"text":"t"}`,
			status: 201, wantBody: `{"id":1,"text":"t"}`}},
		{call: call{name: "patch away a note's text", method: "PATCH", path: "/notes/1", header: mp, body: `{"text":null}`,
			status: 200, wantBody: `{"id":1,"text":"t"}`},
			note: "answered with id 1 unchanged (the patched resource does not match the schema: text: required property is missing), as PATCH /notes/{id} declares no answer for that"},
		{call: call{name: "read the note unchanged", method: "GET", path: "/notes/1",
			status: 200, wantBody: `{"id":1,"text":"t"}`}},
		{call: call{name: "create a job", method: "POST", path: "/jobs", header: h, body: `{"step":1}`,
			status: 201, wantBody: `{"id":1,"step":1}`}},
		{call: call{name: "delete the job", method: "DELETE", path: "/jobs/1", status: 204}},
		{call: call{name: "read the deleted job", method: "GET", path: "/jobs/1",
			status: 200, wantBody: `{"id":1,"step":1}`},
			note: "made up id 1 for this answer alone: the store does not hold it, and GET /jobs/{id} declares no answer for an unknown item"},
		{call: call{name: "add a user without a user_id", method: "POST", path: "/projects/p/users", header: h, body: `{"user_id":null,"role":"r"}`,
			status: 200, wantBody: `{"id":"1","role":"r"}`}},
		{call: call{name: "read the user by the id answered", method: "GET", path: "/projects/p/users/1",
			status: 200, wantBody: `{"id":"1","role":"r"}`}},
		{call: call{name: "add a user by user_id", method: "POST", path: "/projects/p/users", header: h, body: `{"user_id":"u7","role":"s"}`,
			status: 200, wantBody: `{"id":"u7","role":"s"}`}},
		{call: call{name: "read the user by user_id", method: "GET", path: "/projects/p/users/u7",
			status: 200, wantBody: `{"id":"u7","role":"s"}`}},
		{call: call{name: "create a center", method: "POST", path: "/centers", header: h, body: `{"step":1}`,
			status: 201, wantBody: `{"id":1,"step":1}`}},
		{call: call{name: "delete the center, by a delete that declares 404", method: "DELETE", path: "/centers/1", status: 204}},
		{call: call{name: "read the deleted center, by a read that declares no 404", method: "GET", path: "/centers/1",
			status: 400, wantBody: `{"message":"no resource with id 1 in /centers"}`}},
		{call: call{name: "create an account", method: "POST", path: "/accounts", header: h, body: `{"identification":{"type":"iban","iban":"DE1"}}`,
			status: 201, wantBody: `{"id":1,"identification":{"iban":"DE1","type":"iban"}}`}},
		{call: call{name: "patch the account to another alternative", method: "PATCH", path: "/accounts/1", header: mp, body: `{"identification":{"type":"us","number":"7"}}`,
			status: 200, wantBody: `{"id":1,"identification":{"number":"7","type":"us"}}`},
			note: "replaced identification whole: merged into what was stored, it would not fit the schema"},
		{call: call{name: "read the account as patched", method: "GET", path: "/accounts/1",
			status: 200, wantBody: `{"id":1,"identification":{"number":"7","type":"us"}}`}},
		{call: call{name: "upload a file", method: "POST", path: "/uploads", header: map[string]string{"Content-Type": "multipart/form-data; boundary=b"},
			body:   "--b\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\ntest\r\n--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"t.jsonl\"\r\n\r\n{}\n\r\n--b--\r\n",
			status: 201, wantBody: `{"id":1,"purpose":"test"}`}},
		{call: call{name: "read the upload", method: "GET", path: "/uploads/1",
			status: 200, wantBody: `{"id":1,"purpose":"test"}`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.wantBody != "" {
				tt.wantHeader = jsonHeader(tt.wantBody)
			}
			check(t, s, ts, tt.call)
			entries := s.Journal()
			notes := entries[len(entries)-1].Notes
			if tt.note == "" && len(notes) > 0 || tt.note != "" && (len(notes) != 1 || notes[0] != tt.note) {
				t.Errorf("journal notes = %q, want %q", notes, tt.note)
			}
		})
	}
}
