//go:build !unix

package files

// noFollow is no flag where the system has none: Append's check before
// opening is then what refuses a link.
const noFollow = 0
