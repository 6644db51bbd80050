package wire

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds the nesting of deepObject names (a[b][c]...).
const maxDepth = 10

// codec says how the elements of a styled value are written.
type codec struct {
	escaped bool // elements are percent-encoded
	plus    bool // '+' in elements is a space
	// list elements are those of an HTTP field list: spaces around an
	// element are dropped, and so are empty elements.
	list bool
	// bareName lets an exploded object element be a name alone, whose
	// value is empty (matrix style: ;R=100;G).
	bareName bool
}

func (c codec) text(path, raw string) (string, *Error) {
	if c.escaped {
		return decodeText(path, raw, c.plus)
	}
	if !utf8.ValidString(raw) {
		return "", &Error{Path: path, Reason: "value is not valid UTF-8"}
	}
	return raw, nil
}

// split cuts s at each sep. The empty text has no elements. With list,
// spaces and tabs around elements are dropped, and so are empty elements.
func split(s string, sep byte, list bool) []string {
	if s == "" {
		return nil
	}
	out := make([]string, 0, strings.Count(s, string(sep))+1)
	for {
		i := strings.IndexByte(s, sep)
		e := s
		if i >= 0 {
			e = s[:i]
		}
		if list {
			e = strings.Trim(e, " \t")
		}
		if e != "" || !list {
			out = append(out, e)
		}
		if i < 0 {
			return out
		}
		s = s[i+1:]
	}
}

// elements reads s as a value of the field's shape: the whole text for a
// scalar, else elements separated by sep, the items of an array or the
// names and values of an object (name=value elements when exploded).
func (f *field) elements(s string, sep byte, c codec) (any, *Error) {
	switch f.kind {
	case kindArray:
		return f.array(s, sep, c)
	case kindObject:
		return f.object(split(s, sep, c.list), c, f.explode)
	}
	text, err := c.text(f.path, s)
	if err != nil {
		return nil, err
	}
	return Coerce(text, f.shape), nil
}

// array reads the elements of s separated by sep as the items of an
// array.
func (f *field) array(s string, sep byte, c codec) (any, *Error) {
	n := 0
	if s != "" {
		n = strings.Count(s, string(sep)) + 1
	}
	out := make([]any, 0, n)
	item := f.shape.items()
	for rest, more := s, s != ""; more; {
		var e string
		if e, rest, more = cutElement(rest, sep, c.list); e == "" && c.list {
			continue
		}
		text, err := c.text(f.path, e)
		if err != nil {
			return nil, err
		}
		out = append(out, Coerce(text, item))
	}
	return out, nil
}

// cutElement returns the text of s before the first sep, the text after
// it, and whether there was a sep. With list, spaces and tabs around the
// element are dropped.
func cutElement(s string, sep byte, list bool) (elem, rest string, more bool) {
	elem = s
	if i := strings.IndexByte(s, sep); i >= 0 {
		elem, rest, more = s[:i], s[i+1:], true
	}
	if list {
		elem = strings.Trim(elem, " \t")
	}
	return elem, rest, more
}

// object reads name, value, name, value... or, exploded, name=value
// elements.
func (f *field) object(elems []string, c codec, exploded bool) (any, *Error) {
	if !exploded && len(elems)%2 == 1 {
		name, err := c.text(f.path, elems[len(elems)-1])
		if err != nil {
			return nil, err
		}
		return nil, &Error{Path: f.path, Reason: "property " + strconv.Quote(name) + " has no value"}
	}
	out := make(map[string]any, len(elems)/2+1)
	for i := 0; i < len(elems); i++ {
		var rawName, rawValue string
		if exploded {
			var ok bool
			if rawName, rawValue, ok = strings.Cut(elems[i], "="); !ok && !c.bareName {
				return nil, &Error{Path: f.path, Reason: strconv.Quote(elems[i]) + " is not a name=value pair"}
			}
		} else {
			rawName, rawValue = elems[i], elems[i+1]
			i++
		}
		name, err := c.text(f.path, rawName)
		if err != nil {
			return nil, err
		}
		text, err := c.text(f.path, rawValue)
		if err != nil {
			return nil, err
		}
		if _, dup := out[name]; dup {
			return nil, &Error{Path: f.path, Reason: "property " + strconv.Quote(name) + " is given twice"}
		}
		out[name] = Coerce(text, f.shape.property(name))
	}
	return out, nil
}

