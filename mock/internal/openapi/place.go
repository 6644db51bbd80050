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

// Place returns where the operation object is written: its JSON pointer
// ("/paths/~1plants/post") and line.
func (o *Operation) Place() (pointer string, line int) { return o.at.ptr, int(o.at.line) }

// Place returns where the parameter object is written, after its $ref:
// its JSON pointer and line.
func (p *Param) Place() (pointer string, line int) { return p.at.ptr, int(p.at.line) }

// Place returns where the request body object is written, after its
// $ref: its JSON pointer and line.
func (b *RequestBody) Place() (pointer string, line int) { return b.at.ptr, int(b.at.line) }

// Place returns where the response object is written, after its $ref:
// its JSON pointer and line.
func (r *Response) Place() (pointer string, line int) { return r.at.ptr, int(r.at.line) }

// Place returns where the media type object is written, after its $ref:
// its JSON pointer and line.
func (m *Media) Place() (pointer string, line int) { return m.at.ptr, int(m.at.line) }

// Place returns where the header object is written, after its $ref: its
// JSON pointer and line.
func (h *Header) Place() (pointer string, line int) { return h.at.ptr, int(h.at.line) }

// Place returns where the link object is written, after its $ref: its
// JSON pointer and line.
func (lk *Link) Place() (pointer string, line int) { return lk.at.ptr, int(lk.at.line) }

// Place returns where the example is written: the example keyword's
// value, an Example Object after its $ref, or an item of a schema's
// examples; its JSON pointer and line.
func (e *Example) Place() (pointer string, line int) { return e.at.ptr, int(e.at.line) }

// Place returns where the security scheme object is written, after its
// $ref: its JSON pointer and line.
func (s *SecurityScheme) Place() (pointer string, line int) { return s.at.ptr, int(s.at.line) }

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
