// Package mock serves an OpenAPI 3.0 or 3.1 document as a stateful mock:
// a Server is an http.Handler that checks every request against the
// document and answers as the document says, keeping what clients create.
//
//	srv, err := mock.New(mock.Options{Spec: spec}) // no Spec: the Plant Store
//	if err != nil {
//		return err // a *SpecError or *ScenarioError says what does not fit
//	}
//	defer srv.Close()
//	return srv.Serve(ctx, ln) // until ctx is done, then shuts down gracefully
//
// In a Go test, package mocktest starts one on a loopback listener and
// stops it when the test ends.
//
// # Configuring
//
// Options configure a Server; the zero value serves the embedded Plant
// Store with safe defaults. What is served (Spec, Scenarios, SeedData)
// comes first; the groups Limits, Journal, Store, Proxy, Webhooks and
// Admin hold the rest, each with a useful zero value, and every field's
// comment says its default. Reload serves a new Content (document,
// scenarios, webhook subscribers, seed data) without a restart.
//
// # Answers
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
// # Scenarios
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
// document like any other. ParseScenario and LoadScenarios read them from
// YAML; Server.ScenarioNames lists those loaded.
//
// # Inspecting a running mock
//
// Every exchange is recorded in a bounded journal: Server.Journal and
// Server.Find (see Entry and Match). Server.Resources and Server.Resource
// read the store, SeedData fills it and Reset empties it. Server.Contract
// reports how the exchanges went against the document. Requests with an
// X-Mock-Session header (SessionHeader) get their own store, journal,
// rule counters and active scenario. The admin API under /__admin/ (see
// Server.Admin) does all this over HTTP, for a mock in another process.
//
// A Server is safe for concurrent use; two Servers share nothing.
package mock
