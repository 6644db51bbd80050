package pipeline

import (
	"fmt"
	"log/slog"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// Served is what the mock works out from its document and scenarios:
// the operations' plans, the compiled scenarios, the webhooks and
// callbacks. It is read-only once made; a request reads the one current
// when it arrived from start to end (exchange.sv), and Reload swaps in a
// new one whole.
type Served struct {
	Doc           *openapi.Document
	Plans         Plans
	fallbackShape *problem.ErrorShape // for problems found before routing
	Scenarios     *scenario.Set
	Hooks         hookSet
	Secrets       *journal.Secrets // where requests carry credentials, masked in the journal
	Log           *slog.Logger     // start-up warnings while it is made
	// over holds the schemas whose smallest value is over the generation
	// budget: answers that need one are refused before anything is made.
	Over gen.Over
}

// Served returns what the mock serves now.
func (s *Engine) Served() *Served { return s.Sv.Load() }

// operation finds the operation "METHOD /path/template" names, or nil.
func (sv *Served) operation(name string) *openapi.Operation {
	return scenario.FindOperation(sv.Doc, name)
}

// MisfitsOf lists a collection's resources that do not fit sv.
func (sv *Served) MisfitsOf(sess string, col store.Collection) []string {
	where := col.Name
	if sess != "" {
		where = fmt.Sprintf("%s (session %s)", col.Name, sess)
	}
	route, _, _ := sv.Find(col.Name, "")
	var c *collection
	if route != nil {
		for _, m := range []string{"POST", "GET"} {
			if op := route.Operation(m); op != nil && sv.Plans[op].Col != nil {
				c = sv.Plans[op].Col
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
		if vs := c.schema.Validate(v); len(vs) > 0 {
			out = append(out, fmt.Sprintf("%s: %s: %s", where, c.name(v), vs[0]))
		}
	}
	return out
}
