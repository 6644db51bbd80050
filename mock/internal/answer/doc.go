// Package answer decides how a valid request is answered as its
// operation behaves. BuildPlans works out, once per document, what each
// operation's answers need: its behaviour (create, list, read, replace,
// merge, remove, or a canned answer), collection, media types and
// envelopes, paging, example and required headers. For one routed,
// checked request, seen as a Turn, an Answerer decides the answer as a
// value, an Outcome, keeping resources in the store and generating what
// the document leaves open. It holds no http.ResponseWriter: the
// pipeline writes what it decides.
package answer
