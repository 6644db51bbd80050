// Command jsonschemasuite measures how exactly plantmock validates request
// bodies, against the JSON Schema Test Suite
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
package main
