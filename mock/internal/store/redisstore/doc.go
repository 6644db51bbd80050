// Package redisstore is a store.Store kept in Redis, so that several
// mock processes sharing one Redis serve the same resources.
//
// Every change is one Lua script (run with EVALSHA), so it is atomic
// across callers and processes. A Create whose key is assigned, or whose
// document is made in Go, takes three steps: a script reserves the key
// and counts the resource against the bound, the document function runs,
// and a second script stores the document, or releases the reservation
// when the function failed. A reservation that is neither stored nor
// released within a minute (its process stopped) is given up by the next
// create. Update reads, calls its function, and stores
// the result only if the document is still the one it read, retrying
// otherwise.
//
// Keys live under Options.Prefix:
//
//	PREFIX count                the resources of all sessions, and reservations
//	PREFIX token                the last reservation token handed out
//	PREFIX held                 sorted set: reservation tokens by end of hold
//	PREFIX holds                hash: reservation token -> its res key and key
//	PREFIX s<n>:<sess>:cols     hash: collection path -> collection key base
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
