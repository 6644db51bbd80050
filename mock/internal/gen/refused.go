package gen

import (
	"fmt"
	"slices"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Refused returns a line for each object schema of roots, or reached
// from them, that requires a property its own or a member's
// additionalProperties false refuses (Airbyte's AirbyteStream requires
// json_schema and declares jsonSchema): no object satisfies it. The
// generator makes no such item (an array of them is answered shorter,
// empty where it may be); an answer that needs one carries the closest
// object made, as it would without the line, which says so once, at
// load. Lines are in pointer order.
func Refused(roots []*openapi.Schema) []string {
	var lines []string
	reachable(roots, func(s *openapi.Schema) {
		if len(s.Types) > 0 && !slices.Contains(s.Types, "object") {
			return
		}
		w := one(s)
		for p := range w.parts {
			if !p.ClosedOwn() {
				continue
			}
			if name, ok := refusedRequired(p, s.Required); ok {
				lines = append(lines, fmt.Sprintf("%s: no object satisfies the schema: it requires %s, which additionalProperties false at %s refuses; an answer that needs one carries the closest object made, and lists of them are answered without them", s.Where(), name, p.Where()))
				return
			}
		}
	})
	slices.Sort(lines)
	return lines
}
