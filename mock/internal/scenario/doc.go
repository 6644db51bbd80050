// Package scenario is the mock's scripted answers: the scenario format
// (YAML or Go), its check against a document and compiled form, matching
// a request's facts to a rule, body patterns, templates, and the table
// of faults. A compiled rule is plain data: the request path reads what
// it scripts (status, headers and body templates, delay, fault, webhooks)
// and writes the answer; this package writes none.
package scenario
