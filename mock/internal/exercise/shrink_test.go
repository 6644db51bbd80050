package exercise

import (
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
)

const shrinkSpec = `openapi: 3.0.3
info: {title: shrink, version: '1'}
paths:
  /things/{id}:
    post:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: q, in: query, schema: {type: string, minLength: 2}}
        - {name: X-Trace, in: header, required: true, schema: {type: string, pattern: '^t[0-9]+$'}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name, tags]
              properties:
                name: {type: string, minLength: 1}
                note: {type: string}
                tags: {type: array, minItems: 1, items: {type: string}}
      responses: {'204': {description: ok}}
`

// TestSmaller lists the calls one step smaller than a call, in order:
// every optional part left out, each optional parameter and property
// left out, then each string and array halved, within its bounds and
// its pattern; the path parameter is kept.
func TestSmaller(t *testing.T) {
	doc := load(t, shrinkSpec)
	op := operation(t, doc, "POST /things/{id}")
	c, err := Make(op, 1)
	if err != nil {
		t.Fatal(err)
	}
	c.Values = map[string]any{"path.id": "abcd", "query.q": "hello", "header.X-Trace": "t12"}
	c.Body = map[string]any{"name": "abcdef", "note": "xy", "tags": []any{"a", "b", "c"}}
	before := string(jsonx.Marshal(c.Body))
	var got []string
	for _, d := range c.Smaller() {
		got = append(got, string(jsonx.Marshal(d.Values))+" "+string(jsonx.Marshal(d.Body)))
	}
	const params = `{"header.X-Trace":"t12","path.id":"abcd"`
	want := []string{
		params + `} {"name":"abcdef","tags":["a","b","c"]}`,
		params + `} {"name":"abcdef","note":"xy","tags":["a","b","c"]}`,
		params + `,"query.q":"hello"} {"name":"abcdef","tags":["a","b","c"]}`,
		params + `,"query.q":"he"} {"name":"abcdef","note":"xy","tags":["a","b","c"]}`,
		params + `,"query.q":"hello"} {"name":"abc","note":"xy","tags":["a","b","c"]}`,
		params + `,"query.q":"hello"} {"name":"abcdef","note":"x","tags":["a","b","c"]}`,
		params + `,"query.q":"hello"} {"name":"abcdef","note":"xy","tags":["a"]}`,
		params + `,"query.q":"hello"} {"name":"abcdef","note":"xy","tags":["","b","c"]}`,
		params + `,"query.q":"hello"} {"name":"abcdef","note":"xy","tags":["a","","c"]}`,
		params + `,"query.q":"hello"} {"name":"abcdef","note":"xy","tags":["a","b",""]}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if after := string(jsonx.Marshal(c.Body)); after != before || c.Values["query.q"] != "hello" {
		t.Errorf("the call changed: %s %v", after, c.Values)
	}
}
