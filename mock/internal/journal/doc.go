// Package journal is what the mock keeps of each exchange and outbound
// attempt: the Entry and its bounds (clipping), the credentials masked
// in it, the form a state backend stores it in (EntryCodec), and Match,
// the query that selects entries.
package journal
