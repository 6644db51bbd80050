package mock

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/internal/redistest"
)

// firewallSpec is a document whose answers wrap the resource in an
// envelope ({"firewall": {...}}, and {"firewalls": [...], "meta": ...,
// "links": ...} for the list), whose read requires fields the create
// neither takes nor answers (server-computed: status, created_at,
// fingerprint, events, last_event), and whose events are a
// discriminated union that generation must satisfy: each event is a
// named alternative whose own member narrows the tag the discriminator
// would name otherwise.
const firewallSpec = `openapi: 3.1.0
info: {title: Firewalls, version: 1.0.0}
paths:
  /firewalls:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewFirewall'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Created'}}}}
        '400': {$ref: '#/components/responses/Error'}
    get:
      parameters:
        - {name: per_page, in: query, schema: {type: integer, minimum: 1, maximum: 50, default: 20}}
        - {name: page, in: query, schema: {type: integer, minimum: 1}}
      responses:
        '200': {description: a page, content: {application/json: {schema: {$ref: '#/components/schemas/Page'}}}}
        '400': {$ref: '#/components/responses/Error'}
  /firewalls/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: one, content: {application/json: {schema: {$ref: '#/components/schemas/One'}}}}
        '404': {$ref: '#/components/responses/Error'}
components:
  schemas:
    NewFirewall:
      type: object
      required: [name, rules]
      properties:
        name: {type: string, minLength: 1}
        rules: {type: array, items: {$ref: '#/components/schemas/Rule'}}
      additionalProperties: false
    Summary:
      type: object
      required: [id, name, status]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        status: {type: string, enum: [waiting, succeeded, failed], readOnly: true}
    Firewall:
      type: object
      required: [id, name, rules, status, created_at, fingerprint, events, last_event]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        rules: {type: array, items: {$ref: '#/components/schemas/Rule'}}
        status: {type: string, enum: [waiting, succeeded, failed], readOnly: true}
        created_at: {type: string, format: date-time, readOnly: true}
        fingerprint: {type: string, pattern: '^[0-9a-f]{8}$'}
        events: {type: array, minItems: 2, items: {$ref: '#/components/schemas/Event'}, readOnly: true}
        last_event: {$ref: '#/components/schemas/Closed'}
    Created:
      type: object
      required: [firewall]
      properties: {firewall: {$ref: '#/components/schemas/Summary'}}
    One:
      type: object
      required: [firewall]
      properties: {firewall: {$ref: '#/components/schemas/Firewall'}}
    Page:
      type: object
      required: [firewalls, meta]
      properties:
        firewalls: {type: array, items: {$ref: '#/components/schemas/Firewall'}}
        meta: {type: object, required: [total], properties: {total: {type: integer, minimum: 0}}}
        links: {type: object, properties: {next: {type: string, format: uri}}}
    Rule:
      oneOf: [{$ref: '#/components/schemas/Inbound'}, {$ref: '#/components/schemas/Outbound'}]
      discriminator: {propertyName: kind, mapping: {in: '#/components/schemas/Inbound', out: '#/components/schemas/Outbound'}}
    Inbound:
      type: object
      required: [kind, ports]
      properties: {kind: {const: in}, ports: {type: string}}
      additionalProperties: false
    Outbound:
      type: object
      required: [kind, ports]
      properties: {kind: {const: out}, ports: {type: string}}
      additionalProperties: false
    Event:
      oneOf: [{$ref: '#/components/schemas/Opened'}, {$ref: '#/components/schemas/Closed'}]
    EventBase:
      type: object
      required: [_type, at]
      properties: {_type: {type: string}, at: {type: string, format: date-time}}
      discriminator: {propertyName: _type}
    Opened:
      allOf:
        - {type: object, properties: {_type: {enum: [opened]}}}
        - {$ref: '#/components/schemas/EventBase'}
    Closed:
      allOf:
        - {type: object, required: [reason], properties: {_type: {enum: [closed]}, reason: {type: string}}}
        - {$ref: '#/components/schemas/EventBase'}
    Error:
      type: object
      required: [error, message]
      properties: {error: {type: integer}, message: {type: string}}
  responses:
    Error: {description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
`

// answerOf sends a request, checks its exact status, its Content-Type and
// that the answer conforms to the document, and returns the decoded body.
func answerOf(t *testing.T, s *Server, ts *httptest.Server, method, path, body string, status int) map[string]any {
	t.Helper()
	h := map[string]string{}
	if body != "" {
		h["Content-Type"] = "application/json"
	}
	req, resp, got := send(t, ts, call{method: method, path: path, body: body, header: h})
	if resp.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d (body %s)", method, path, resp.StatusCode, status, got)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", method, path, ct)
	}
	assertConforms(t, s, req, resp, got)
	v, err := jsonx.Decode(got)
	obj, _ := v.(map[string]any)
	if err != nil || obj == nil {
		t.Fatalf("%s %s: body %s is not a JSON object: %v", method, path, got, err)
	}
	return obj
}

// firewallOf returns the firewall an answer wraps.
func firewallOf(t *testing.T, answer map[string]any) map[string]any {
	t.Helper()
	fw, ok := answer["firewall"].(map[string]any)
	if !ok || len(answer) != 1 {
		t.Fatalf("answer %s is not {\"firewall\": {...}}", jsonx.Marshal(answer))
	}
	return fw
}

// TestStatefulEnvelopesReplicas: two mocks sharing Redis answer a read of
// a firewall one of them created with the same server-computed fields,
// stored once, not made again by each.
func TestStatefulEnvelopesReplicas(t *testing.T) {
	url := redistest.NewServer(t).URL(0)
	mocks := make([]*Server, 2)
	servers := make([]*httptest.Server, 2)
	for i := range mocks {
		mocks[i], servers[i] = newTestServer(t, Options{Spec: []byte(firewallSpec), Store: StoreOptions{URL: url}, Seed: int64(i + 1)})
		t.Cleanup(func() { mocks[i].Close() })
	}
	a, b := 0, 1
	created := firewallOf(t, answerOf(t, mocks[a], servers[a], "POST", "/firewalls", `{"name":"edge","rules":[{"kind":"in","ports":"22"}]}`, 201))
	onA := firewallOf(t, answerOf(t, mocks[a], servers[a], "GET", "/firewalls/1", "", 200))
	onB := firewallOf(t, answerOf(t, mocks[b], servers[b], "GET", "/firewalls/1", "", 200))
	if !reflect.DeepEqual(onA, onB) {
		t.Errorf("read on A %s, on B %s", jsonx.Marshal(onA), jsonx.Marshal(onB))
	}
	if onB["status"] != created["status"] || onB["id"] != json.Number("1") {
		t.Errorf("read on B %s, created %s", jsonx.Marshal(onB), jsonx.Marshal(created))
	}
	list := answerOf(t, mocks[b], servers[b], "GET", "/firewalls", "", 200)
	if items, _ := list["firewalls"].([]any); len(items) != 1 || !reflect.DeepEqual(items[0], any(onA)) {
		t.Errorf("list on B %s, want the firewall read on A", jsonx.Marshal(list))
	}
}
