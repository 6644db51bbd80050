package openapi

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Route is one path template with its operations.
type Route struct {
	Path string // the template, e.g. /plants/{plantId}
	// Params are the names of the template's parameters, in order.
	Params []string
	// Allow is the comma-separated list of declared methods, for 405 answers.
	Allow string
	ops   map[string]*Operation
}

// Operation returns the operation for method, or nil.
func (r *Route) Operation(method string) *Operation { return r.ops[method] }

// Router finds the route of a request path. Literal segments take
// precedence over parameters (/plants/mine before /plants/{id}).
type Router struct {
	root   node
	routes map[string]*Route
}

type node struct {
	lit   map[string]*node
	param *node
	route *Route
}

func newRouter() *Router { return &Router{routes: map[string]*Route{}} }

func (rt *Router) add(o *Operation) error {
	r := rt.routes[o.Path]
	if r == nil {
		r = &Route{Path: o.Path, ops: map[string]*Operation{}}
		n := &rt.root
		for _, seg := range splitPath(o.Path) {
			if name, ok := paramName(seg); ok {
				r.Params = append(r.Params, name)
				if n.param == nil {
					n.param = &node{}
				}
				n = n.param
				continue
			}
			if strings.ContainsAny(seg, "{}") {
				return fmt.Errorf("path %s: segment %q mixes text and parameters, which is not supported", o.Path, seg)
			}
			if n.lit == nil {
				n.lit = map[string]*node{}
			}
			c := n.lit[seg]
			if c == nil {
				c = &node{}
				n.lit[seg] = c
			}
			n = c
		}
		if n.route != nil {
			return fmt.Errorf("paths %s and %s are the same template", n.route.Path, o.Path)
		}
		n.route = r
		rt.routes[o.Path] = r
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

// Find returns the route matching an escaped request path and the
// unescaped values of its parameters, or nil.
func (rt *Router) Find(escapedPath string) (*Route, []string) {
	if escapedPath == "" || escapedPath[0] != '/' {
		return nil, nil
	}
	var vals []string
	r := rt.root.find(escapedPath[1:], &vals)
	if r == nil {
		return nil, nil
	}
	return r, vals
}

func (n *node) find(rest string, vals *[]string) *Route {
	seg, tail, more := strings.Cut(rest, "/")
	if c := n.lit[seg]; c != nil {
		if r := c.next(tail, more, vals); r != nil {
			return r
		}
	}
	if n.param != nil && seg != "" {
		v, err := url.PathUnescape(seg)
		if err != nil {
			return nil
		}
		*vals = append(*vals, v)
		if r := n.param.next(tail, more, vals); r != nil {
			return r
		}
		*vals = (*vals)[:len(*vals)-1]
	}
	return nil
}

func (n *node) next(tail string, more bool, vals *[]string) *Route {
	if !more {
		return n.route
	}
	return n.find(tail, vals)
}

func splitPath(p string) []string { return strings.Split(strings.TrimPrefix(p, "/"), "/") }

func paramName(seg string) (string, bool) {
	if len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}' && !strings.ContainsAny(seg[1:len(seg)-1], "{}") {
		return seg[1 : len(seg)-1], true
	}
	return "", false
}

// Collection describes how a route relates to stored resources.
type Collection struct {
	// Path is the template of the collection, e.g. /plants.
	Path string
	// Item is true when the route addresses one resource of the collection
	// (/plants/{plantId}); its last parameter is the identifier.
	Item bool
}

// Collection returns the collection a route belongs to.
func (r *Route) Collection() Collection {
	segs := splitPath(r.Path)
	if _, ok := paramName(segs[len(segs)-1]); ok && len(segs) > 1 {
		return Collection{Path: "/" + strings.Join(segs[:len(segs)-1], "/"), Item: true}
	}
	return Collection{Path: r.Path}
}

// Route returns the route of a template, or nil.
func (rt *Router) Route(template string) *Route { return rt.routes[template] }
