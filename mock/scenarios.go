package mock

import (
	"io/fs"

	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// Scenario scripts answers: the first rule that matches a request answers
// it; when none matches, the mock behaves as usual. Scenarios are written
// in YAML (see ParseScenario) or built in Go, and are checked against the
// document when a Server is made.
type Scenario = scenario.Scenario

// Rule is one scripted answer and the requests it applies to.
type Rule = scenario.Rule

// When says which requests a rule applies to. Every condition given must
// hold; an empty When matches every request.
type When = scenario.When

// Respond is a scripted answer. String values, in headers and anywhere in
// the body, are Go templates; see the package documentation.
type Respond = scenario.Respond

// WebhookCall names a webhook of the document a rule sends. In YAML it
// is the webhook's name alone, or an object with name, body and delay.
type WebhookCall = scenario.WebhookCall

// Fault is a way of not answering properly, scripted by a rule's
// respond.fault.
type Fault = scenario.Fault

// The faults a rule can script.
const (
	// FaultConnectionReset closes the connection with a TCP reset, without
	// an answer: the client's read fails with "connection reset by peer".
	FaultConnectionReset = scenario.FaultConnectionReset
	// FaultEmptyResponse closes the connection without an answer: the
	// client reads EOF before a status line.
	FaultEmptyResponse = scenario.FaultEmptyResponse
	// FaultMalformedBody answers with the status and a JSON Content-Type,
	// but a body that is not JSON.
	FaultMalformedBody = scenario.FaultMalformedBody
	// FaultRandomDataThenClose writes bytes that are not HTTP and closes.
	FaultRandomDataThenClose = scenario.FaultRandomDataThenClose
)

// MaxScenarioFile is the largest scenario file LoadScenarios reads.
const MaxScenarioFile = scenario.MaxScenarioFile

// ParseScenario reads one scenario from YAML. Unknown and duplicate keys
// and values of the wrong type are errors, one line each, all of them:
// "file:line: rule N: why" within a rule, "file:line: why" outside. The
// scenario is checked against a document only when given to New.
func ParseScenario(file string, data []byte) (*Scenario, error) {
	return scenario.ParseScenario(file, data)
}

// LoadScenarios parses every *.yaml and *.yml file in dir of fsys, in name
// order. It reports every broken file, not just the first.
func LoadScenarios(fsys fs.FS, dir string) ([]*Scenario, error) {
	return scenario.LoadScenarios(fsys, dir)
}

// ShippedScenarios returns the scenarios that ship with plantmock, written
// for the Plant Store document.
func ShippedScenarios() []*Scenario { return scenario.ShippedScenarios() }
