package pipeline

import (
	"time"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// exchange is one request and what the mock worked out about it. ServeHTTP
// makes it, each stage of the handler fills in what it finds, and every
// later stage, the answer and the journal read it from here. The answer
// itself is noted by the recorder w.
type exchange struct {
	answer.Turn         // what the answer sees of the request, and what it noted
	Sv          *Served // what the mock served when the request arrived
	W           recorder
	start       time.Time

	// Found by routing.
	route   *openapi.Route // nil when no path matched
	rawVals []string       // the path parameter values as they appear in the path, percent-escaped

	// Found by the checks.
	badSession *problem.Problem // why X-Mock-Session was refused; sess is the default one then
	newSession string           // an X-Mock-Session not alive, made by checkSession; sess is the default one till then
	cred       credentials
	Raw        []byte             // the request body as read
	scenario   *scenario.Compiled // the selected scenario; nil for none

	// Decided by the answer.
	rule    *scenario.Script // the rule that scripted the answer, if any
	seq     int64            // its 1-based count of answers in the session
	problem *problem.Problem // why the request was refused, if it was
	// The flags of the other stages sit here: spread among the
	// pointers, their padding took the exchange from 504 to 528 bytes,
	// past the 512 above which an allocation carries a header of its
	// type. Back at 504, BenchmarkCreateNoToken is where it was before
	// the two fields that crossed the line (2.24 against 2.06 µs, 8
	// alternate runs each, benchstat p=0.96); at 528 it was 2.82 against
	// 2.36 µs (+20%, p<0.001). With the turn it is 512 bytes: keep it
	// there (see preference's field order).
	bodyRead bool // raw holds the whole body: it was read
	proxied  bool // with a proxy: the upstream answered
	recorded bool // the journal has the exchange
	// remote is set when the journal is kept out of the process (in
	// Redis): the answer is then flushed before its entry is written,
	// so that the client does not wait on that round trip (see record).
	remote bool
	// unmounted is set when several documents are mounted and none at a
	// base path the request's path starts with (see mount).
	unmounted bool

	// With a proxy: the ways the exchange broke the document, request
	// side then response side.
	violations []journal.Violation
}

// templateData is what templates see of a request: .body (the decoded
// JSON), .headers (first value per canonical name), .token and .seq.
func (x *exchange) templateData() map[string]any {
	return scenario.TemplateData(x.Body, x.R.Header, x.cred.token, x.seq)
}
