package wire

// Error is a value that cannot be decoded: where, and why.
type Error struct {
	// Path locates the value: "query.limit", "path.id", "header.X-Rate",
	// "cookie.session" for parameters; the property name ("avatar") for a
	// field of a form body, and "" for the body as a whole.
	Path string
	// Reason says in plain words what is wrong.
	Reason string
}

// Error returns "path: reason", or "body: reason" for the body as a
// whole.
func (e *Error) Error() string {
	if e.Path == "" {
		return "body: " + e.Reason
	}
	return e.Path + ": " + e.Reason
}
