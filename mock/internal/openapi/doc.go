// Package openapi loads an OpenAPI 3.0, 3.1 or 3.2 document and turns it into the
// types the rest of plantmock works with: operations, a router, schemas that
// validate decoded JSON, and violations.
//
// The document is read into nodes that keep its order and lines (node.go,
// parse.go); operations, parameters and responses are read from them
// (load.go); the Schema model that generation and projection walk is built
// from them once per schema, so recursive schemas point at themselves
// (schema_build.go); and validation compiles the document's own schema
// nodes with the JSON Schema library in the document's dialect, JSON
// Schema 2020-12 for 3.1 and the OAS 3.0 Schema Object for 3.0
// (compile.go, formats.go), its patterns read as ECMA-262 by package
// regex, once for the document, each value's matches bounded
// (patterns.go). Parameters and form and multipart bodies are decoded by
// their style with package wire (wire.go, params.go, form.go).
// A JSON request body may also be read and checked in one pass, by a
// decoder compiled from its schema's compiled form where the schema needs
// nothing more than it checks (fastpath.go, fastdecode.go), which also
// says what is wrong with a body it finds invalid, as the validator would
// (fastexplain.go). Everything is
// built once, at load or on first use; the request path only reads.
package openapi