// fromPath reads the raw text the router matched for a path parameter.
// Elements are split before they are percent-decoded, so that %2C in an
// element is a comma of its text.
func (f *field) fromPath(raw string) (any, *Error) {
	c := codec{escaped: true}
	if !f.styled {
		text, err := c.text(f.path, raw)
		if err != nil {
			return nil, err
		}
		return interpret(f.path, text, f.shape, f.mode)
	}
	switch f.style {
	case styleLabel:
		if raw == "" || raw[0] != '.' {
			return nil, &Error{Path: f.path, Reason: `label style value must start with "."`}
		}
		rest, sep := raw[1:], byte('.')
		if !f.explode && strings.IndexByte(rest, ',') >= 0 {
			sep = ','
		}
		return f.elements(rest, sep, c)
	case styleMatrix:
		return f.matrix(raw, c)
	}
	return f.elements(raw, ',', c)
}

// matrix reads ;name=value, ;name=a,b,c, ;name=a;name=b (an exploded
// array) or ;R=100;G=200 (an exploded object).
func (f *field) matrix(raw string, c codec) (any, *Error) {
	if raw == "" || raw[0] != ';' {
		return nil, &Error{Path: f.path, Reason: `matrix style value must start with ";"`}
	}
	c.bareName = true
	switch {
	case f.explode && f.kind == kindObject:
		return f.object(split(raw[1:], ';', false), c, true)
	case f.explode && f.kind == kindArray:
		// ;color=a;color=b is read as the list a;b once the names are
		// checked and cut off.
		var b strings.Builder
		for rest, more := raw[1:], true; more; {
			var e string
			e, rest, more = cutElement(rest, ';', false)
			v, ok := cutName(e, f.name)
			if !ok {
				return nil, &Error{Path: f.path, Reason: "matrix element " + strconv.Quote(e) + " is not named " + strconv.Quote(f.name)}
			}
			b.WriteByte(';')
			b.WriteString(v)
		}
		return f.array(b.String()[1:], ';', c)
	}
	v, ok := cutName(raw[1:], f.name)
	if !ok {
		return nil, &Error{Path: f.path, Reason: "matrix style value must start with " + strconv.Quote(";"+f.name)}
	}
	return f.elements(v, ',', c)
}

// cutName returns the value of "name=value" or "name" (empty).
func cutName(e, name string) (string, bool) {
	if !strings.HasPrefix(e, name) {
		return "", false
	}
	if rest := e[len(name):]; rest == "" {
		return "", true
	} else if rest[0] == '=' {
		return rest[1:], true
	}
	return "", false
}

// fromHeader reads the lines of a header field, joined as one list
// (RFC 9110, section 5.3). No percent-decoding: header values are not
// URIs.
func (f *field) fromHeader(lines []string) (any, *Error) {
	text := lines[0]
	if len(lines) > 1 {
		text = strings.Join(lines, ", ")
	}
	c := codec{list: true}
	if !f.styled {
		if _, err := c.text(f.path, text); err != nil {
			return nil, err
		}
		return interpret(f.path, text, f.shape, f.mode)
	}
	return f.elements(text, ',', c)
}

// fromPairs reads a query parameter, a cookie or a field of a form body.
func (f *field) fromPairs(src *source) (any, bool, *Error) {
	switch {
	case !f.styled && !f.whole:
		return src.read(f.path, "", f.name, f.shape, f.mode)
	case !f.styled:
		raw, n := src.one(f.name)
		if n == 0 {
			return nil, false, nil
		}
		if n > 1 && !src.first {
			return nil, true, timesError(f.path, "", n)
		}
		text, err := decodeText(f.path, raw, src.plus)
		if err != nil {
			return nil, true, err
		}
		v, err := interpret(f.path, text, f.shape, f.mode)
		return v, true, err
	case f.style == styleDeep:
		return f.deepObject(src)
	case f.explode && f.kind == kindObject:
		return f.explodedObject(src)
	case f.explode:
		return src.read(f.path, "", f.name, f.shape, modeText)
	}
	raw, n := src.one(f.name)
	if n == 0 {
		return nil, false, nil
	}
	if n > 1 && !src.first {
		return nil, true, timesError(f.path, "", n)
	}
	v, err := f.delimited(raw, src.plus)
	return v, true, err
}

