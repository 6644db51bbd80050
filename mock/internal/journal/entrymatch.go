package journal

// Match selects journal entries. Every condition given must hold; the
// zero Match selects every entry.
type Match struct {
	// Operation is "METHOD /path/template" of the document, as in a
	// scenario, or the "webhook NAME" or "callback NAME" of an outbound
	// entry.
	Operation string `json:"operation,omitempty"`
	// Document is the name of the document that answered, where the mock
	// serves several (see Entry.Document).
	Document string `json:"document,omitempty"`
	// Direction is "inbound" for the requests the mock received, or
	// "outbound" for the webhooks and callbacks it sent; empty for both.
	Direction string `json:"direction,omitempty"`
	// Status is the answer's status.
	Status int `json:"status,omitempty"`
	// Body is a JSON subset of the request body, as in a scenario's
	// when.body: strings may be /regex/.
	Body any `json:"body,omitempty"`
	// Func, if set, must return true.
	Func func(Entry) bool `json:"-"`
}
