// Package mount is how several documents share one mock: the base
// paths they are mounted at, the table that gives a request to the
// document mounted at the longest base path its path starts with, and
// the refusal, at start, of two documents that could be given the same
// request.
package mount
