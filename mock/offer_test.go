package mock

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"slices"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/media"
)

// mediaSpec declares answers in several media types.
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
	s, ts := newTestServer(t, Options{Spec: []byte(mediaSpec)})
	pet := `{"id":7,"name":"Rex"}`
	petXML := "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<pet id=\"7\"><name>Rex</name></pet>\n"
	notAcceptable := `{"error":40600,"message":"Accept: text/csv takes none of the declared media types (application/json, application/xml)"}`
	for _, c := range []call{
		{name: "text/plain from its example", method: "GET", path: "/greeting",
			status: 200, wantHeader: map[string]string{"Content-Type": "text/plain", "Content-Length": "5"}, wantBody: "hello"},
		{name: "JSON without Accept", method: "GET", path: "/pets/7",
			status: 200, wantHeader: jsonHeader(pet), wantBody: pet},
		{name: "XML when asked", method: "GET", path: "/pets/7", header: map[string]string{"Accept": "application/xml"},
			status: 200, wantHeader: map[string]string{"Content-Type": "application/xml", "Content-Length": itoa(len(petXML))}, wantBody: petXML},
		{name: "XML by quality", method: "GET", path: "/pets/7", header: map[string]string{"Accept": "application/json;q=0.5, application/xml"},
			status: 200, wantHeader: map[string]string{"Content-Type": "application/xml", "Content-Length": itoa(len(petXML))}, wantBody: petXML},
		{name: "406 where declared", method: "GET", path: "/pets/7", header: map[string]string{"Accept": "text/csv"},
			status: 406, wantHeader: jsonHeader(notAcceptable), wantBody: notAcceptable},
		{name: "Accept ignored where 406 is not declared", method: "GET", path: "/greeting", header: map[string]string{"Accept": "application/json"},
			status: 200, wantHeader: map[string]string{"Content-Type": "text/plain", "Content-Length": "5"}, wantBody: "hello"},
		{name: "Prefer keeps the example of a media type without a schema", method: "GET", path: "/report", header: map[string]string{"Prefer": "code=201"},
			status: 201, wantHeader: map[string]string{"Content-Type": "text/html", "Content-Length": "11"}, wantBody: "<p>made</p>"},
	} {
		t.Run(c.name, func(t *testing.T) { check(t, s, ts, c) })
	}

	t.Run("XML is well formed", func(t *testing.T) {
		var v struct {
			XMLName xml.Name `xml:"pet"`
			ID      int      `xml:"id,attr"`
			Name    string   `xml:"name"`
		}
		_, _, got := send(t, ts, call{method: "GET", path: "/pets/7", header: map[string]string{"Accept": "application/xml"}})
		if err := xml.Unmarshal(got, &v); err != nil || v.ID != 7 || v.Name != "Rex" {
			t.Errorf("XML answer %s reads as %+v, %v", got, v, err)
		}
	})
	t.Run("a binary type gets a valid sample", func(t *testing.T) {
		_, resp, got := send(t, ts, call{method: "GET", path: "/logo"})
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("GET /logo = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if _, err := png.Decode(bytes.NewReader(got)); err != nil {
			t.Errorf("the image/png answer is not a PNG: %v", err)
		}
	})
	t.Run("text/csv from a string schema", func(t *testing.T) {
		_, resp, got := send(t, ts, call{method: "GET", path: "/report"})
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/csv" || len(got) == 0 {
			t.Errorf("GET /report = %d %q %q, want 200 text/csv with a body", resp.StatusCode, resp.Header.Get("Content-Type"), got)
		}
	})
}

// TestJSONBeforeAnyRange: a response that declares */* before
// application/json answers a client without a preference in the
// application/json schema, which its Content-Type names.
func TestJSONBeforeAnyRange(t *testing.T) {
	spec := `openapi: 3.0.3
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
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	want := `{"File":{"Content64Encoded":"SGk="}}`
	for _, accept := range []string{"", "*/*", "application/json"} {
		t.Run("Accept "+accept, func(t *testing.T) {
			h := map[string]string{}
			if accept != "" {
				h["Accept"] = accept
			}
			check(t, s, ts, call{method: "GET", path: "/documents/d1/download", header: h, status: 200, wantHeader: jsonHeader(want), wantBody: want})
		})
	}
}

// TestBareMediaType: a media type declared as a bare token (gzip, as App
// Store Connect's finance reports declare it) is answered with that
// Content-Type, as the document declares it, and a body sampled as
// application/gzip; the start-up warnings name it.
func TestBareMediaType(t *testing.T) {
	spec := `openapi: 3.0.1
info: {title: reports, version: '1'}
paths:
  /reports:
    get:
      responses:
        '200':
          description: a report
          content:
            gzip:
              schema: {type: string, format: binary}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	warning := `#/paths/~1reports/get/responses/200/content/gzip (line 11): "gzip" is no media type (type/subtype, such as application/gzip): it is matched and sent as written`
	if w := s.Warnings(); !slices.Contains(w, warning) {
		t.Errorf("Warnings() = %q, want it to hold %q", w, warning)
	}
	gz := string(media.Sample("application/gzip", nil))
	check(t, s, ts, call{method: "GET", path: "/reports", status: 200,
		wantHeader: map[string]string{"Content-Type": "gzip", "Content-Length": itoa(len(gz))}, wantBody: gz})
}
