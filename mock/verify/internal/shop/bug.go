package shop

// A Bug is a contract bug a Shop can be built with.
type Bug int

// The bugs: three that only invalid requests below the top level of a
// body find, one that only reading a list page by page finds, two in
// the answers' nested objects and arrays, one that only a value broken
// in a deepObject query finds, and one in a body's array of strings.
const (
	None              Bug = iota // no bug: the shop keeps its document
	PostcodeUnchecked            // the create takes any postcode (a nested object's pattern)
	QuantityUnbounded            // the create takes any whole quantity (an array item's bounds)
	PaymentUnchecked             // the create takes any card or iban value (a oneOf alternative's)
	PageLost                     // the list's third page says it is the last
	CityDropped                  // the read leaves out the address's required city
	QuantityAsText               // the list writes each line's quantity as a string
	FilterUnchecked              // the list takes any filter[min_lines] (a deepObject query's bounds)
	TagUnchecked                 // the create takes any tag (a scalar array item's pattern)
)

// bugs holds each Bug's name, what it is, and the operation whose
// answers show it, in the order of the constants.
var bugs = [...]struct{ name, text, operation string }{
	None:              {"none", "no bug", ""},
	PostcodeUnchecked: {"postcode-unchecked", "a nested property's pattern not checked", "POST /orders"},
	QuantityUnbounded: {"quantity-unbounded", "an array item's bounds not checked", "POST /orders"},
	PaymentUnchecked:  {"payment-unchecked", "a oneOf alternative's values not checked", "POST /orders"},
	PageLost:          {"page-lost", "a cursor-paged list that loses its last pages", "GET /orders"},
	CityDropped:       {"city-dropped", "a nested required property left out of an answer", "GET /orders/{orderId}"},
	QuantityAsText:    {"quantity-as-text", "a wrong type in an array item of an answer", "GET /orders"},
	FilterUnchecked:   {"filter-unchecked", "a deepObject query's bounds not checked", "GET /orders"},
	TagUnchecked:      {"tag-unchecked", "a string array item's pattern not checked", "POST /orders"},
}

// Bugs returns every bug, None aside, in order.
func Bugs() []Bug {
	out := make([]Bug, 0, len(bugs)-1)
	for b := range bugs[1:] {
		out = append(out, Bug(b+1))
	}
	return out
}

// Name is the bug's name: "page-lost".
func (b Bug) Name() string { return bugs[b].name }

// String says what the bug is.
func (b Bug) String() string { return bugs[b].text }

// Operation is the operation whose answers show the bug, as
// "METHOD /path/template"; "" for None.
func (b Bug) Operation() string { return bugs[b].operation }
