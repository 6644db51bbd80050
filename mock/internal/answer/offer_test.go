package answer_test

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"testing"
)

// mediaSpec answers in several media types: a greeting in text/plain, a
// pet in JSON or XML (with a 406), a logo in PNG, a report in CSV or,
// for its 201, in HTML with an example and no schema.
const mediaSpec = `openapi: 3.0.3
info: {title: media, version: '1'}
paths:
  /greeting:
    get:
      responses:
        '200':
          description: text only
          content:
            text/plain:
              schema: {type: string, example: hello}
  /pets/{petId}:
    parameters:
      - {name: petId, in: path, required: true, schema: {type: integer}}
    get:
      responses:
        '200':
          description: a pet in XML or JSON
          content:
            application/xml:
              schema: {$ref: '#/components/schemas/Pet'}
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        '406':
          description: not acceptable
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
  /logo:
    get:
      responses:
        '200':
          description: an image
          content:
            image/png:
              schema: {type: string, format: binary}
  /report:
    get:
      responses:
        '200':
          description: csv
          content:
            text/csv:
              schema: {type: string}
        '201':
          description: made
          content:
            text/html:
              example: <p>made</p>
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      xml: {name: pet}
      properties:
        id: {type: integer, example: 7, xml: {attribute: true}}
        name: {type: string, example: Rex}
    Error:
      type: object
      required: [error, message]
      properties:
        error: {type: integer}
        message: {type: string}
`

// TestMediaTypes: every declared media type is served, Accept chooses
// among them, and 406 answers when the operation declares it and nothing
// declared is acceptable.
func TestMediaTypes(t *testing.T) {
	m := newMock(t, mediaSpec)
	pet := `{"id":7,"name":"Rex"}`
	petXML := "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<pet id=\"7\"><name>Rex</name></pet>\n"
	for _, c := range []struct {
		name, path, accept, prefer string
		status                     int
		ct, body                   string
	}{
		{"text/plain from its example", "/greeting", "", "", 200, "text/plain", "hello"},
		{"JSON without Accept", "/pets/7", "", "", 200, "application/json", pet},
		{"XML when asked", "/pets/7", "application/xml", "", 200, "application/xml", petXML},
		{"XML by quality", "/pets/7", "application/json;q=0.5, application/xml", "", 200, "application/xml", petXML},
		{"406 where declared", "/pets/7", "text/csv", "", 406, "application/json",
			`{"error":40600,"message":"Accept: text/csv takes none of the declared media types (application/json, application/xml)"}`},
		{"Accept ignored where 406 is not declared", "/greeting", "application/json", "", 200, "text/plain", "hello"},
		{"Prefer keeps the example of a media type without a schema", "/report", "", "code=201", 201, "text/html", "<p>made</p>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var h []string
			if c.accept != "" {
				h = append(h, "Accept", c.accept)
			}
			if c.prefer != "" {
				h = append(h, "Prefer", c.prefer)
			}
			r := m.do("GET", c.path, "", h...)
			if r.status != c.status || r.ct != c.ct || r.body != c.body {
				t.Errorf("GET %s = %d %s %q\nwant %d %s %q", c.path, r.status, r.ct, r.body, c.status, c.ct, c.body)
			}
		})
	}
	t.Run("XML is well formed", func(t *testing.T) {
		var v struct {
			XMLName xml.Name `xml:"pet"`
			ID      int      `xml:"id,attr"`
			Name    string   `xml:"name"`
		}
		r := m.do("GET", "/pets/7", "", "Accept", "application/xml")
		if err := xml.Unmarshal([]byte(r.body), &v); err != nil || v.ID != 7 || v.Name != "Rex" {
			t.Errorf("XML answer %s reads as %+v, %v", r.body, v, err)
		}
	})
	t.Run("a binary type gets a valid sample", func(t *testing.T) {
		r := m.do("GET", "/logo", "")
		if r.status != 200 || r.ct != "image/png" {
			t.Fatalf("GET /logo = %d %s", r.status, r.ct)
		}
		if _, err := png.Decode(bytes.NewReader([]byte(r.body))); err != nil {
			t.Errorf("the image/png answer is not a PNG: %v", err)
		}
	})
	t.Run("text/csv from a string schema", func(t *testing.T) {
		if r := m.do("GET", "/report", ""); r.status != 200 || r.ct != "text/csv" || r.body == "" {
			t.Errorf("GET /report = %d %q %q, want 200 text/csv with a body", r.status, r.ct, r.body)
		}
	})
}

// TestJSONBeforeAnyRange: a response that declares */* before
// application/json answers a client without a preference in the
// application/json schema, which its Content-Type names.
func TestJSONBeforeAnyRange(t *testing.T) {
	m := newMock(t, `openapi: 3.0.3
info: {title: documents, version: '1'}
paths:
  /documents/{id}/download:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    get:
      responses:
        '200':
          description: the document
          content:
            '*/*':
              schema: {type: object, properties: {File: {type: string, format: binary}}, example: {File: raw}}
            application/json:
              schema: {type: object, properties: {File: {type: object, properties: {Content64Encoded: {type: string}}}}, example: {File: {Content64Encoded: SGk=}}}
`)
	for _, accept := range []string{"", "*/*", "application/json"} {
		t.Run("Accept "+accept, func(t *testing.T) {
			var h []string
			if accept != "" {
				h = []string{"Accept", accept}
			}
			r := m.do("GET", "/documents/d1/download", "", h...)
			if r.ct != "application/json" {
				t.Errorf("Content-Type = %q, want application/json", r.ct)
			}
			r.want(t, 200, `{"File":{"Content64Encoded":"SGk="}}`)
		})
	}
}
