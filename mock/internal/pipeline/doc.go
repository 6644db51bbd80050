// Package pipeline answers the mock's requests: the exchange one request
// builds, the checks in order (route, security, session, parameters,
// body, the mock's own headers), the one place an answer is decided
// (Prefer, a scenario's rule, the operation's behaviour, or the real
// service), writing the answer (its body decided by package answer), and the emitter that tells its listeners (contract counts,
// journal, log, and those mock registers: the recording, the webhooks
// and callbacks) of each exchange and outbound attempt, as values that
// hold no exchange. It is the only
// package that sees an exchange. The package mock wires it: options,
// the document's loading and reloading, the admin API's view of it.
package pipeline
