package openapi

import (
	"encoding/json"
	"strconv"
	"strings"
)

// kind is the JSON type of a node.
type nodeKind uint8

const (
	nullNode nodeKind = iota
	boolNode
	numberNode
	stringNode
	arrayNode
	objectNode
)

// node is one value of the document as written: objects keep their keys in
// document order, numbers keep their literal, and every value knows its
// line. The document is read into nodes once; the model and the compiled
// schemas are built from them.
type node struct {
	kind nodeKind
	b    bool
	line int32
	str  string // a string, or a number's literal
	keys []string
	vals []*node // object values, or array items
	idx  map[string]int
}

// get returns the value of key in an object, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != objectNode {
		return nil
	}
	if len(n.keys) > 16 {
		if n.idx == nil {
			n.idx = make(map[string]int, len(n.keys))
			for i := len(n.keys) - 1; i >= 0; i-- {
				n.idx[n.keys[i]] = i
			}
		}
		if i, ok := n.idx[key]; ok {
			return n.vals[i]
		}
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// has reports whether an object has key.
func (n *node) has(key string) bool { return n.get(key) != nil }

// text returns a string value, or "".
func (n *node) text() string {
	if n == nil || n.kind != stringNode {
		return ""
	}
	return n.str
}

// flag returns a boolean value, or def when n is not a boolean.
func (n *node) flag(def bool) bool {
	if n == nil || n.kind != boolNode {
		return def
	}
	return n.b
}

// integer returns an integer value and whether n is one.
func (n *node) integer() (int64, bool) {
	if n == nil || n.kind != numberNode {
		return 0, false
	}
	if i, err := strconv.ParseInt(n.str, 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(n.str, 64)
	if err != nil || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// float returns a number value and whether n is one.
func (n *node) float() (float64, bool) {
	if n == nil || n.kind != numberNode {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.str, 64)
	return f, err == nil
}

// isObject reports whether n is an object.
func (n *node) isObject() bool { return n != nil && n.kind == objectNode }

// value converts n into a plain JSON value: map[string]any, []any, string,
// json.Number, bool or nil.
func (n *node) value() any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case boolNode:
		return n.b
	case numberNode:
		return json.Number(n.str)
	case stringNode:
		return n.str
	case arrayNode:
		out := make([]any, len(n.vals))
		for i, v := range n.vals {
			out[i] = v.value()
		}
		return out
	case objectNode:
		out := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			out[k] = n.vals[i].value()
		}
		return out
	}
	return nil
}

// pointer resolves an unescaped JSON pointer ("/components/schemas/Pet")
// from n, or returns nil.
func (n *node) pointer(ptr string) *node {
	if ptr == "" {
		return n
	}
	if ptr[0] != '/' {
		return nil
	}
	cur := n
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapeToken(tok)
		switch {
		case cur == nil:
			return nil
		case cur.kind == objectNode:
			cur = cur.get(tok)
		case cur.kind == arrayNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.vals) || (len(tok) > 1 && tok[0] == '0') {
				return nil
			}
			cur = cur.vals[i]
		default:
			return nil
		}
	}
	return cur
}

func unescapeToken(tok string) string {
	if !strings.Contains(tok, "~") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// PointerToken escapes tok as a token of a JSON pointer (RFC 6901 3):
// "~" as "~0", "/" as "~1".
func PointerToken(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// child returns the JSON pointer of key under ptr.
func child(ptr, key string) string { return ptr + "/" + PointerToken(key) }
