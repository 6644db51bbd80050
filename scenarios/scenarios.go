// Package scenarios holds the scenario files that ship with plantmock,
// written for the Plant Store document. The mock loads them by default.
package scenarios

import "embed"

// FS holds the shipped scenario files (*.yaml).
//
//go:embed *.yaml
var FS embed.FS
