// Package statetest is the conformance suite of state.Backend: every
// backend passes Run, on journal entries of the suite's own type.
package statetest
