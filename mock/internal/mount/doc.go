// Package mount is how several documents share one mock: the base
// paths they are mounted at, the table that gives a request to the
// document mounted at the longest base path its path starts with (of
// documents at one base path, the one that declares its path), the
// refusal, at start, of two documents that could be given the same
// request or that have one name, and the --spec values that name them.
package mount
