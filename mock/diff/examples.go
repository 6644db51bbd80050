package diff

import (
	"fmt"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// examples compares the examples of what subject names (a media type, a
// parameter, a header or a schema), on side, whose rules start with
// prefix: by name, the example keyword's being "". Every change to one
// is compatible: an example illustrates, it holds no request or answer
// to itself (JSON Schema's examples is an annotation, which does not
// validate; OpenAPI asks an Example Object to fit its schema, not the
// reverse).
func (d *opDiff) examples(side Side, prefix, subject string, olds, news []openapi.Example) {
	const why = "; documentation only, no request or answer is held to it"
	pairsOf(olds, news, func(e *openapi.Example) string { return e.Name }, func(o, n *openapi.Example) {
		switch {
		case o == nil:
			d.add(prefix+"-example-added", Compatible, side, nil, loc(n.Place()), subject+": "+exampleName(n)+" was added"+why)
		case n == nil:
			d.add(prefix+"-example-removed", Compatible, side, loc(o.Place()), nil, subject+": "+exampleName(o)+" was removed"+why)
		case string(jsonx.Marshal(o.Value)) != string(jsonx.Marshal(n.Value)):
			d.add(prefix+"-example-changed", Compatible, side, loc(o.Place()), loc(n.Place()),
				fmt.Sprintf("%s: %s became %s, from %s%s", subject, exampleName(n), jsonx.Marshal(n.Value), jsonx.Marshal(o.Value), why))
		}
	})
}

// exampleName is how reasons name an example: "the example", "example
// short".
func exampleName(e *openapi.Example) string {
	if e.Name == "" {
		return "the example"
	}
	return "example " + e.Name
}
