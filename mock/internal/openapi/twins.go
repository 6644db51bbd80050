package openapi

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Twin oneOf alternatives: a oneOf two of whose alternatives accept the
// same values (readme's authUnauthorized, a oneOf of two errors that
// differ only in a default) is satisfied by no value, as oneOf takes
// exactly one. The loader warns of each, and Document.Impossible names
// them, so that a judge of answers does not hold a service to it.

// twinLimit bounds the text written for one alternative: alternatives
// larger than that are taken as different (twins seen so far are small
// errors). It keeps the check cheap on documents with many large oneOfs:
// on GitHub's description (11 MB) the whole check took a median 14 ms
// (9-34 ms over five loads, on a busy 2-core machine), of about 1.2 s of
// CPU for the load; with 16 KiB it took 17-29 ms.
const twinLimit = 1 << 12

// twinDepth bounds the references followed inside an alternative; past
// it a reference is compared by its text.
const twinDepth = 8

// annotations are the keywords that do not change what a schema accepts.
var annotations = map[string]bool{
	"title": true, "description": true, "default": true, "example": true, "examples": true,
	"deprecated": true, "externalDocs": true, "$comment": true, "xml": true, "discriminator": true,
}

// twins warns of each schema whose oneOf has two alternatives that accept
// the same values (the same keywords once references are followed and
// annotations left out), and records it in the document's Impossible.
func (l *loader) twins() {
	for _, s := range l.schemas.all {
		one := s.src.get("oneOf")
		if one == nil || one.kind != arrayNode || len(one.vals) < 2 {
			continue
		}
		seen := map[string]int{}
		for i, alt := range one.vals {
			text, ok := l.canonical(alt, 0)
			if !ok {
				continue
			}
			j, dup := seen[text]
			if !dup {
				seen[text] = i
				continue
			}
			where := s.Where() + "/oneOf"
			if l.doc.Impossible == nil {
				l.doc.Impossible = map[string]string{}
			}
			if _, done := l.doc.Impossible[where]; done {
				break
			}
			l.doc.Impossible[where] = fmt.Sprintf("oneOf alternatives %d and %d accept the same values", j, i)
			l.warn("twins", at(s.ptr, s.src), fmt.Sprintf("no value satisfies the schema: its oneOf alternatives %d and %d accept the same values, and oneOf takes exactly one; answers with it break it", j, i))
			break
		}
	}
}

// canonical writes what a schema node accepts as text, keys sorted,
// annotations and x- extensions left out, references followed; false
// when it is larger than twinLimit or a reference cannot be followed.
func (l *loader) canonical(n *node, depth int) (string, bool) {
	var b strings.Builder
	ok := l.writeCanonical(&b, n, asSchema, depth)
	return b.String(), ok && b.Len() <= twinLimit
}

// nodeRole is what a node is to writeCanonical: a schema, an object whose
// values are schemas (properties), or a plain value (enum, const).
type nodeRole uint8

const (
	asValue nodeRole = iota
	asSchema
	asSchemas
)

// schemaMaps are the keywords whose values map names to schemas; their
// names are not keywords, so none is left out as an annotation.
var schemaMaps = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}

// valueKeywords are the keywords whose values are no schemas.
var valueKeywords = map[string]bool{"enum": true, "const": true, "required": true, "type": true, "dependentRequired": true, "format": true, "pattern": true}

func (l *loader) writeCanonical(b *strings.Builder, n *node, role nodeRole, depth int) bool {
	if b.Len() > twinLimit {
		return false
	}
	switch {
	case n == nil:
		b.WriteString("null")
	case role == asSchema && n.kind == objectNode && n.has("$ref"):
		ref := n.get("$ref").text()
		if depth >= twinDepth {
			b.WriteString(strconv.Quote("$ref " + ref))
			return true
		}
		target, _, err := l.resolve(ref, "", n)
		if err != nil {
			return false
		}
		return l.writeCanonical(b, target, asSchema, depth+1)
	case n.kind == objectNode:
		keys := make([]int, 0, len(n.keys))
		for i, k := range n.keys {
			if role != asSchema || !annotations[k] && !strings.HasPrefix(k, "x-") {
				keys = append(keys, i)
			}
		}
		sort.Slice(keys, func(a, c int) bool { return n.keys[keys[a]] < n.keys[keys[c]] })
		b.WriteByte('{')
		for _, i := range keys {
			k := n.keys[i]
			sub := asValue
			switch {
			case role == asSchemas:
				sub = asSchema
			case role == asSchema && schemaMaps[k]:
				sub = asSchemas
			case role == asSchema && !valueKeywords[k]:
				sub = asSchema
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			if !l.writeCanonical(b, n.vals[i], sub, depth) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case n.kind == arrayNode:
		b.WriteByte('[')
		for _, v := range n.vals {
			if !l.writeCanonical(b, v, role, depth) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteByte(']')
	default:
		b.WriteString(strconv.Quote(fmt.Sprint(n.kind, ":", n.str, n.b)))
	}
	return true
}
