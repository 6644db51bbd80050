package answer_test

import "testing"

// pagedSpec pages a list by cursor, in an envelope that tells whether
// more follow and where, and another by limit and offset, as a plain
// array.
const pagedSpec = `openapi: 3.1.0
info: {title: Notes, version: 1.0.0}
paths:
  /notes:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
    get:
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 0}}
        - {name: starting_cursor, in: query, schema: {type: string}}
        - {name: cursor, in: query, schema: {type: string}}
      responses:
        '200':
          description: a page
          content:
            application/json:
              schema:
                type: object
                required: [data, has_more, next_cursor]
                properties:
                  data: {type: array, items: {$ref: '#/components/schemas/Note'}}
                  has_more: {type: boolean}
                  next_cursor: {type: [string, 'null']}
  /tags:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
    get:
      parameters:
        - {name: pageSize, in: query, schema: {type: integer, minimum: 1, default: 2}}
        - {name: skip, in: query, schema: {type: integer, minimum: 0}}
      responses:
        '200': {description: a page, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Note'}}}}}
components:
  schemas:
    Note:
      type: object
      required: [text]
      properties: {id: {type: integer, readOnly: true}, text: {type: string}}
      additionalProperties: false
`

// TestListPaging lists pages of notes by cursor, and of tags by size and
// offset, with the exact bodies the document's parameters and envelope
// call for.
func TestListPaging(t *testing.T) {
	m := newMock(t, pagedSpec)
	for _, col := range []string{"notes", "tags"} {
		for _, text := range []string{"a", "b", "c"} {
			if r := m.do("POST", "/"+col, `{"text":"`+text+`"}`); r.status != 201 {
				t.Fatalf("create in %s: %d %s", col, r.status, r.body)
			}
		}
	}
	const a, b, c = `{"id":1,"text":"a"}`, `{"id":2,"text":"b"}`, `{"id":3,"text":"c"}`
	tests := []struct {
		name, path, body string
	}{
		{name: "every note", path: "/notes",
			body: `{"data":[` + a + `,` + b + `,` + c + `],"has_more":false,"next_cursor":null}`},
		{name: "a first page by limit", path: "/notes?limit=2",
			body: `{"data":[` + a + `,` + b + `],"has_more":true,"next_cursor":"2"}`},
		{name: "the page at a cursor the mock gave", path: "/notes?limit=2&cursor=2",
			body: `{"data":[` + c + `],"has_more":false,"next_cursor":null}`},
		{name: "a cursor the mock did not give", path: "/notes?limit=1&cursor=zz",
			body: `{"data":[` + a + `],"has_more":true,"next_cursor":"1"}`},
		{name: "an empty page", path: "/notes?limit=0",
			body: `{"data":[],"has_more":true,"next_cursor":"0"}`},
		{name: "the default page size", path: "/tags", body: `[` + a + `,` + b + `]`},
		{name: "an offset", path: "/tags?skip=1&pageSize=5", body: `[` + b + `,` + c + `]`},
		{name: "an offset past the end", path: "/tags?skip=9", body: `[]`},
		{name: "an offset and size past any int", path: "/tags?skip=9223372036854775807&pageSize=9223372036854775807", body: `[]`},
		{name: "a cursor past any int", path: "/notes?limit=9223372036854775807&cursor=9223372036854775807",
			body: `{"data":[],"has_more":false,"next_cursor":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { m.do("GET", tt.path, "").want(t, 200, tt.body) })
	}
}

// TestListPagingLinks: a list paged by page number, in an envelope with
// a total and the next page's URL, which names the page after and keeps
// the request's query; the last page has no next.
func TestListPagingLinks(t *testing.T) {
	m := newMock(t, `openapi: 3.1.0
info: {title: Notes, version: 1.0.0}
paths:
  /notes:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
    get:
      parameters:
        - {name: page, in: query, schema: {type: integer, minimum: 1}}
        - {name: per_page, in: query, schema: {type: integer, minimum: 1}}
        - {name: q, in: query, schema: {type: string}}
      responses:
        '200':
          description: a page
          content:
            application/json:
              schema:
                type: object
                required: [items, meta]
                properties:
                  items: {type: array, items: {$ref: '#/components/schemas/Note'}}
                  meta:
                    type: object
                    required: [total]
                    properties:
                      total: {type: integer}
                      next: {type: [string, 'null'], format: uri}
components:
  schemas:
    Note:
      type: object
      required: [text]
      properties: {id: {type: integer, readOnly: true}, text: {type: string}}
      additionalProperties: false
`)
	for _, text := range []string{"a", "b", "c"} {
		m.do("POST", "/notes", `{"text":"`+text+`"}`)
	}
	m.do("GET", "/notes?page=1&per_page=2&q=x", "").want(t, 200,
		`{"items":[{"id":1,"text":"a"},{"id":2,"text":"b"}],"meta":{"next":"http://example.com/notes?page=2&per_page=2&q=x","total":3}}`)
	m.do("GET", "/notes?page=2&per_page=2", "").want(t, 200,
		`{"items":[{"id":3,"text":"c"}],"meta":{"next":null,"total":3}}`)
}
