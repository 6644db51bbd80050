// Command jsonschemasuite measures how exactly plantmock validates request
// bodies, and with -generate how often the data it generates is valid,
// against the JSON Schema Test Suite
// (github.com/json-schema-org/JSON-Schema-Test-Suite):
//
//	go run ./internal/jsonschemasuite -suite DIR   # or PLANTMOCK_JSONSCHEMA_SUITE=DIR
//
// Each group of the suite (a schema and the instances tried on it) becomes
// an OpenAPI document with one operation, PUT /case, whose required
// application/json request body has the group's schema, under
// components/schemas/Case, and whose one response is a 204 without
// content. A mock serves the document on a loopback listener and each
// instance is sent to it as a body: a 2xx means plantmock accepted it, a
// 400 or 422 that it refused it. Any other answer is an error. A document
// the mock refuses to load counts every case of its group as a
// disagreement.
//
// Two dialects are run, each on the required cases only (the files
// directly in the dialect's folder, not optional/):
//
// tests/draft2020-12, as OpenAPI 3.1.0. A schema without $id is given
// "$id": "https://plantmock.test/schema/case" (a relative $id is resolved
// against it), so that "#..." references mean the schema itself and not
// the OpenAPI document around it, as they would if the schema were a
// document of its own; an absolute $id is kept. A group is skipped when
// its schema needs a document it does not embed: a $ref or $dynamicRef
// that, resolved against the base URI in force, names no schema resource
// of the schema itself (the suite's remotes, under http://localhost:1234,
// and any other URL), or a $schema other than the 2020-12 meta-schema.
// References to the 2020-12 meta-schemas themselves are kept: a validator
// of the dialect knows them.
//
// tests/draft4, as OpenAPI 3.0.3, restricted to what the OpenAPI 3.0
// Schema Object has. It keeps from draft 4 title, description, format,
// default, multipleOf, maximum, exclusiveMaximum, minimum,
// exclusiveMinimum, maxLength, minLength, pattern, maxItems, minItems,
// uniqueItems, maxProperties, minProperties, required, enum, type (one
// name other than null: 3.0 has nullable instead), allOf, anyOf, oneOf,
// not, items (one schema), properties, additionalProperties and $ref. The
// definitions of the root schema become components (Case_<name>) and every
// "#..." reference is rewritten to the same place under
// components/schemas. A group is skipped when its schema uses anything
// else anywhere: patternProperties, dependencies, additionalItems, id,
// $schema, type null, a type array, an items array, definitions below the
// root, or a reference that is not "#/..." (a remote or an id). $comment,
// which draft 4 does not know, is dropped.
//
// The report gives per dialect the agreement (cases where plantmock did
// what the suite says, of the cases run), the skipped groups and cases by
// reason, then every disagreement and error, one a line:
//
//	draft2020-12/enum.json: empty enum / string is invalid: suite says invalid, plantmock accepted (204)
//
// The deviations table lists the disagreements plantmock keeps on
// purpose, with why. The command exits 0 when every disagreement is
// listed there and every listed one still disagrees, 1 when a
// disagreement is not listed, a listed one is stale or a case got an
// error, and 2 when the suite cannot be read. -v lists every skipped
// group.
//
// With -generate the command measures data generation instead:
//
//	go run ./internal/jsonschemasuite -generate [-seeds 5] [-floor 99] [-v]
//
// Every group the validation run would run whose cases include a valid
// instance (so that some value satisfies its schema) becomes the same
// document with one more operation, GET /case, answered by 200 with an
// application/json body of the group's schema. For each seed 1..N the mock
// is asked for a generated answer (Prefer: dynamic=true, seed=N), which it
// checks against the schema before sending (making up to three values, as
// for every generated answer), and what it sends is PUT back to /case,
// where the same schema checks it as a request body. A seed passes when
// the GET is answered with 200 and the PUT with 204. The report gives per
// dialect and per file the share of schemas for which every seed passed,
// and with -v every failure: file, group, seed and what was wrong. The
// command exits 1 when a dialect's share is under -floor percent.
//
// The check goes through the mock because this command cannot import the
// generator (mock/internal/gen is internal to mock/); TestGenerateSuite
// runs it over the suite named by PLANTMOCK_JSONSCHEMA_SUITE, with the
// floor CI holds it to.
//
// Reading the suite and making each group's document is package cases's
// (internal/jsonschemasuite/cases), which the differential test of the
// request body fast path (TestFastPathSuite in mock/internal/openapi)
// shares.
package main
