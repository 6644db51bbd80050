// Package openapi loads an OpenAPI 3.0 or 3.1 document and turns it into the
// types the rest of plantmock works with: operations, a router, schemas that
// validate decoded JSON, and violations.
//
// It is the only package that imports libopenapi and libopenapi-validator.
// Everything is built once at load; the request path only reads.
package openapi