// timesError says that a value taking one value repeats; prop is the
// property of an object that does, or "".
func timesError(path, prop string, n int) *Error {
	what := "appears "
	if prop != "" {
		what = "property " + strconv.Quote(prop) + " appears "
	}
	return &Error{Path: path, Reason: what + strconv.Itoa(n) + " times but takes one value"}
}

// delimited reads the value of a form (explode false), spaceDelimited or
// pipeDelimited field. A form value that holds a raw comma is split
// before it is decoded, so that %2C is a comma of an element; one without
// is decoded first, so that clients encoding every comma (%2C) of a
// joined list are understood.
func (f *field) delimited(raw string, plus bool) (any, *Error) {
	c := codec{escaped: true, plus: plus}
	if f.kind != kindArray && f.kind != kindObject {
		return f.elements(raw, 0, c)
	}
	sep := byte(',')
	switch f.style {
	case styleSpace:
		sep = ' '
	case stylePipe:
		sep = '|'
	}
	if sep != ',' || strings.IndexByte(raw, ',') < 0 {
		text, err := decodeText(f.path, raw, plus)
		if err != nil {
			return nil, err
		}
		raw, c = text, codec{}
	}
	if f.kind == kindArray {
		return f.array(raw, sep, c)
	}
	return f.object(split(raw, sep, false), c, false)
}

// explodedObject reads an object whose properties are names of their own
// (R=100&G=200): its declared properties or, when it declares none, every
// name no other field claims.
func (f *field) explodedObject(src *source) (any, bool, *Error) {
	var out map[string]any
	for _, name := range f.props {
		v, ok, err := src.read(f.path, name, name, f.shape.Properties[name], modeText)
		if err != nil {
			return nil, true, err
		}
		if ok {
			if out == nil {
				out = map[string]any{}
			}
			out[name] = v
		}
	}
	if len(f.props) == 0 {
		err := src.unclaimed(f.path, f.shape, modeText, func(name string, v any) {
			if out == nil {
				out = map[string]any{}
			}
			out[name] = v
		})
		if err != nil {
			return nil, true, err
		}
	}
	if out == nil {
		return nil, false, nil
	}
	return out, true, nil
}

// deepObject reads name[key]=value pairs, nested names (name[a][b]) making
// nested objects. OpenAPI defines deepObject for objects alone and
// leaves arrays and scalars out; this reads them as the SDKs of
// form-encoded APIs send them (see docs/answers.md): an index names an
// item of an array (name[0]=a&name[1]=b, name[a][0][b]=c), empty brackets
// at the end add one (name[]=a&name[]=b), and a name alone is the value
// of an array or of a scalar its schema allows (name=a, name=a&name=b).
func (f *field) deepObject(src *source) (any, bool, *Error) {
	prefix := f.name + "["
	var idx, plain []int
	for i := range src.list {
		switch n := src.list[i].name; {
		case n == f.name:
			plain = append(plain, i)
		case strings.HasPrefix(n, prefix):
			idx = append(idx, i)
		}
	}
	if plain != nil {
		return f.deepPlain(src, plain, idx != nil)
	}
	if idx == nil {
		return nil, false, nil
	}
	sort.SliceStable(idx, func(a, b int) bool { return src.list[idx[a]].name < src.list[idx[b]].name })
	root := map[string]any{}
	var keys [maxDepth]string
	for g := 0; g < len(idx); {
		p := &src.list[idx[g]]
		h := g + 1
		for h < len(idx) && src.list[idx[h]].name == p.name {
			h++
		}
		if p.bad != "" {
			return nil, true, &Error{Path: f.path, Reason: p.bad + " in the name " + strconv.Quote(p.name)}
		}
		n, reason := deepKeys(keys[:], p.name[len(f.name):])
		if reason != "" {
			return nil, true, &Error{Path: f.path, Reason: strconv.Quote(p.name) + " " + reason}
		}
		obj, s, err := f.deepParent(root, f.shape, keys[:n-1], p.name)
		if err != nil {
			return nil, true, err
		}
		raws := make([]string, h-g)
		for i := range raws {
			raws[i] = src.list[idx[g+i]].value
		}
		if err := f.deepSet(obj, s, keys[n-1], p.name, raws, src.plus); err != nil {
			return nil, true, err
		}
		g = h
	}
	return deepArrays(root, f.shape), true, nil
}

