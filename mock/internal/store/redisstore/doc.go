// Package redisstore is a store.Store kept in Redis, so that several
// mock processes sharing one Redis serve the same resources. It keeps
// the lives of sessions (Touch) and the keys Options.Session names with
// them, and runs the operations of its caller on what sessions hold
// besides their resources (Options.Ops, Call, Do, Run), without knowing
// what those are.
//
// Every change is one operation of a Lua script (run with EVALSHA), so it
// is atomic across callers and processes. The operations a request makes
// on its way (Create, Get, Update, Delete, Touch, Call) are batched: one
// script call carries every operation that arrived while the previous
// call was out (see batcher), so that a busy mock
// makes one round trip to Redis for many requests. A Create with a key
// makes its document first and stores it with one operation, which
// checks the key and the bound. A Create whose key is assigned takes
// three steps: an operation reserves the next key and counts the
// resource against the bound, the document function runs, and a second
// operation stores the document, or releases the reservation when the
// function failed. A reservation that is neither stored nor released
// within a minute (its process stopped) is given up by a later create.
// Update reads, calls its function, and stores the result only if the
// document is still the one it read, retrying otherwise.
//
// Keys live under Options.Prefix:
//
//	PREFIX count                the resources of all sessions, and reservations
//	PREFIX token                the last reservation token handed out
//	PREFIX held                 sorted set: reservation tokens by end of hold
//	PREFIX holds                hash: reservation token -> its res key and key
//	PREFIX sessions             sorted set: named sessions by last use (ms)
//	PREFIX s<n>:<sess>:cols     hash: collection path -> collection key base
//	PREFIX s<n>:<sess>:SUFFIX   each key Options.Session names
//	BASE:d                      hash: resource key -> document
//	BASE:o                      sorted set: resource keys by creation tick
//	BASE:t                      the collection's last creation tick
//	BASE:s                      the collection's last sequence number
//	BASE:r                      hash: reserved key -> token
//
// where BASE is PREFIX s<n>:<sess>:c<m>:<col>, n and m the byte lengths of
// the session and collection names, so that no two names share a key.
// Scripts make the per-collection key names from BASE, so the store needs
// a single Redis, not Redis Cluster.
package redisstore
