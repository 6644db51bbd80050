// Package state keeps what the sessions of a mock hold: their resources
// (a store.Store), and for each session its journal, rule counters,
// active scenario and webhook subscribers. A Backend keeps them in this
// process (memory) or in Redis, where every replica of a mock sees the
// same; Open chooses one. Both pass the conformance suite in statetest.
//
// The package knows nothing of the mock's own types: journal entries are
// of a type the caller gives, with a Codec; rules, scenarios and
// subscribers are plain values.
package state
