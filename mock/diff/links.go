package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// links compares the links of response r, by name. A client that
// follows a link calls its target with the parameters it gives: one
// removed, or one that leads elsewhere or gives other values, breaks
// it; one added is not followed by a client of OLD.
func (d *opDiff) links(r *openapi.Response, olds, news []openapi.Link) {
	of := " of the " + statusName(r)
	pairsOf(olds, news, func(l *openapi.Link) string { return l.Name }, func(o, n *openapi.Link) {
		switch {
		case o == nil:
			d.add("response-link-added", Compatible, Response, nil, loc(n.Place()),
				fmt.Sprintf("NEW declares link %s%s, which a client of OLD does not follow", n.Name, of))
			return
		case n == nil:
			d.add("response-link-removed", BreaksClients, Response, loc(o.Place()), nil,
				fmt.Sprintf("NEW no longer declares link %s%s: a client of OLD that follows it has no way to its target", o.Name, of))
			return
		}
		was, wasKey := linkTarget(d.c.old, o)
		is, isKey := linkTarget(d.c.new, n)
		if wasKey != isKey {
			d.add("response-link-target-changed", BreaksClients, Response, loc(o.Place()), loc(n.Place()),
				fmt.Sprintf("link %s%s leads to %s, no longer %s: a client of OLD that follows it calls the old one", n.Name, of, is, was))
		}
		if names := changedParams(o.Parameters, n.Parameters); len(names) > 0 {
			d.add("response-link-parameters-changed", BreaksClients, Response, loc(o.Place()), loc(n.Place()),
				fmt.Sprintf("link %s%s gives other values to %s: a client of OLD that follows it gives the old ones", n.Name, of, strings.Join(names, ", ")))
		}
	})
}

// linkTarget is the operation link lk leads to in doc, as reasons name
// it and as targets are matched (by Operation.Key, so an operationId renamed
// with its operation leads to the same one); the operationId or
// operationRef written when it names no operation of doc.
func linkTarget(doc *openapi.Document, lk *openapi.Link) (name, key string) {
	if o := doc.LinkTarget(*lk); o != nil {
		return o.Name, o.Key()
	}
	if lk.OperationID != "" {
		name = "operationId " + lk.OperationID
	} else {
		name = "operationRef " + lk.OperationRef
	}
	return name, name
}

// changedParams returns the names of the parameters a link gives a
// value in one of olds and news and not the same in the other, sorted.
func changedParams(olds, news map[string]any) []string {
	var out []string
	for k, v := range olds {
		if w, ok := news[k]; !ok || string(jsonx.Marshal(v)) != string(jsonx.Marshal(w)) {
			out = append(out, k)
		}
	}
	for k := range news {
		if _, ok := olds[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
