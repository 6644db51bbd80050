package openapi

// place is where a piece of the document is written: its JSON pointer
// (unescaped tokens escaped again, without the leading #) and its line,
// 0 when the document gave none. The loader notes it as it reads
// operations, parameters, bodies, responses, media types, headers, links
// and examples, for tools that name both ends of a change (package
// diff).
type place struct {
	ptr  string
	line int32
}

// placeOf is the place of node n at ptr.
func placeOf(ptr string, n *node) place {
	p := place{ptr: ptr}
	if n != nil {
		p.line = n.line
	}
	return p
}

// Place returns where the piece is written, after its $ref: its JSON
// pointer ("/paths/~1plants/post") and line. An example's is the
// example keyword's value, an Example Object, or an item of a schema's
// examples.
func (p place) Place() (pointer string, line int) { return p.ptr, int(p.line) }

// PropertyPlace returns where property name is declared in the
// schema's own text, under properties, as a JSON pointer and line: the
// declaration, not the schema a $ref in it leads to. It returns "" for
// a property the text does not declare (one an allOf member gave it).
func (s *Schema) PropertyPlace(name string) (pointer string, line int) {
	if s == nil {
		return "", 0
	}
	v := s.src.get("properties").get(name)
	if v == nil {
		return "", 0
	}
	return child(child(s.ptr, "properties"), name), int(v.line)
}

// Place returns where keyword is written in the schema's own text
// ("maxLength", "enum"), as a JSON pointer and line; where the schema is
// when its text lacks the keyword (one an allOf member gave it, say) or
// keyword is "".
func (s *Schema) Place(keyword string) (pointer string, line int) {
	if s == nil {
		return "", 0
	}
	if keyword != "" {
		if k := s.src.get(keyword); k != nil {
			return child(s.ptr, keyword), int(k.line)
		}
	}
	if s.src == nil {
		return s.ptr, 0
	}
	return s.ptr, int(s.src.line)
}
