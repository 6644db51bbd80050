// Package stream writes and reads the items of sequential media types
// (see media.Sequence): server-sent events, JSON Lines, JSON text
// sequences and multipart/mixed parts. It frames items and nothing
// more: what an item must hold is the document's (openapi.Media's item
// schema), and when items are sent is the answer's.
//
// Writing appends one item's bytes to a buffer, so that an answer can
// flush each item as it goes and keep no more than one in memory.
// Reading takes one item at a time from a body, holding at most one item
// of at most the Reader's limit, so that a proxy or a verifier can judge
// a stream that never ends, item by item.
package stream
