package shop

import _ "embed"

//go:embed shop.yaml
var spec string

// Spec returns the OpenAPI document the shop keeps (but for its bug):
// shop.yaml, a copy the caller may change.
func Spec() []byte { return []byte(spec) }
