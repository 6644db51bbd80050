// Package webhook sends webhooks and callbacks: the listener that sends
// what an answer triggers (a create's webhooks, a scenario rule's, an
// operation's callbacks), the webhooks the admin API asks for, each
// session's subscribers, and the deliveries handed to deliver, whose
// attempts it tells the engine's listeners of. The engine knows nothing
// of it: mock registers its listener last.
package webhook
