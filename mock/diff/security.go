package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// alternatives returns an operation's security alternatives by name:
// the names of their schemes sorted and joined with " + ", "none" for an
// alternative without schemes or an operation without security; with
// each alternative's index in Security (-1 for none).
func alternatives(o *openapi.Operation) (names []string, index map[string]int) {
	index = map[string]int{}
	if len(o.Security) == 0 {
		return []string{"none"}, map[string]int{"none": -1}
	}
	for i, alt := range o.Security {
		var ns []string
		for _, s := range alt {
			ns = append(ns, s.Name)
		}
		slices.Sort(ns)
		name := strings.Join(ns, " + ")
		if name == "" {
			name = "none"
		}
		if _, ok := index[name]; !ok {
			names = append(names, name)
			index[name] = i
		}
	}
	return names, index
}

// security compares the operation's security alternatives, and the
// scopes of those in both.
func (d *opDiff) security() {
	oldNames, oldIdx := alternatives(d.old)
	newNames, newIdx := alternatives(d.new)
	where := func() (*Location, *Location) { return loc(d.old.Place()), loc(d.new.Place()) }
	_, newOpen := newIdx["none"]
	_, oldOpen := oldIdx["none"]
	for _, name := range newNames {
		i, ok := oldIdx[name]
		if !ok {
			if !oldOpen {
				o, n := where()
				d.add("security-alternative-added", BreaksProviders, Request, o, n,
					fmt.Sprintf("NEW accepts credentials of %s: a provider of OLD refuses them", name))
			}
			continue
		}
		j := newIdx[name]
		if i < 0 || j < 0 {
			continue
		}
		for _, s := range d.new.Security[j] {
			was, is := scopes(d.old, i, s.Name), scopes(d.new, j, s.Name)
			if added := missing(is, was); len(added) > 0 && !newOpen {
				o, n := where()
				d.add("security-scope-added", BreaksClients, Request, o, n,
					fmt.Sprintf("%s now asks for scopes %s: a client of OLD whose credentials lack them is refused", s.Name, strings.Join(added, ", ")))
			}
			if removed := missing(was, is); len(removed) > 0 {
				o, n := where()
				d.add("security-scope-removed", BreaksProviders, Request, o, n,
					fmt.Sprintf("%s no longer asks for scopes %s: a provider of OLD refuses credentials without them", s.Name, strings.Join(removed, ", ")))
			}
		}
	}
	if newOpen {
		return // every request is let in, with credentials or without
	}
	for _, name := range oldNames {
		if _, ok := newIdx[name]; !ok {
			o, n := where()
			reason := fmt.Sprintf("NEW no longer accepts credentials of %s: a client of OLD that sends only those is refused", name)
			if name == "none" {
				reason = "NEW requires credentials: a client of OLD that sends none is refused"
			}
			d.add("security-alternative-removed", BreaksClients, Request, o, n, reason)
		}
	}
}

// scopes returns the scopes alternative i of o asks of scheme.
func scopes(o *openapi.Operation, i int, scheme string) []string {
	if i >= len(o.Scopes) || o.Scopes[i] == nil {
		return nil
	}
	return o.Scopes[i][scheme]
}

// missing returns the values of a that b lacks, in a's order.
func missing(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

// schemes compares the security schemes both documents declare by the
// same name: a scheme that takes credentials another way breaks the
// clients of every operation that asks for it.
func (c *comparer) schemes(od, nd *openapi.Document) {
	for _, n := range nd.SecuritySchemes {
		for _, o := range od.SecuritySchemes {
			if o.Name != n.Name {
				continue
			}
			was, is := schemeText(o), schemeText(n)
			if was != is {
				c.add(Change{Rule: "security-scheme-changed", Level: BreaksClients, Side: Document,
					Old: loc(o.Place()), New: loc(n.Place()),
					Reason: fmt.Sprintf("security scheme %s takes %s, no longer %s: a client of OLD sends credentials the old way", n.Name, is, was)})
			}
		}
	}
}

// schemeText says how a scheme takes credentials: "http bearer",
// "apiKey in header X-Key", "oauth2 (clientCredentials)".
func schemeText(s *openapi.SecurityScheme) string {
	switch s.Type {
	case "http":
		return "http " + s.Scheme
	case "apiKey":
		return fmt.Sprintf("apiKey in %s %s", s.In, s.Param)
	case "oauth2":
		return "oauth2 (" + strings.Join(s.Flows, ", ") + ")"
	}
	return s.Type
}
