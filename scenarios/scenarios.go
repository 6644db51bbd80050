// Package scenarios holds the scenario files that ship with plantmock.
// first-call-fails, flaky and slow fit any document; the others are
// written for the Plant Store and left out of other documents. The mock
// loads them by default.
package scenarios

import "embed"

// FS holds the shipped scenario files (*.yaml).
//
//go:embed *.yaml
var FS embed.FS
