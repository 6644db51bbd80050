// Package webhook is every decision about webhooks and callbacks: the
// set a document sends (Set: its webhooks, those each create sends,
// default subscribers, the allow list) and whether an answer sends any
// (Set.SendsAfter, which the pipeline asks in order to flush the answer
// first); and the Sender, the listener that sends what an answer
// triggers (a create's webhooks, a scenario rule's, an operation's
// callbacks) and the webhooks the admin API asks for, reading each
// session's subscribers and handing deliveries to deliver, whose
// attempts it tells the mock's listeners of. It is told of an exchange
// as an event.Answered and reaches the mock through Host alone.
package webhook
