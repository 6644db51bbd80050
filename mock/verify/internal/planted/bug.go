package planted

import (
	"fmt"
	"strings"
)

// A Bug is a contract bug a Provider can be built with.
type Bug int

// The bugs: the ten kinds of issue 43, then six more.
const (
	None             Bug = iota // no bug: the provider keeps its document
	UndeclaredStatus            // the list answers 203
	MissingRequired             // the create's answer has no kind
	WrongType                   // the list holds an item whose id is a string
	LeakedWriteOnly             // the create's answer has the writeOnly secret
	Boundary500                 // the list answers 500 to limit=100
	MissingLocation             // the create's answer has no Location
	AcceptedEnum                // the create takes a kind outside the enum
	IgnoredHeader               // the list answers without its required X-Tenant
	WrongErrorShape             // the create's refusals are {"error": ...}
	ReadDisagrees               // the read adds " (copy)" to the name
	SlowAnswer                  // the list waits for Close on limit=1
	RefusedValid                // the create refuses a name with a space
	ListOmits                   // the list leaves out the newest item
	UpdateIgnored               // the replace answers but keeps the item
	DuplicateCreated            // the tag create takes a name it holds
	EnumRefused                 // the create refuses the kind seed
)

// bugs holds each Bug's name, what it is, and the operation whose
// answers show it, in the order of the constants.
var bugs = [...]struct{ name, text, operation string }{
	None:             {"none", "no bug", ""},
	UndeclaredStatus: {"undeclared-status", "an undeclared status", "GET /items"},
	MissingRequired:  {"missing-required", "a missing required property", "POST /items"},
	WrongType:        {"wrong-type", "a wrong type", "GET /items"},
	LeakedWriteOnly:  {"leaked-writeonly", "a leaked writeOnly field", "POST /items"},
	Boundary500:      {"boundary-500", "a 500 on a valid boundary value", "GET /items"},
	MissingLocation:  {"missing-location", "a missing Location", "POST /items"},
	AcceptedEnum:     {"accepted-enum", "an accepted invalid enum", "POST /items"},
	IgnoredHeader:    {"ignored-header", "an ignored required header", "GET /items"},
	WrongErrorShape:  {"wrong-error-shape", "a wrong error shape", "POST /items"},
	ReadDisagrees:    {"read-disagrees", "a read that disagrees with the create", "GET /items/{id}"},
	SlowAnswer:       {"slow-answer", "an answer slower than the timeout", "GET /items"},
	RefusedValid:     {"refused-valid", "a valid value refused", "POST /items"},
	ListOmits:        {"list-omits", "a list that omits the created item", "GET /items"},
	UpdateIgnored:    {"update-ignored", "an update that is not applied", "GET /items/{id}"},
	DuplicateCreated: {"duplicate-created", "a duplicate create accepted", "POST /tags"},
	EnumRefused:      {"enum-refused", "a declared enum value refused", "POST /items"},
}

// Bugs returns every bug, None aside, in order.
func Bugs() []Bug {
	out := make([]Bug, 0, len(bugs)-1)
	for b := range bugs[1:] {
		out = append(out, Bug(b+1))
	}
	return out
}

// ParseBug returns the bug of that Name.
func ParseBug(name string) (Bug, error) {
	var names []string
	for b, d := range bugs {
		if d.name == name {
			return Bug(b), nil
		}
		names = append(names, d.name)
	}
	return None, fmt.Errorf("planted: no bug is named %q (one of %s)", name, strings.Join(names, ", "))
}

// Name is the bug's name on a command line: "wrong-type".
func (b Bug) Name() string { return bugs[b].name }

// String says what the bug is: "a wrong type".
func (b Bug) String() string { return bugs[b].text }

// Operation is the operation whose answers show the bug, as
// "METHOD /path/template"; "" for None.
func (b Bug) Operation() string { return bugs[b].operation }
