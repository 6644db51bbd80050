package answer

import (
	"fmt"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// Misfits lists a collection's resources that do not fit the plans of
// document d, path being the collection's path within d (its name
// without the base path d is mounted at).
func (plans Plans) Misfits(d *openapi.Document, path, sess string, col store.Collection) []string {
	where := col.Name
	if sess != "" {
		where = fmt.Sprintf("%s (session %s)", col.Name, sess)
	}
	route, _, _ := d.Find(path, "")
	var c *collection
	if route != nil {
		for _, m := range []string{"POST", "GET"} {
			if op := route.Operation(m); op != nil && plans[op].Col != nil {
				c = plans[op].Col
				break
			}
		}
	}
	if c == nil {
		return []string{fmt.Sprintf("%s: %d resource(s) in a collection the document no longer declares", where, len(col.Docs))}
	}
	var out []string
	for _, d := range col.Docs {
		v, err := jsonx.Decode(d)
		if err != nil {
			continue
		}
		if vs := c.Schema.Validate(v); len(vs) > 0 {
			out = append(out, fmt.Sprintf("%s: %s: %s", where, c.name(v), vs[0]))
		}
	}
	return out
}
