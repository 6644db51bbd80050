package media

import (
	"bytes"
	"encoding/xml"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

const (
	xmlDecl = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	xmlNS   = "http://www.w3.org/XML/1998/namespace" // bound to the prefix xml
	xmlnsNS = "http://www.w3.org/2000/xmlns/"        // never declared
)

// appendXML appends v as an XML document, by the xml objects of s and its
// subschemas (OpenAPI's XML Object):
//
//   - The root element is named by the schema's xml.name, else its
//     component name, else "root".
//   - An object's properties are child elements in the order of members;
//     those whose schema has xml.attribute are attributes instead, their
//     value's text (the JSON text of an object or array). xml.name renames
//     either.
//   - An array property is unwrapped unless xml.wrapped: each item is an
//     element named by the items' xml.name, else the property's name (not
//     the array's xml.name, which names only the wrapping element). A root
//     array is always wrapped; its items are named by the items' xml.name,
//     else their component name, else "item".
//   - Scalars are text: a string as it is, numbers and booleans as their
//     JSON text, escaped by xml.EscapeText. Null is an empty element
//     (<name/>) and a null attribute is left out.
//   - xml.namespace declares the namespace (xmlns:prefix with xml.prefix,
//     else the default namespace, xmlns) where it is not already in scope;
//     a prefix without a namespace is used only when an enclosing element
//     declares it, and an unprefixed attribute has no namespace.
//
// Names are made valid XML names (appendName); a second attribute of the
// same name on one element is left out, so the output is always
// well-formed and namespace-well-formed.
func appendXML(dst []byte, v any, s *openapi.Schema) []byte {
	w := &xmlWriter{buf: append(dst, xmlDecl...)}
	r := resolve(s, v)
	x := xmlOf(s, r)
	name := "root"
	switch {
	case x != nil && x.Name != "":
		name = x.Name
	case s != nil && s.Name != "":
		name = s.Name
	case r != nil && r.Name != "":
		name = r.Name
	}
	item := "item"
	if r != nil && r.Items != nil && r.Items.Name != "" {
		item = r.Items.Name
	}
	w.element(name, x, v, r, item)
	return append(w.buf, '\n')
}

// xmlWriter writes one XML document.
type xmlWriter struct {
	buf   []byte
	scope []binding  // prefixes bound by the open elements, innermost last
	attrs []attrName // the attributes of the start tag being written
	cell  []byte     // scratch for the text of scalars
}

// binding binds a prefix ("" for the default namespace) to a namespace.
type binding struct{ prefix, ns string }

// attrName is an attribute written in the current start tag: its
// namespace and where its local name is in buf.
type attrName struct {
	ns         string
	start, end int
}

// Write appends p, for xml.EscapeText.
func (w *xmlWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// element writes v as an element named name, with the namespace of x;
// items of an array v are named by their xml.name, else item.
func (w *xmlWriter) element(name string, x *openapi.XML, v any, s *openapi.Schema, item string) {
	mark := len(w.scope)
	prefix, ns, declare := w.namespace(x, false, mark)
	w.buf = append(w.buf, '<')
	start := len(w.buf)
	w.buf = appendQName(w.buf, prefix, name)
	end := len(w.buf)
	if declare {
		w.declare(prefix, ns)
	}
	empty := true // <name/>
	switch val := v.(type) {
	case map[string]any:
		ms := members(val, s)
		amark := len(w.attrs)
		for _, m := range ms {
			if ax := xmlOf(m.schema, resolve(m.schema, m.value)); ax != nil && ax.Attribute {
				w.attribute(m.name, ax, m.value, mark)
			}
		}
		w.attrs = w.attrs[:amark]
		w.buf = append(w.buf, '>')
		open := len(w.buf)
		for _, m := range ms {
			if ax := xmlOf(m.schema, resolve(m.schema, m.value)); ax == nil || !ax.Attribute {
				w.member(m.name, m.value, m.schema)
			}
		}
		if empty = len(w.buf) == open; empty {
			w.buf = w.buf[:open-1]
		}
	case []any:
		if empty = len(val) == 0; !empty {
			w.buf = append(w.buf, '>')
			w.items(val, itemsOf(s), item)
		}
	case nil:
	default:
		empty = false
		w.buf = append(w.buf, '>')
		w.cell = appendCell(w.cell[:0], val)
		w.escape(w.cell)
	}
	if empty {
		w.buf = append(w.buf, "/>"...)
	} else {
		w.buf = append(w.buf, "</"...)
		w.buf = append(w.buf, w.buf[start:end]...)
		w.buf = append(w.buf, '>')
	}
	w.scope = w.scope[:mark]
}

// member writes the property name of an object: an element, or, for an
// array that is not wrapped, an element per item.
func (w *xmlWriter) member(name string, v any, ps *openapi.Schema) {
	r := resolve(ps, v)
	x := xmlOf(ps, r)
	if items, ok := v.([]any); ok && (x == nil || !x.Wrapped) {
		w.items(items, itemsOf(r), name)
		return
	}
	ename := name
	if x != nil && x.Name != "" {
		ename = x.Name
	}
	w.element(ename, x, v, r, name)
}

// items writes the items of an array as elements named by the items'
// xml.name, else name.
func (w *xmlWriter) items(items []any, is *openapi.Schema, name string) {
	for _, it := range items {
		r := resolve(is, it)
		x := xmlOf(is, r)
		iname := name
		if x != nil && x.Name != "" {
			iname = x.Name
		}
		w.element(iname, x, it, r, name)
	}
}

// attribute writes the property name as an attribute of the start tag
// being written, unless its value is null or the tag has an attribute of
// that name already.
func (w *xmlWriter) attribute(name string, x *openapi.XML, v any, mark int) {
	if v == nil {
		return
	}
	if x.Name != "" {
		name = x.Name
	}
	prefix, ns, declare := w.namespace(x, true, mark)
	if prefix == "" && name == "xmlns" {
		name = "_xmlns" // "xmlns" declares a namespace
	}
	save := len(w.buf)
	if declare {
		w.declare(prefix, ns)
	}
	w.buf = append(w.buf, ' ')
	if prefix != "" {
		w.buf = append(w.buf, prefix...)
		w.buf = append(w.buf, ':')
	}
	start := len(w.buf)
	w.buf = appendName(w.buf, name)
	end := len(w.buf)
	for _, a := range w.attrs {
		if a.ns == ns && bytes.Equal(w.buf[a.start:a.end], w.buf[start:end]) {
			w.buf = w.buf[:save]
			return
		}
	}
	if declare {
		w.scope = append(w.scope, binding{prefix, ns})
	}
	w.attrs = append(w.attrs, attrName{ns, start, end})
	w.buf = append(w.buf, '=', '"')
	w.cell = appendCell(w.cell[:0], v)
	w.escape(w.cell)
	w.buf = append(w.buf, '"')
}

// namespace returns the prefix to write a name with and its namespace,
// and whether the start tag must declare it. Elements bind their own
// prefix (or default namespace) before their attributes, so an
// attribute's prefix already bound by this start tag (the scope from
// mark) to another namespace is dropped. For elements, the binding is
// made; for attributes, the caller makes it.
func (w *xmlWriter) namespace(x *openapi.XML, attr bool, mark int) (prefix, ns string, declare bool) {
	if x == nil {
		return "", "", false
	}
	prefix, ns = x.Prefix, x.Namespace
	switch {
	case prefix == "xml":
		return prefix, xmlNS, false
	case prefix != "" && (prefix == "xmlns" || !isNCName(prefix)):
		prefix = ""
	}
	if ns == xmlNS || ns == xmlnsNS {
		ns = ""
	}
	if ns == "" {
		if prefix != "" {
			if bound, ok := w.lookup(prefix); ok {
				return prefix, bound, false
			}
		}
		return "", "", false
	}
	if prefix == "" && attr {
		return "", "", false // an unprefixed attribute has no namespace
	}
	if bound, ok := w.lookup(prefix); ok && bound == ns {
		return prefix, ns, false
	}
	for _, b := range w.scope[mark:] {
		if b.prefix == prefix {
			return "", "", false
		}
	}
	if !attr {
		w.scope = append(w.scope, binding{prefix, ns})
	}
	return prefix, ns, true
}

// lookup returns the namespace bound to prefix in scope.
func (w *xmlWriter) lookup(prefix string) (string, bool) {
	for i := len(w.scope) - 1; i >= 0; i-- {
		if w.scope[i].prefix == prefix {
			return w.scope[i].ns, true
		}
	}
	return "", false
}

// declare writes a namespace declaration in the start tag.
func (w *xmlWriter) declare(prefix, ns string) {
	w.buf = append(w.buf, " xmlns"...)
	if prefix != "" {
		w.buf = append(w.buf, ':')
		w.buf = append(w.buf, prefix...)
	}
	w.buf = append(w.buf, '=', '"')
	w.escape([]byte(ns))
	w.buf = append(w.buf, '"')
}

// escape writes text escaped by xml.EscapeText, which also escapes
// quotes and line ends, so that it serves attribute values as it does
// element text; text that needs no escaping is copied.
func (w *xmlWriter) escape(text []byte) {
	for _, c := range text {
		if c < 0x20 || c >= 0x80 || c == '<' || c == '>' || c == '&' || c == '"' || c == '\'' {
			xml.EscapeText(w, text)
			return
		}
	}
	w.buf = append(w.buf, text...)
}

// appendQName appends prefix:name, or name without a prefix.
func appendQName(dst []byte, prefix, name string) []byte {
	if prefix != "" {
		dst = append(dst, prefix...)
		dst = append(dst, ':')
	}
	return appendName(dst, name)
}

// xmlOf returns the xml object of a schema, else that of the alternative
// resolve chose.
func xmlOf(s, r *openapi.Schema) *openapi.XML {
	if s != nil && s.XML != nil {
		return s.XML
	}
	if r != nil {
		return r.XML
	}
	return nil
}

func itemsOf(s *openapi.Schema) *openapi.Schema {
	if s == nil {
		return nil
	}
	return s.Items
}
