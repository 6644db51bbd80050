package mock

import (
	"strings"
	"testing"
)

// locationSpec declares Location headers with format uri, which a path
// alone does not satisfy: on a create's 201 and on an action's 202.
const locationSpec = `openapi: 3.0.3
info: {title: locations, version: '1'}
paths:
  /jobs:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}
      responses:
        '201':
          description: made
          headers: {Location: {$ref: '#/components/headers/Location'}}
          content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}
  /jobs/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: one, content: {application/json: {schema: {$ref: '#/components/schemas/Job'}}}}
  /jobs/sync:
    post:
      responses:
        '202':
          description: started
          headers: {Location: {$ref: '#/components/headers/Location'}}
components:
  headers:
    Location: {required: true, schema: {type: string, format: uri}}
  schemas:
    Job:
      type: object
      properties: {id: {type: integer, readOnly: true}, name: {type: string}}
`

// TestLocationWithFormatURI: a Location header whose schema has format
// uri names the mock's own host, so that it is the absolute URI the
// document declares (and assertConforms checks it against the schema).
func TestLocationWithFormatURI(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(locationSpec)})
	host := strings.TrimPrefix(ts.URL, "http://")
	for _, tt := range []struct {
		name, path, body string
		status           int
		want             string
		wantHeader       map[string]string
	}{
		{name: "create", path: "/jobs", body: `{"name":"a"}`, status: 201, want: `{"id":1,"name":"a"}`,
			wantHeader: jsonHeader(`{"id":1,"name":"a"}`, "Location", "http://"+host+"/jobs/1")},
		{name: "action", path: "/jobs/sync", status: 202,
			wantHeader: map[string]string{"Content-Length": "0", "Location": "http://" + host + "/jobs/sync"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.body != "" {
				h["Content-Type"] = "application/json"
			}
			check(t, s, ts, call{method: "POST", path: tt.path, header: h, body: tt.body,
				status: tt.status, wantHeader: tt.wantHeader, wantBody: tt.want})
		})
	}
}
