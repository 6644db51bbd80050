// Package state keeps what the sessions of a mock hold: their resources
// (a store.Store), and for each session its journal, rule counters,
// active scenario and webhook subscribers. A Backend keeps them in this
// process (memory) or in Redis, where every replica of a mock sees the
// same; Open chooses one. Both pass the conformance suite in statetest.
//
// In Redis, a session's state lives in keys under its base (see
// redisstore.Store.SessionBase) that this package names (sessionKeys)
// and works on with its own operations (redisOps); redisstore keeps
// those keys alive with the session and deletes them when it expires:
//
//	BASE jseq     the last journal record's number; the session's clock
//	BASE active   the session's active scenario ("" for none); with
//	              several documents, NUL and a JSON object of each one's
//	BASE rules    hash: rule name + "|m" or "|a" -> matches, answers;
//	              with several documents, the name after "d", the
//	              length of the document's name and the name
//	BASE journal  stream of journal records, capped in number and bytes
//	BASE jbytes   the weight in bytes of the journal's records
//	BASE hooks    hash: webhook name -> subscriber
//
// The package knows nothing of the mock's own types: journal entries are
// of a type the caller gives, with a Codec; rules, scenarios and
// subscribers are plain values.
package state
