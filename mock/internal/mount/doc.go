// Package mount is how several documents share one mock: where each is
// mounted (its --spec value, or the path of its first server URL), the
// table that gives a request to the document mounted at the longest
// base path its path starts with, and the refusal, at start, of two
// documents that could be given the same request.
package mount
