package answer_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// firewallSpec is a document whose answers wrap the resource in an
// envelope ({"firewall": {...}}, and {"firewalls": [...], "meta": ...,
// "links": ...} for the list), whose read requires fields the create
// neither takes nor answers (server-computed: status, created_at,
// fingerprint, events, last_event), and whose events are a
// discriminated union that generation must satisfy: each event is a
// named alternative whose own member narrows the tag the discriminator
// would name otherwise.
var firewallSpec = specFile("firewall.yaml")

// objectOf returns the JSON object an answer with status holds, in JSON.
func objectOf(t *testing.T, r reply, status int) map[string]any {
	t.Helper()
	if r.status != status || r.ct != "application/json" {
		t.Fatalf("answer %d %s %s, want %d in application/json", r.status, r.ct, r.body, status)
	}
	v, err := jsonx.Decode([]byte(r.body))
	obj, _ := v.(map[string]any)
	if err != nil || obj == nil {
		t.Fatalf("body %s is not a JSON object: %v", r.body, err)
	}
	return obj
}

// firewallOf returns the firewall an answer wraps.
func firewallOf(t *testing.T, r reply, status int) map[string]any {
	t.Helper()
	a := objectOf(t, r, status)
	fw, ok := a["firewall"].(map[string]any)
	if !ok || len(a) != 1 {
		t.Fatalf("answer %s is not {\"firewall\": {...}}", r.body)
	}
	return fw
}

// TestStatefulEnvelopes creates, reads and lists firewalls: every answer
// is declared and conforms, the fields the read requires are made once
// at create and read back the same every time, and the list pages as
// its parameters and envelope say.
func TestStatefulEnvelopes(t *testing.T) {
	m := newMock(t, firewallSpec)
	m.a.Seed = 7
	bodies := []string{
		`{"name":"edge","rules":[{"kind":"in","ports":"22"},{"kind":"out","ports":"all"}]}`,
		`{"name":"core","rules":[]}`,
		`{"name":"dmz","rules":[{"kind":"in","ports":"443"}]}`,
	}
	created := make([]map[string]any, len(bodies))
	for i, b := range bodies {
		fw := firewallOf(t, m.do("POST", "/firewalls", b), 201)
		sent, _ := jsonx.Decode([]byte(b))
		if want := json.Number(strconv.Itoa(i + 1)); fw["id"] != want || fw["name"] != sent.(map[string]any)["name"] || len(fw) != 3 {
			t.Errorf("create %d answered %s, want id %s, the name sent and a status", i+1, jsonx.Marshal(fw), want)
		}
		created[i] = fw
	}
	reads := make([]map[string]any, len(bodies))
	var stored []any
	if err := json.Unmarshal([]byte(m.stored("/firewalls")), &stored); err != nil {
		t.Fatal(err)
	}
	for i := range bodies {
		path := "/firewalls/" + strconv.Itoa(i+1)
		first := firewallOf(t, m.do("GET", path, ""), 200)
		again := firewallOf(t, m.do("GET", path, ""), 200)
		if !reflect.DeepEqual(first, again) {
			t.Errorf("GET %s answered %s, then %s", path, jsonx.Marshal(first), jsonx.Marshal(again))
		}
		sent, _ := jsonx.Decode([]byte(bodies[i]))
		for k, v := range sent.(map[string]any) {
			if !reflect.DeepEqual(first[k], v) {
				t.Errorf("GET %s: %s = %s, want %s as created", path, k, jsonx.Marshal(first[k]), jsonx.Marshal(v))
			}
		}
		for _, k := range []string{"id", "status"} {
			if first[k] != created[i][k] {
				t.Errorf("GET %s: %s = %v, but the create answered %v", path, k, first[k], created[i][k])
			}
		}
		if string(jsonx.Marshal(stored[i])) != string(jsonx.Marshal(first)) {
			t.Errorf("GET %s answered %s, but the store holds %s", path, jsonx.Marshal(first), jsonx.Marshal(stored[i]))
		}
		reads[i] = first
	}
	base := "http://example.com/firewalls"
	tests := []struct {
		name  string
		query string
		items []int          // the reads the page holds, by index
		links map[string]any // nil: none
	}{
		{name: "the default page size", query: "", items: []int{0, 1, 2}},
		{name: "a first page", query: "?per_page=2", items: []int{0, 1},
			links: map[string]any{"next": base + "?page=2&per_page=2"}},
		{name: "the last page", query: "?per_page=2&page=2", items: []int{2}},
		{name: "a page past the end", query: "?per_page=2&page=3", items: []int{}},
		{name: "pages of one", query: "?page=2&per_page=1", items: []int{1},
			links: map[string]any{"next": base + "?page=3&per_page=1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := objectOf(t, m.do("GET", "/firewalls"+tt.query, ""), 200)
			items := []any{}
			for _, i := range tt.items {
				items = append(items, reads[i])
			}
			want := map[string]any{"firewalls": items, "meta": map[string]any{"total": json.Number("3")}}
			if tt.links != nil {
				want["links"] = tt.links
			} else if l, ok := got["links"].(map[string]any); ok {
				if _, has := l["next"]; has {
					t.Errorf("links.next = %v on the last page", l["next"])
				}
				want["links"] = l // made up: optional, without next
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("list%s = %s\nwant %s", tt.query, jsonx.Marshal(got), jsonx.Marshal(want))
			}
		})
	}
}