// deepPlain reads a deepObject field written as its name alone: the items
// of an array, or a scalar its schema allows beside an object. nested
// reports whether the field has bracketed names too.
func (f *field) deepPlain(src *source, plain []int, nested bool) (any, bool, *Error) {
	s := f.shape
	scalar := s == nil || s.Types&^(Array|Object) != 0
	switch {
	case nested:
		return nil, true, &Error{Path: f.path, Reason: strconv.Quote(f.name) + " has a value and nested properties"}
	case kindOf(s) == kindArray:
	case scalar && s != nil:
		s = &Shape{Types: s.Types &^ (Array | Object)}
	case !scalar:
		return nil, true, &Error{Path: f.path, Reason: "deepObject style value must be written " + f.name + "[name]=value"}
	}
	raws := make([]string, len(plain))
	for i, at := range plain {
		raws[i] = src.list[at].value
	}
	v, err := readValues(f.path, f.name, raws, src.plus, s, modeText)
	return v, true, err
}

// deepChild is the shape of what a deepObject name's key k names under
// a value of shape s: an item of an array, else a property.
func deepChild(s *Shape, k string) *Shape {
	if kindOf(s) == kindArray {
		return s.items()
	}
	return s.property(k)
}

// deepParent returns the object that holds the value a name names, made
// along the keys before its last, and that object's shape.
func (f *field) deepParent(root map[string]any, s *Shape, keys []string, name string) (map[string]any, *Shape, *Error) {
	obj := root
	for _, k := range keys {
		s = deepChild(s, k)
		next, exists := obj[k]
		if !exists {
			m := map[string]any{}
			obj[k], obj = m, m
			continue
		}
		m, ok := next.(map[string]any)
		if !ok {
			return nil, nil, &Error{Path: f.path, Reason: strconv.Quote(name) + " nests under a property that has a value"}
		}
		obj = m
	}
	return obj, s, nil
}

// deepSet sets the value raws give to key last of obj, of shape s; empty
// brackets (last "") add each raw as the next item.
func (f *field) deepSet(obj map[string]any, s *Shape, last, name string, raws []string, plus bool) *Error {
	if last == "" {
		if k := kindOf(s); k != kindArray && k != kindAny {
			return &Error{Path: f.path, Reason: strconv.Quote(name) + " adds an item with empty brackets to what is not an array"}
		}
		for _, raw := range raws {
			v, err := readValues(f.path, name, []string{raw}, plus, deepChild(s, ""), modeText)
			if err != nil {
				return err
			}
			obj[strconv.Itoa(len(obj))] = v
		}
		return nil
	}
	if _, taken := obj[last]; taken {
		return &Error{Path: f.path, Reason: strconv.Quote(name) + " has a value and nested properties"}
	}
	v, err := readValues(f.path, name, raws, plus, deepChild(s, last), modeText)
	if err != nil {
		return err
	}
	obj[last] = v
	return nil
}

// deepArrays turns the objects of v that stand where its shape s has an
// array, and whose names are all indexes (0, 1, ...), into arrays, in
// the order of their indexes; an object whose names are not is left for
// the schema to refuse.
func deepArrays(v any, s *Shape) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if kindOf(s) != kindArray {
		for k, e := range m {
			m[k] = deepArrays(e, s.property(k))
		}
		return m
	}
	type item struct {
		at int
		v  any
	}
	items := make([]item, 0, len(m))
	for k, e := range m {
		at, err := strconv.Atoi(k)
		if err != nil || at < 0 || strconv.Itoa(at) != k {
			return m
		}
		items = append(items, item{at, deepArrays(e, s.items())})
	}
	sort.Slice(items, func(a, b int) bool { return items[a].at < items[b].at })
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it.v
	}
	return out
}

// deepKeys splits "[a][b]" into its keys, returning how many there are,
// or why the text is not a sequence of bracketed keys.
func deepKeys(keys []string, s string) (int, string) {
	n := 0
	for s != "" {
		if s[0] != '[' {
			return 0, "is not a deepObject name: text after a closing bracket"
		}
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return 0, "is not a deepObject name: a bracket is not closed"
		}
		if end == 1 && len(s) > 2 {
			return 0, "is not a deepObject name: empty brackets before a key"
		}
		if n == len(keys) {
			return 0, "nests deeper than " + strconv.Itoa(len(keys)) + " levels"
		}
		keys[n] = s[1:end]
		if strings.IndexByte(keys[n], '[') >= 0 {
			return 0, "is not a deepObject name: a bracket is not closed"
		}
		n++
		s = s[end+1:]
	}
	return n, ""
}
