// Package mock is the plantmock engine: an http.Handler that serves an
// OpenAPI 3.0 or 3.1 document as a stateful mock.
//
// Every request is routed, authenticated and validated against the
// document, in that order. Valid requests get answers that conform to it:
//
//   - POST to a collection path (/plants) creates: the body is stored under
//     its identifier and echoed, projected onto the declared response schema.
//   - GET on the collection lists, and GET, PUT, PATCH and DELETE on
//     /collection/{id} read, replace, merge and delete, where declared.
//   - Any other operation answers with the spec's example, or with data
//     generated from the response schema (deterministic for a seed).
//
// Invalid requests get the operation's declared error status with a body
// shaped by its declared error schema; see Code for the error values.
//
// Scenarios (see Scenario) script answers for valid requests: a status, a
// body, headers, a delay or a fault, for requests that match an operation,
// headers, a token or a subset of the body. Strings in a scripted body and
// headers are text/template templates over .body (the request JSON),
// .headers (first value per canonical name), .token, .seq (the 1-based
// count of requests the rule has answered) and the function fake, which
// calls a gofakeit function by name ({{ fake "firstname" }}). A string that
// is a single action whose output reads as a JSON number, true, false or
// null takes that JSON type. Scripted answers are checked against the
// document like any other.
//
// Every exchange is recorded in a bounded journal (see Entry and Match).
// Requests with an X-Mock-Session header get their own store, journal,
// rule counters and active scenario. The admin API under /__admin/ (see
// Server.Admin) inspects and drives a running mock.
//
// A Server is safe for concurrent use; two Servers share nothing.
package mock
