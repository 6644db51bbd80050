package openapi

import (
	"net/url"
	"strings"
)

// Link is a link of a response (OpenAPI's Link Object): the operation
// an answer leads to, and the values of that operation's parameters.
type Link struct {
	Name         string
	OperationID  string // the target's operationId, or ""
	OperationRef string // a reference to the target, as written, or ""
	// Parameters are the target's parameter values by name ("id", or
	// "path.id" where names are shared): a runtime expression such as
	// "$response.body#/id" (Evaluate), or a constant.
	Parameters map[string]any
	place      // where it is written: see Place
}

// links reads a response's links. A link that is not an object, or
// whose $ref cannot be followed, is left out: nothing the mock serves
// depends on links.
func (l *loader) links(n *node, ptr string) []Link {
	ls := n.get("links")
	if !ls.isObject() {
		return nil
	}
	var out []Link
	for i, name := range ls.keys {
		ln, lptr, err := l.deref(ls.vals[i], child(child(ptr, "links"), name))
		if err != nil || !ln.isObject() {
			continue
		}
		lk := Link{Name: name, OperationID: ln.get("operationId").text(), OperationRef: ln.get("operationRef").text(), place: placeOf(lptr, ln)}
		if ps := ln.get("parameters"); ps.isObject() {
			lk.Parameters = make(map[string]any, len(ps.keys))
			for j, k := range ps.keys {
				lk.Parameters[k] = ps.vals[j].value()
			}
		}
		out = append(out, lk)
	}
	return out
}

// LinkTarget returns the operation lk leads to: the one of its
// operationId, else the one its operationRef points at within the
// document ("#/paths/~1things~1{id}/get", or a URL ending in such a
// fragment); nil when neither names an operation of the document.
func (d *Document) LinkTarget(lk Link) *Operation {
	if lk.OperationID != "" {
		for _, o := range d.Operations {
			if o.ID == lk.OperationID {
				return o
			}
		}
		return nil
	}
	_, frag, ok := strings.Cut(lk.OperationRef, "#")
	if !ok {
		return nil
	}
	ptr, err := url.PathUnescape(frag)
	if err != nil {
		return nil
	}
	toks := strings.Split(ptr, "/")
	if len(toks) != 4 || toks[0] != "" || toks[1] != "paths" {
		return nil
	}
	path, method := unescapeToken(toks[2]), strings.ToUpper(toks[3])
	for _, o := range d.Operations {
		if o.Path == path && o.Method == method {
			return o
		}
	}
	return nil
}
