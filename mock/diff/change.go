package diff

// Level says whom a change breaks.
type Level string

// The levels, from the worst for clients.
const (
	// BreaksClients is a change after which a client written for OLD may
	// fail with a provider of NEW: a request it sends is refused, or an
	// answer holds what OLD did not allow.
	BreaksClients Level = "breaks-clients"
	// BreaksProviders is a change after which a provider written for
	// OLD no longer keeps NEW: it refuses a request NEW allows, may send
	// an answer NEW forbids, or lacks what NEW declares.
	BreaksProviders Level = "breaks-providers"
	// Compatible is a change that breaks neither.
	Compatible Level = "compatible"
)

// Words returns the level as a report says it: "breaks clients".
func (l Level) Words() string {
	switch l {
	case BreaksClients:
		return "breaks clients"
	case BreaksProviders:
		return "breaks providers"
	}
	return "compatible"
}

// Side says which part of an exchange a change concerns.
type Side string

// The sides.
const (
	Request  Side = "request"
	Response Side = "response"
	// Document is a change to the document as a whole: an operation
	// added or removed, a security scheme changed.
	Document Side = "document"
)

// Location is where a change is in one of the documents.
type Location struct {
	// Pointer is the JSON pointer of the value changed, or of the
	// object that holds it ("/components/schemas/Plant/properties/name/maxLength").
	Pointer string `json:"pointer"`
	// Line is its line in the document, 0 when unknown.
	Line int `json:"line,omitempty"`
}

// Change is one difference between OLD and NEW.
type Change struct {
	// Rule names the kind of change, stable across versions, in kebab
	// case: "request-property-max-length-decreased", "operation-removed".
	Rule  string `json:"rule"`
	Level Level  `json:"level"`
	Side  Side   `json:"side"`
	// Operation is "METHOD /path" as NEW writes it (OLD for a removed
	// operation), "METHOD name" for a webhook's change, "" for a change
	// to the document as a whole.
	Operation string `json:"operation,omitempty"`
	// Old and New are where the change is in each document; nil where
	// the document does not have it (a property added has no Old).
	Old *Location `json:"old,omitempty"`
	New *Location `json:"new,omitempty"`
	// Reason says what changed and what it does, in a sentence.
	Reason string `json:"reason"`
	// Ignored is the reason an ignore entry gives for accepting the
	// change, "" when none matches it.
	Ignored string `json:"ignored,omitempty"`
	// Traffic is what recorded traffic showed of the change, when the
	// report is weighed against some (see Report.Weigh) and the change
	// breaks either side; nil otherwise.
	Traffic *Evidence `json:"traffic,omitempty"`
	// of is the parameter or header the change is of, as a violation's
	// path names it ("query.limit", "header.ETag"); "" for the others.
	of string
	// hook is set for a change to a webhook or a callback: recorded
	// traffic, of the requests clients send, shows nothing of it.
	hook bool
	// found is where else a violation the change causes may be found.
	found found
}

// found is where a violation a change causes may be found besides the
// change's places.
type found struct {
	// also is a place in NEW, "" for none: for a required property
	// added, its object's required keyword, which a value without it
	// breaks; for an alternative added or removed, its anyOf or oneOf.
	also string
	// body is set for a change to a body's schema, and path is then the
	// value's path in it as violations write it, each item "[]"
	// ("seats[].assigning_team", "" for the body): a value that matches
	// none of the alternatives of a schema that holds it breaks there.
	body bool
	path string
}

// Fails reports whether the change, unless ignored, is one that fails
// at on: "client" (it breaks clients), "provider" (it breaks providers),
// "any" (every change, compatible ones too), "traffic" (a recorded
// exchange OLD accepted breaks NEW because of it; see Report.Weigh) or
// "none" (no change).
func (c *Change) Fails(on string) bool {
	if c.Ignored != "" {
		return false
	}
	switch on {
	case "client":
		return c.Level == BreaksClients
	case "provider":
		return c.Level == BreaksProviders
	case "any":
		return true
	case "traffic":
		return c.Traffic != nil && c.Traffic.Broken > 0
	}
	return false
}

// place returns where the change is in NEW, else in OLD, and which of
// them it names: the place annotations are written at.
func (c *Change) place() (loc *Location, inNew bool) {
	if c.New != nil {
		return c.New, true
	}
	return c.Old, false
}
