// Package diff compares two versions of an OpenAPI document, 3.0, 3.1 or
// 3.2 in any mix, each read by the loader the mock serves with, and says
// what changed between them for the clients and the providers of the
// API: plantmock diff's engine.
//
// Compare walks the operations of both (matched by method and path
// template, whatever the names of the path parameters), their security,
// parameters, request bodies, responses, response headers, links and
// media types, and the schemas of each, recursively through properties,
// items, additionalProperties, anyOf and oneOf alternatives and allOf
// members (a schema met again is not walked twice); then their
// callbacks and the document's webhooks alike, whose provider sends the
// request and client answers it, so each of their changes breaks the
// other party. Each Change has a stable Rule, a Level, the Side it
// concerns, its operation, and where it is in both documents.
//
// A schema change is judged by the sets of values before and after: a
// request schema that accepts fewer values breaks clients, one that
// accepts more breaks providers (a provider of OLD refuses what NEW
// allows); a response schema that allows more values breaks clients, one
// that allows fewer breaks providers (a provider of OLD may send what
// NEW forbids). A change to an example, of a media type, parameter,
// header or schema, is compatible: it is documentation only.
//
// Report.Weigh joins a report with recorded traffic judged against both
// documents: the exchanges OLD accepted and NEW breaks, each with the
// changes that explain it, and for each change the exchanges that show
// it.
package diff