// TestEnvelopeOf holds how envelopes are recognised from the schemas.
func TestEnvelopeOf(t *testing.T) {
	doc, err := openapi.Load([]byte(`openapi: 3.1.0
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    R: {type: object, required: [name], properties: {id: {type: integer}, name: {type: string}}}
    Flat: {type: object, properties: {id: {type: integer}, name: {type: string}, created: {type: string}}}
    ByRef: {type: object, required: [firewall], properties: {firewall: {$ref: '#/components/schemas/R'}}}
    Inline: {type: object, properties: {data: {type: object, properties: {name: {type: string}, extra: {type: string}}}}}
    NotIt: {type: object, properties: {config: {type: object, properties: {depth: {type: integer}}}}}
    Two: {type: object, properties: {old: {$ref: '#/components/schemas/R'}, new: {$ref: '#/components/schemas/R'}}}
    TwoOneRequired: {type: object, required: [new], properties: {old: {$ref: '#/components/schemas/R'}, new: {$ref: '#/components/schemas/R'}}}
    Summary: {type: object, required: [summary], properties: {summary: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}
    Array: {type: array, items: {$ref: '#/components/schemas/R'}}
    ListEnv: {type: object, required: [data], properties: {data: {type: array, items: {$ref: '#/components/schemas/R'}}, meta: {type: object, properties: {total_count: {type: integer}, next_cursor: {type: string}}}, has_more: {type: boolean}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	r := doc.Schemas["R"]
	tests := []struct {
		name     string
		answer   string
		resource *openapi.Schema
		list     bool
		prop     string // "" for none
		meta     []string
	}{
		{name: "the resource itself", answer: "R", resource: r},
		{name: "a flat object holding the resource's fields", answer: "Flat", resource: r},
		{name: "a $ref to the resource under one property", answer: "ByRef", resource: r, prop: "firewall"},
		{name: "an inline object with the resource's fields", answer: "Inline", resource: r, prop: "data"},
		{name: "an object that holds something else", answer: "NotIt", resource: r},
		{name: "two properties that hold it", answer: "Two", resource: r},
		{name: "two properties, one required", answer: "TwoOneRequired", resource: r, prop: "new"},
		{name: "a summary of the resource under the one required property", answer: "Summary", resource: r, prop: "summary"},
		{name: "no resource schema", answer: "ByRef", resource: nil},
		{name: "a plain list", answer: "Array", resource: r, list: true},
		{name: "a list envelope", answer: "ListEnv", resource: r, list: true, prop: "data",
			meta: []string{"meta.total_count", "meta.next_cursor", ".has_more"}},
		{name: "a list envelope for one", answer: "ListEnv", resource: r},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := answer.EnvelopeOf(doc.Schemas[tt.answer], tt.resource, tt.list)
			switch {
			case tt.prop == "" && e != nil:
				t.Fatalf("envelope under %q, want none", e.Prop)
			case tt.prop == "":
				return
			case e == nil:
				t.Fatalf("no envelope, want one under %q", tt.prop)
			case e.Prop != tt.prop:
				t.Fatalf("envelope under %q, want %q", e.Prop, tt.prop)
			}
			var meta []string
			for _, f := range e.Meta {
				meta = append(meta, f.Parent+"."+f.Name)
			}
			if !reflect.DeepEqual(meta, tt.meta) {
				t.Errorf("meta fields %v, want %v", meta, tt.meta)
			}
		})
	}
}

// conflictSpec is GitHub's POST /gists in small: the create answers with
// an owner that is a string, the read requires one that is an object. No
// stored value fits both.
const conflictSpec = `openapi: 3.1.0
info: {title: conflict, version: "1"}
paths:
  /gists:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}
      responses:
        "201":
          description: created
          content: {application/json: {schema: {type: object, required: [id, name, owner], properties: {id: {type: integer}, name: {type: string}, owner: {type: [string, "null"]}}}}}
  /gists/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: read
          content: {application/json: {schema: {type: object, required: [id, name, owner], properties: {id: {type: integer}, name: {type: string}, owner: {type: object, required: [login], properties: {login: {type: string}}}}}}}
`

// TestCompleteKeepsOwnAnswer: a create whose read requires a field its
// own answer cannot hold in that shape answers as it declares (it
// answered 500, "the resource does not fit the declared response
// schema: owner: expected null or string, got object"), and the read
// answers as it declares too, with the owner it lacks made up and the
// rest as stored.
func TestCompleteKeepsOwnAnswer(t *testing.T) {
	m := newMock(t, conflictSpec)
	for i := range 3 {
		r := m.do("POST", "/gists", `{"name":"a"}`)
		if len(r.notes) > 0 {
			t.Errorf("create %d noted %q, want nothing: its answer is as stored", i, r.notes)
		}
		got := objectOf(t, r, 201)
		if _, isString := got["owner"].(string); !isString && got["owner"] != nil {
			t.Errorf("create %d: owner %v, want a string or null", i, got["owner"])
		}
		id := fmt.Sprint(got["id"])
		read := objectOf(t, m.do("GET", "/gists/"+id, ""), 200)
		if owner, ok := read["owner"].(map[string]any); !ok || owner["login"] == nil || read["name"] != "a" || fmt.Sprint(read["id"]) != id {
			t.Errorf("read %s: %s, want the stored id and name and an owner object", id, jsonx.Marshal(read))
		}
	}
}
