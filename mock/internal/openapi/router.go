package openapi

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Route is one path template with its operations. Templates that differ
// only in parameter names (/a/{id} and /a/{name}) share one route.
type Route struct {
	Path string // the first template, e.g. /plants/{plantId}
	// Params are the names of the first template's parameters, in order.
	Params []string
	// Allow is the comma-separated list of declared methods, for 405 answers.
	Allow string
	ops   map[string]*Operation
}

// Operation returns the operation for method, or nil.
func (r *Route) Operation(method string) *Operation { return r.ops[method] }

// Router finds the route of a request path. In each segment a literal
// beats a template, and among templates the one with more literal
// characters wins (/files/{name}.json before /files/{name}).
type Router struct {
	root   branch
	routes map[string]*Route // by template
}

// branch is one segment position of the routing tree.
type branch struct {
	lit      map[string]*branch
	patterns []*pattern // segments mixing text and parameters, most literal first
	param    *branch    // a segment that is one parameter
	route    *Route
}

// pattern is a segment such as {name}.json or a:{b}: literal parts around
// parameters, matched with the parameters as short as possible.
type pattern struct {
	text    string   // as written, with parameter names removed: {}.json
	lits    []string // the literal parts; len(lits) = params+1
	literal int      // how many literal characters
	// ends holds, for a parameter that directly follows another
	// ({id}{ext}), the values of its string enum, longest first: they
	// decide where the two part (see match); nil for other parameters.
	ends [][]string
	key  string // text and ends: what makes two templates' segments one
	next *branch
}

func newRouter() *Router { return &Router{routes: map[string]*Route{}} }

