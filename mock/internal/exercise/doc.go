// Package exercise makes valid requests for the operations of an OpenAPI
// document and checks the answers a mock gives them against the document.
// It is the tooling behind plantmock's promise that a valid request never
// gets a 5xx and that every answer is one the document declares; the probe
// command and the conformance tests use it.
//
// Make builds a Call for an operation: a value for each required
// parameter and for the body, generated from their schemas with package
// gen (reproducibly, from a seed), and credentials for the first security
// requirement that can be met. A test may change the values (the
// identifier a create was given) before Call.Request writes them: path,
// query, header and cookie parameters by their style and explode
// (params.go), bodies by their media type, JSON, form, multipart, text,
// XML or bytes (body.go), credentials by their scheme (credentials.go).
// Call.Request checks what it wrote the way the mock reads it (the
// parameters with the operation's own decoder, form bodies decoded back,
// every value against its schema) so that a request it returns is valid;
// when none can be made it says why with an *Error. Request does both in
// one step and also makes sure the request routes to the operation.
//
// Check lists what is wrong with an answer (check.go): a 5xx, a status the
// operation does not declare, a Content-Type its response does not
// declare, a JSON body that breaks the declared schema, a required header
// that is missing or a header that breaks its schema.
package exercise
