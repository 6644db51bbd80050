package planted

import _ "embed"

//go:embed planted.yaml
var spec string

// Spec returns the OpenAPI document the provider keeps (but for its
// bug): planted.yaml, a copy the caller may change.
func Spec() []byte { return []byte(spec) }