// add registers an operation. When its template's route already declares
// the method (a template differing only in parameter names), the
// operation already there is returned and o is not added.
func (rt *Router) add(o *Operation) *Operation {
	n := &rt.root
	var names []string
	for _, seg := range splitPath(o.Path) {
		lits, params := segmentParts(seg)
		names = append(names, params...)
		switch {
		case len(params) == 0:
			if n.lit == nil {
				n.lit = map[string]*branch{}
			}
			c := n.lit[seg]
			if c == nil {
				c = &branch{}
				n.lit[seg] = c
			}
			n = c
		case len(params) == 1 && lits[0] == "" && lits[1] == "":
			if n.param == nil {
				n.param = &branch{}
			}
			n = n.param
		default:
			text := strings.Join(lits, "{}")
			ends := adjacentEnds(o, lits, params)
			key := text
			if ends != nil {
				key = fmt.Sprint(text, ends)
			}
			var p *pattern
			for _, q := range n.patterns {
				if q.key == key {
					p = q
				}
			}
			if p == nil {
				p = &pattern{text: text, lits: lits, literal: len(text) - 2*len(params), ends: ends, key: key, next: &branch{}}
				n.patterns = append(n.patterns, p)
				sort.SliceStable(n.patterns, func(i, j int) bool { return n.patterns[i].literal > n.patterns[j].literal })
			}
			n = p.next
		}
	}
	o.pathNames = names
	r := n.route
	if r == nil {
		r = &Route{Path: o.Path, Params: names, ops: map[string]*Operation{}}
		n.route = r
	}
	rt.routes[o.Path] = r
	if prev := r.ops[o.Method]; prev != nil {
		return prev
	}
	r.ops[o.Method] = o
	methods := make([]string, 0, len(r.ops))
	for m := range r.ops {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	r.Allow = strings.Join(methods, ", ")
	return nil
}

// adjacentEnds returns a pattern's ends: for each parameter of a segment
// that directly follows another (nothing between them), the string values
// of its declared enum, longest first; nil when there are none at all.
func adjacentEnds(o *Operation, lits, params []string) [][]string {
	var ends [][]string
	for i := 1; i < len(params); i++ {
		if lits[i] != "" {
			continue
		}
		var vals []string
		for _, prm := range o.Params {
			if prm.In != "path" || prm.Name != params[i] || prm.Schema == nil {
				continue
			}
			for _, v := range prm.Schema.Enum {
				if s, ok := v.(string); ok && s != "" {
					vals = append(vals, s)
				}
			}
		}
		if len(vals) == 0 {
			continue
		}
		sort.SliceStable(vals, func(a, b int) bool { return len(vals[a]) > len(vals[b]) })
		if ends == nil {
			ends = make([][]string, len(params))
		}
		ends[i] = vals
	}
	return ends
}

// segmentParts splits a template segment into its literal parts and its
// parameter names: "{name}.json" gives ["", ".json"] and ["name"].
func segmentParts(seg string) (lits, params []string) {
	rest := seg
	for {
		i := strings.IndexByte(rest, '{')
		j := strings.IndexByte(rest[max(i, 0):], '}') + max(i, 0)
		if i < 0 || j < i+2 {
			lits = append(lits, rest)
			return lits, params
		}
		lits = append(lits, rest[:i])
		params = append(params, rest[i+1:j])
		rest = rest[j+1:]
	}
}

// Find returns the route matching an escaped request path and the values
// of its parameters as they appear in the path (still percent-escaped),
// or nil.
func (rt *Router) Find(escapedPath string) (*Route, []string) {
	return rt.FindFor(escapedPath, "")
}

// FindFor is Find for a request of method: of the routes the path
// matches, the first, in Find's order, that declares method, else the
// one Find returns. GET /jobs/$next answers as /jobs/{jobId} declares
// where /jobs/$next declares only PUT, rather than 405: a client may
// well name the job "$next" (AWS's descriptions have such pairs).
func (rt *Router) FindFor(escapedPath, method string) (*Route, []string) {
	if escapedPath == "" || escapedPath[0] != '/' {
		return nil, nil
	}
	if method != "" {
		var vals []string
		if r := rt.root.find(escapedPath[1:], &vals, method); r != nil {
			return r, vals
		}
	}
	var vals []string
	r := rt.root.find(escapedPath[1:], &vals, "")
	if r == nil {
		return nil, nil
	}
	return r, vals
}

// find returns the first route, in the router's order, that matches
// rest and declares method ("" for any).
func (n *branch) find(rest string, vals *[]string, method string) *Route {
	seg, tail, more := strings.Cut(rest, "/")
	c := n.lit[seg]
	if c == nil && strings.IndexByte(seg, '%') >= 0 && len(n.lit) > 0 {
		// A literal segment a client escaped (/cookies%23a for the
		// template /cookies#a).
		if u, err := url.PathUnescape(seg); err == nil {
			c = n.lit[u]
		}
	}
	if c != nil {
		if r := c.next(tail, more, vals, method); r != nil {
			return r
		}
	}
	for _, p := range n.patterns {
		mark := len(*vals)
		if p.match(seg, vals) {
			if r := p.next.next(tail, more, vals, method); r != nil {
				return r
			}
		}
		*vals = (*vals)[:mark]
	}
	if n.param != nil && seg != "" {
		*vals = append(*vals, seg)
		if r := n.param.next(tail, more, vals, method); r != nil {
			return r
		}
		*vals = (*vals)[:len(*vals)-1]
	}
	return nil
}

// match matches seg against the pattern, appending the parameter values.
// The first literal is a prefix and the last a suffix; literals between
// are found leftmost. Every parameter takes at least one character. Two
// parameters with nothing between them ({id}{ext}) part where the second
// begins with one of its enum's values (ends), the longest first: taken
// from the end when the second is the segment's last parameter, else
// leftmost; when none
// fits, or the second declares no enum, the first takes one character
// (and the value is then refused by its schema, not by the router). The
// segment is still escaped, so a literal matches its characters as sent
// or percent-escaped (/finding/x%23arn for the template /finding/{id}#arn,
// as AWS's descriptions write operations that share a path), while the
// parameter values stay escaped.
func (p *pattern) match(seg string, vals *[]string) bool {
	first, last := p.lits[0], p.lits[len(p.lits)-1]
	if len(seg) < p.literal+len(p.lits)-1 {
		return false
	}
	start, ok := litAt(seg, 0, first)
	if !ok {
		return false
	}
	end := suffixAt(seg, start, last)
	if end < 0 {
		return false
	}
	body := seg[start:end]
	for n, lit := range p.lits[1 : len(p.lits)-1] {
		if lit == "" && p.ends != nil && p.ends[n+1] != nil {
			if i := p.endAt(body, n+1); i > 0 {
				*vals = append(*vals, body[:i])
				body = body[i:]
				continue
			}
		}
		i, j := -1, 0
		for k := 1; k < len(body); k++ {
			if e, ok := litAt(body, k, lit); ok {
				i, j = k, e
				break
			}
		}
		if i < 0 {
			return false
		}
		*vals = append(*vals, body[:i])
		body = body[j:]
	}
	if body == "" {
		return false
	}
	*vals = append(*vals, body)
	return true
}

// endAt returns where parameter n, which directly follows another, begins
// in body by its enum values (see match), or -1.
func (p *pattern) endAt(body string, n int) int {
	if n == len(p.lits)-2 {
		for _, e := range p.ends[n] {
			if i := suffixAt(body, 1, e); i > 0 {
				return i
			}
		}
		return -1
	}
	for k := 1; k < len(body); k++ {
		for _, e := range p.ends[n] {
			if _, ok := litAt(body, k, e); ok {
				return k
			}
		}
	}
	return -1
}

// litAt reports whether the escaped segment s holds the literal lit at i,
// each of lit's bytes as itself or percent-escaped, and where it ends.
func litAt(s string, i int, lit string) (int, bool) {
	for k := 0; k < len(lit); k++ {
		switch {
		case i >= len(s):
			return 0, false
		case s[i] == '%' && i+2 < len(s) && unhex(s[i+1]) >= 0 && unhex(s[i+2]) >= 0:
			if unhex(s[i+1])<<4|unhex(s[i+2]) != int(lit[k]) {
				return 0, false
			}
			i += 3
		case s[i] == lit[k]:
			i++
		default:
			return 0, false
		}
	}
	return i, true
}

// suffixAt returns where the literal lit starts when it ends the escaped
// segment s, not before from, or -1; unescaped characters are tried first.
func suffixAt(s string, from int, lit string) int {
	for i := len(s) - len(lit); i >= max(len(s)-3*len(lit), from); i-- {
		if e, ok := litAt(s, i, lit); ok && e == len(s) {
			return i
		}
	}
	return -1
}

// unhex returns the value of a hexadecimal digit, or -1.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

func (n *branch) next(tail string, more bool, vals *[]string, method string) *Route {
	if !more {
		if n.route != nil && method != "" && n.route.ops[method] == nil {
			return nil
		}
		return n.route
	}
	return n.find(tail, vals, method)
}

func splitPath(p string) []string { return strings.Split(strings.TrimPrefix(p, "/"), "/") }

// Unescape percent-decodes path parameter values, reporting false when one
// is malformed.
func Unescape(vals []string) ([]string, bool) {
	var out []string
	for i, v := range vals {
		if !strings.Contains(v, "%") {
			if out != nil {
				out[i] = v
			}
			continue
		}
		u, err := url.PathUnescape(v)
		if err != nil {
			return nil, false
		}
		if out == nil {
			out = append([]string(nil), vals...)
		}
		out[i] = u
	}
	if out == nil {
		return vals, true
	}
	return out, true
}

// Fill returns a template with its parameters replaced by values (escaped
// for a path), in order; parameters beyond the values are left as they are.
func Fill(template string, vals []string) string {
	if !strings.Contains(template, "{") {
		return template
	}
	var b strings.Builder
	i := 0
	rest := template
	for {
		s := strings.IndexByte(rest, '{')
		e := strings.IndexByte(rest[max(s, 0):], '}') + max(s, 0)
		if s < 0 || e < s || i >= len(vals) {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:s])
		b.WriteString(url.PathEscape(vals[i]))
		i++
		rest = rest[e+1:]
	}
}

// Collection describes how a route relates to stored resources.
type Collection struct {
	// Path is the template of the collection, e.g. /plants.
	Path string
	// Item is true when the route addresses one resource of the collection
	// (/plants/{plantId}); its last parameter is the identifier.
	Item bool
}

// Collection returns the collection a route belongs to: an item route's
// last segment is one parameter. /{id} is an item of /, as presalytics's
// stories are.
func (r *Route) Collection() Collection {
	segs := splitPath(r.Path)
	last := segs[len(segs)-1]
	if lits, params := segmentParts(last); len(params) == 1 && lits[0] == "" && lits[1] == "" {
		return Collection{Path: "/" + strings.Join(segs[:len(segs)-1], "/"), Item: true}
	}
	return Collection{Path: r.Path}
}

// Route returns the route of a template, or nil.
func (rt *Router) Route(template string) *Route { return rt.routes[template] }
