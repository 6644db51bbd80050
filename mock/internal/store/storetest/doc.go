// Package storetest is the conformance suite every store.Store
// implementation passes.
//
// An implementation's test calls Run with a function that makes a fresh,
// empty store:
//
//	func TestMemory(t *testing.T) {
//		storetest.Run(t, func(t *testing.T, max int) store.Store {
//			return store.NewMemory(max)
//		})
//	}
//
// The suite uses nothing but the store.Store interface and checks only what
// its doc comments promise: exact documents, keys and errors (with
// errors.Is), creation order, key assignment, sessions, the bound on
// resources, and behaviour under concurrent use. Its concurrent subtests
// are meant to be run with the race detector as well.
package storetest
