package verify

import (
	"net/url"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// formatAssertion is the JSON Schema 2020-12 vocabulary that makes
// format a rule values must keep, not an annotation.
const formatAssertion = "https://json-schema.org/draft/2020-12/vocab/format-assertion"

// places is the document as written, read again for what the model of
// package openapi does not keep: the line of each place (for the
// annotations of --format github), the deprecated flags, the dialect.
// Nil when the document cannot be read as YAML (then no line is known).
type places struct {
	root *yaml.Node
}

// newPlaces reads spec as YAML (JSON is YAML too).
func newPlaces(spec []byte) *places {
	var doc yaml.Node
	if yaml.Unmarshal(spec, &doc) != nil || len(doc.Content) == 0 {
		return &places{}
	}
	return &places{root: doc.Content[0]}
}

// get returns the value of key in a mapping node, nil when none.
func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// deref follows n's local $ref (#/...), a few at most; n itself when it
// has none.
func (p *places) deref(n *yaml.Node) *yaml.Node {
	for range 8 {
		ref := get(n, "$ref")
		if ref == nil || !strings.HasPrefix(ref.Value, "#") {
			return n
		}
		t, _ := p.walk(ref.Value, false)
		if t == nil {
			return n
		}
		n = t
	}
	return n
}

// walk follows a JSON pointer fragment ("#/paths/~1items/get") from the
// root, through local references. It returns the node the pointer names
// and true, or the deepest node it reached and false.
func (p *places) walk(ptr string, follow bool) (*yaml.Node, bool) {
	n, _, ok := p.walkKey(ptr, follow)
	return n, ok
}

// walkKey is walk, also returning the key the node is the value of
// (nil for an array's item or the root).
func (p *places) walkKey(ptr string, follow bool) (n, key *yaml.Node, ok bool) {
	if p == nil || p.root == nil {
		return nil, nil, false
	}
	ptr = strings.TrimPrefix(ptr, "#")
	if u, err := url.PathUnescape(ptr); err == nil {
		ptr = u
	}
	n = p.root
	if ptr == "" {
		return n, nil, true
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if follow {
			n = p.deref(n)
		}
		var next, nextKey *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == tok {
					next, nextKey = n.Content[i+1], n.Content[i]
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				if tok == strconv.Itoa(i) {
					next = c
				}
			}
		}
		if next == nil {
			return n, key, false
		}
		n, key = next, nextKey
	}
	return n, key, true
}

// line returns the line of the place ptr names (its key's, for a
// value of an object), or of the nearest place above it the document
// has (a keyword's schema, when the keyword is inherited); 0 when the
// document cannot be read.
func (p *places) line(ptr string) int {
	n, key, _ := p.walkKey(ptr, false)
	switch {
	case key != nil:
		return key.Line
	case n != nil:
		return n.Line
	}
	return 0
}

// flag reports whether the place ptr names, its references followed,
// sets key to true.
func (p *places) flag(ptr, key string) bool {
	n, ok := p.walk(ptr, true)
	if !ok {
		return false
	}
	v := get(p.deref(n), key)
	return v != nil && v.Kind == yaml.ScalarNode && v.Value == "true"
}

// assertsFormats reports whether the document's dialect asserts
// formats: an OpenAPI 3.1 document whose jsonSchemaDialect, or the
// $schema of one of its schemas, is the format-assertion vocabulary or a
// meta-schema in the document (by its $id) whose $vocabulary lists it. A
// meta-schema elsewhere is not fetched: verify sends requests only to
// the target.
func (p *places) assertsFormats() bool {
	if p == nil || p.root == nil {
		return false
	}
	if v := get(p.root, "openapi"); v == nil || !strings.HasPrefix(v.Value, "3.1") {
		return false
	}
	dialects := map[string]bool{}
	if d := get(p.root, "jsonSchemaDialect"); d != nil && d.Value != "" {
		dialects[d.Value] = true
	}
	asserting := map[string]bool{formatAssertion: true}
	var visit func(n *yaml.Node, depth int)
	visit = func(n *yaml.Node, depth int) {
		if n == nil || depth > 64 {
			return
		}
		if n.Kind == yaml.MappingNode {
			if s := get(n, "$schema"); s != nil && s.Kind == yaml.ScalarNode {
				dialects[s.Value] = true
			}
			if id, voc := get(n, "$id"), get(n, "$vocabulary"); id != nil && get(voc, formatAssertion) != nil {
				asserting[id.Value] = true
			}
		}
		for _, c := range n.Content {
			visit(c, depth+1)
		}
	}
	visit(p.root, 0)
	for d := range dialects {
		if asserting[d] || asserting[strings.TrimSuffix(d, "#")] {
			return true
		}
	}
	return false
}
