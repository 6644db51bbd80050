package mock

import (
	"log/slog"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// served is what the mock works out from its document and scenarios:
// the operations' plans, the compiled scenarios, the webhooks and
// callbacks. It is read-only once made; a request reads the one current
// when it arrived from start to end (exchange.sv), and Reload swaps in a
// new one whole.
type served struct {
	doc           *openapi.Document
	plans         map[*openapi.Operation]*plan
	fallbackShape *problem.ErrorShape // for problems found before routing
	scenarios     *scenario.Set
	hooks         hookSet
	secrets       *journal.Secrets // where requests carry credentials, masked in the journal
	log           *slog.Logger     // start-up warnings while it is made
	// over holds the schemas whose smallest value is over the generation
	// budget: answers that need one are refused before anything is made.
	over gen.Over
}

// served returns what the mock serves now.
func (s *Server) served() *served { return s.sv.Load() }

// ScenarioNames returns the names of the loaded scenarios, sorted; none
// when no scenario is loaded.
func (s *Server) ScenarioNames() []string { return s.served().scenarios.Sorted() }

// operation finds the operation "METHOD /path/template" names, or nil.
func (sv *served) operation(name string) *openapi.Operation {
	return scenario.FindOperation(sv.doc, name)
}
