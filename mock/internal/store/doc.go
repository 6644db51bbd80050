// Package store declares where a mock keeps the resources its clients
// create, and holds the in-memory implementation.
//
// A Store keeps, for every session, collections of resources: compact JSON
// documents under string identifiers ("keys"), in creation order. It also
// owns what must stay consistent with them: the assignment of identifiers
// to resources created without one, and the bound on how many resources
// all sessions hold together. Every implementation passes the conformance
// suite in package storetest.
package store
