// Package cases reads the required cases of the JSON Schema Test Suite
// (github.com/json-schema-org/JSON-Schema-Test-Suite) and makes of each
// group an OpenAPI document whose one request body has the group's
// schema: draft 2020-12 groups as OpenAPI 3.1.0 documents, draft 4 groups
// as OpenAPI 3.0.3 documents restricted to what the 3.0 Schema Object
// has. How each dialect's schemas are carried over, and which groups are
// skipped and why, is told in the runner's documentation
// (internal/jsonschemasuite). The runner sends the cases to a mock; the
// fast path's differential test in mock/internal/openapi validates them
// in process.
package cases
