package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// becameArray compares parameter o with n when n's value became an
// array of what o's was, in a style that writes an array of one item as
// the item alone (form, simple, spaceDelimited, pipeDelimited: the
// Style Examples of OpenAPI 3.1's Parameter Object): a client of OLD
// writes one value, which NEW reads as one item. It compares o's schema
// with n's items, then says that NEW takes several values, and reports
// whether it did.
//
// A parameter's value is text: where the items accept strings, a type
// OLD's schema had and the items lack is not a value refused (token=5
// is the string "5" too), so type changes are left out there.
func (d *opDiff) becameArray(subject string, o, n *openapi.Param) bool {
	ot, _ := typeSet(o.Schema)
	nt, _ := typeSet(n.Schema)
	s, _ := n.Styled()
	if ot == nil || slices.Contains(ot, "array") || !slices.Contains(nt, "array") ||
		!slices.Contains([]string{"form", "simple", "spaceDelimited", "pipeDelimited"}, s) {
		return false
	}
	items := n.Schema.Items
	if items == nil {
		items = &openapi.Schema{}
	}
	it, _ := typeSet(items)
	text := it == nil || slices.Contains(it, "string")
	probe := d.probe()
	probe.walk(Request).schema(subject, "request-parameter", "", o.Schema, items, false)
	for _, c := range probe.c.changes {
		if text && (strings.HasSuffix(c.Rule, "-type-narrowed") || strings.HasSuffix(c.Rule, "-type-changed")) {
			continue
		}
		d.c.add(c)
	}
	what := fmt.Sprintf("%s parameter %s", n.In, n.Name)
	d.add("request-parameter-became-array", BreaksProviders, Request, place(o.Schema, "type"), place(n.Schema, "type"),
		what+" became an array of its values: a client of OLD writes one, which NEW reads as one item; a provider of OLD refuses several")
	if m := n.Schema.MinItems; m != nil && *m > 1 {
		d.add("request-parameter-min-items-added", BreaksClients, Request, nil, place(n.Schema, "minItems"),
			fmt.Sprintf("%s needs at least %d values: a request of a client of OLD, which writes one, is refused", what, *m))
	}
	return true
}
