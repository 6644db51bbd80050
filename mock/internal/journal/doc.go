// Package journal is what the mock keeps of each exchange and outbound
// attempt: the Entry and its bounds (clipping), the credentials masked
// in it, the form a state backend stores it in (EntryCodec), Match, the
// query that selects entries, and the Emitter, the one path after an
// answer, which tells its listeners of each answered exchange and each
// outbound Attempt.
package journal
