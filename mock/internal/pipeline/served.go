package pipeline

import (
	"log/slog"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/webhook"
)

// Served is what the mock works out from its document and scenarios:
// the operations' plans, the compiled scenarios, the webhooks and
// callbacks. It is read-only once made; a request reads the one current
// when it arrived from start to end (exchange.sv), and Reload swaps in a
// new one whole.
type Served struct {
	Doc *openapi.Document
	// Name names the document in the journal, scenario files and the
	// admin API; Mount is the base path it is mounted at, "" for /;
	// Source is where it was read from (its file), for messages.
	Name, Mount, Source string
	// Digest tells the document's bytes and mount from others' (see
	// Mounts.Digested); Read is set when they were read for this value,
	// not kept from what was served before.
	Digest [32]byte
	Raw    []byte // the document as it was read

	Read          bool
	Plans         answer.Plans
	fallbackShape *problem.ErrorShape // for problems found before routing
	Scenarios     *scenario.Set
	Hooks         webhook.Set      // what it sends (see webhook.NewSet)
	Secrets       *journal.Secrets // where requests carry credentials, masked in the journal
	Log           *slog.Logger     // start-up warnings while it is made
	// over holds the schemas whose smallest value is over the generation
	// budget: answers that need one are refused before anything is made.
	Over gen.Over
}

// Served returns the first document the mock serves now.
func (s *Engine) Served() *Served { return s.Docs.Load().Docs[0] }

// Mounted returns every document the mock serves now.
func (s *Engine) Mounted() *Mounts { return s.Docs.Load() }

// operation finds the operation "METHOD /path/template" names, or nil.
func (sv *Served) operation(name string) *openapi.Operation {
	return scenario.FindOperation(sv.Doc, name)
}

// BuildPlans works out the plan of each operation of the document.
func (sv *Served) BuildPlans() (err error) {
	sv.Plans, sv.fallbackShape, err = answer.BuildPlans(sv.Doc, sv.Mount, sv.Over)
	return err
}

// MisfitsOf lists a collection's resources that do not fit sv, which
// keeps it (the document Mounts.Find gives its name to).
func (sv *Served) MisfitsOf(sess string, col store.Collection) []string {
	return sv.Plans.Misfits(sv.Doc, strings.TrimPrefix(col.Name, sv.Mount), sess, col)
}

// OperationName names op as requests reach it: with the base path the
// document is mounted at in front of its path.
func (sv *Served) OperationName(op *openapi.Operation) string {
	if sv.Mount == "" {
		return op.Name
	}
	return op.Method + " " + sv.Mount + op.Path
}
