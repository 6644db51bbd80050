// Package plantmock holds the Plant Store contract that the mock serves by
// default. The mock itself is in package mock; the binary is cmd/plantmock.
package plantmock

import _ "embed"

// OpenAPI is the Plant Store OpenAPI 3.1.0 document (openapi.yaml), embedded
// in every build.
//
//go:embed openapi.yaml
var OpenAPI string
