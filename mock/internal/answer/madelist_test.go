package answer_test

import (
	"strconv"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// madeListSpec lists events that no operation creates: every answer is
// made up from the schema, with paging fields at the top level and in
// an object, some of which may be empty lists.
const madeListSpec = `openapi: 3.1.0
info: {title: Events, version: 1.0.0}
paths:
  /events:
    get:
      responses:
        '200':
          description: a page
          content:
            application/json:
              schema:
                type: object
                required: [data, has_more, next, total]
                properties:
                  data: {type: array, maxItems: 3, items: {type: object, required: [kind], properties: {kind: {type: string}}}}
                  has_more: {type: boolean}
                  next: {type: [string, 'null'], format: uri}
                  total: {type: integer, minimum: 0}
  /logs:
    get:
      responses:
        '200':
          description: a page
          content:
            application/json:
              schema:
                type: object
                required: [items, meta]
                properties:
                  items: {type: array, maxItems: 2, items: {type: string}}
                  meta: {type: object, required: [hasMore, nextCursor], properties: {hasMore: {type: boolean}, nextCursor: {type: string}}}
`

// TestMadeListAgrees: a list made up from its schema says no page
// follows and counts its own items, whatever the seed; an empty one
// said has_more: true half the time, and an SDK's pager asked for the
// next page for ever.
func TestMadeListAgrees(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			m := newMock(t, madeListSpec)
			m.a.Seed = seed
			r := m.do("GET", "/events", "")
			v, _ := jsonx.Decode([]byte(r.body))
			body, _ := v.(map[string]any)
			items, _ := body["data"].([]any)
			if body["has_more"] != false || body["next"] != nil {
				t.Errorf("has_more %v, next %v, want false and null: %s", body["has_more"], body["next"], r.body)
			}
			if got := jsonx.Marshal(body["total"]); string(got) != strconv.Itoa(len(items)) {
				t.Errorf("total %s, want %d: %s", got, len(items), r.body)
			}
			r = m.do("GET", "/logs", "")
			v, _ = jsonx.Decode([]byte(r.body))
			meta, _ := v.(map[string]any)["meta"].(map[string]any)
			if meta["hasMore"] != false {
				t.Errorf("hasMore %v, want false: %s", meta["hasMore"], r.body)
			}
		})
	}
}
