package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// maxNesting bounds how deeply the values of a document may nest, so that
// a hostile document cannot exhaust the stack.
const maxNesting = 512

// parse reads a JSON or YAML document into nodes. JSON, the usual form of
// big documents, is read by a parser that makes nodes directly; YAML goes
// through the YAML library's own nodes. A document that starts with { but
// is not JSON is read as YAML (flow style), and when it is not YAML either,
// the JSON error is the one reported.
func parse(data []byte) (*node, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return parseYAML(data)
	}
	n, err := parseJSON(data)
	if err == nil {
		return n, nil
	}
	if yn, yerr := parseYAML(data); yerr == nil {
		return yn, nil
	}
	return nil, err
}

// parseJSON reads a JSON document into nodes.
func parseJSON(data []byte) (*node, error) {
	p := &jsonParser{data: data, line: 1}
	p.skip()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.skip(); p.pos < len(p.data) {
		return nil, p.fail("unexpected text after the document")
	}
	return n, nil
}

type jsonParser struct {
	data []byte
	pos  int
	line int32
}

func (p *jsonParser) fail(why string) error {
	return fmt.Errorf("line %d: %s", p.line, why)
}

func (p *jsonParser) skip() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '\n':
			p.line++
		case ' ', '\t', '\r':
		default:
			if p.pos == 0 && bytes.HasPrefix(p.data, []byte("\ufeff")) {
				p.pos += 3
				continue
			}
			return
		}
		p.pos++
	}
}

func (p *jsonParser) value(depth int) (*node, error) {
	if depth > maxNesting {
		return nil, p.fail(fmt.Sprintf("values nested deeper than %d levels", maxNesting))
	}
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end of the document")
	}
	n := &node{line: p.line}
	switch c := p.data[p.pos]; {
	case c == '{':
		p.pos++
		n.kind = objectNode
		if p.skip(); p.eat('}') {
			return n, nil
		}
		for more := true; more; {
			p.skip()
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				return nil, p.fail("expected a quoted key")
			}
			k, err := p.string()
			if err != nil {
				return nil, err
			}
			if p.skip(); !p.eat(':') {
				return nil, p.fail("expected : after a key")
			}
			p.skip()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k)
			n.vals = append(n.vals, v)
			if more, err = p.next('}', "an object"); err != nil {
				return nil, err
			}
		}
	case c == '[':
		p.pos++
		n.kind = arrayNode
		if p.skip(); p.eat(']') {
			return n, nil
		}
		for more := true; more; {
			p.skip()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
			if more, err = p.next(']', "an array"); err != nil {
				return nil, err
			}
		}
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		n.kind, n.str = stringNode, s
	case c == 't' && bytes.HasPrefix(p.data[p.pos:], []byte("true")):
		p.pos += 4
		n.kind, n.b = boolNode, true
	case c == 'f' && bytes.HasPrefix(p.data[p.pos:], []byte("false")):
		p.pos += 5
		n.kind = boolNode
	case c == 'n' && bytes.HasPrefix(p.data[p.pos:], []byte("null")):
		p.pos += 4
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.pos
		for p.pos < len(p.data) && isNumberByte(p.data[p.pos]) {
			p.pos++
		}
		lit := string(p.data[start:p.pos])
		if !jsonx.IsNumber(lit) {
			return nil, p.fail(fmt.Sprintf("malformed number %q", clipped(lit)))
		}
		n.kind, n.str = numberNode, lit
	default:
		return nil, p.fail(fmt.Sprintf("unexpected character %q", c))
	}
	return n, nil
}

// eat consumes c if it comes next.
func (p *jsonParser) eat(c byte) bool {
	if p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// next reads what follows a member of an object or an array: a comma
// (more to come) or its closing character.
func (p *jsonParser) next(closing byte, in string) (more bool, err error) {
	p.skip()
	switch {
	case p.eat(','):
		return true, nil
	case p.eat(closing):
		return false, nil
	}
	return false, p.fail(fmt.Sprintf("expected , or %c in %s", closing, in))
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// string reads a quoted string at p.pos.
func (p *jsonParser) string() (string, error) {
	start := p.pos
	p.pos++
	escaped := false
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == '"':
			p.pos++
			raw := p.data[start:p.pos]
			if !escaped {
				s := raw[1 : len(raw)-1]
				if !utf8.Valid(s) {
					return "", p.fail("a string is not valid UTF-8")
				}
				return string(s), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", p.fail("malformed string: " + err.Error())
			}
			return s, nil
		case c == '\\':
			escaped = true
			p.pos += 2
			continue
		case c < 0x20:
			return "", p.fail("control character in a string")
		}
		p.pos++
	}
	return "", p.fail("unterminated string")
}

func parseYAML(data []byte) (*node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 {
		return nil, errors.New("the document is empty")
	}
	c := &yamlConverter{seen: map[*yaml.Node]*node{}, size: map[*node]int{}}
	return c.convert(&doc, 0)
}

type yamlConverter struct {
	seen map[*yaml.Node]*node // anchored values, converted once
	size map[*node]int        // their sizes in values
	// expanded counts the values aliases stand for; it is bounded so that
	// a few aliases cannot stand for an exponential number of values.
	expanded int
}

// maxExpanded bounds the values a document's aliases may stand for.
const maxExpanded = 1 << 20

// count returns how many values n holds, itself included.
func count(n *node) int {
	c := 1
	for _, v := range n.vals {
		c += count(v)
		if c > maxExpanded {
			break
		}
	}
	return c
}

func (c *yamlConverter) convert(y *yaml.Node, depth int) (*node, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("line %d: values nested deeper than %d levels", y.Line, maxNesting)
	}
	if n, ok := c.seen[y]; ok {
		if n == nil {
			return nil, fmt.Errorf("line %d: an alias refers to a value that contains it", y.Line)
		}
		return n, nil
	}
	n := &node{line: int32(y.Line)}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return nil, errors.New("the document is empty")
		}
		return c.convert(y.Content[0], depth)
	case yaml.AliasNode:
		a, err := c.convert(y.Alias, depth+1)
		if err != nil {
			return nil, err
		}
		sz, ok := c.size[a]
		if !ok {
			sz = count(a)
			c.size[a] = sz
		}
		if c.expanded += sz; c.expanded > maxExpanded {
			return nil, fmt.Errorf("line %d: aliases stand for more than %d values", y.Line, maxExpanded)
		}
		return a, nil
	case yaml.MappingNode:
		if y.Anchor != "" {
			c.seen[y] = nil
		}
		n.kind = objectNode
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				if err := c.mergeInto(n, v, depth); err != nil {
					return nil, err
				}
				continue
			}
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a key is not a scalar", k.Line)
			}
			vn, err := c.convert(v, depth+1)
			if err != nil {
				return nil, err
			}
			setKey(n, k.Value, vn)
		}
	case yaml.SequenceNode:
		if y.Anchor != "" {
			c.seen[y] = nil
		}
		n.kind = arrayNode
		for _, e := range y.Content {
			en, err := c.convert(e, depth+1)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, en)
		}
	case yaml.ScalarNode:
		if err := scalar(y, n); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("line %d: unsupported YAML value", y.Line)
	}
	if y.Anchor != "" {
		c.seen[y] = n
	}
	return n, nil
}

// mergeInto applies a YAML merge key: keys not already set are taken from
// the merged mapping(s).
func (c *yamlConverter) mergeInto(n *node, v *yaml.Node, depth int) error {
	src, err := c.convert(v, depth+1)
	if err != nil {
		return err
	}
	var maps []*node
	switch src.kind {
	case objectNode:
		maps = []*node{src}
	case arrayNode:
		maps = src.vals
	}
	for _, m := range maps {
		for i, k := range m.keys {
			if n.get(k) == nil {
				setKey(n, k, m.vals[i])
			}
		}
	}
	return nil
}

// setKey sets key in an object being built; a repeated key keeps the last
// value, as JSON decoders do.
func setKey(n *node, key string, v *node) {
	for i, k := range n.keys {
		if k == key {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
}

// scalar converts a YAML scalar by its resolved tag.
func scalar(y *yaml.Node, n *node) error {
	switch y.ShortTag() {
	case "!!null":
		n.kind = nullNode
	case "!!bool":
		var b bool
		if err := y.Decode(&b); err != nil {
			return fmt.Errorf("line %d: %v", y.Line, err)
		}
		n.kind, n.b = boolNode, b
	case "!!int", "!!float":
		n.kind = numberNode
		if jsonx.IsNumber(y.Value) {
			n.str = y.Value
			return nil
		}
		var f float64
		if err := y.Decode(&f); err != nil {
			return fmt.Errorf("line %d: %v", y.Line, err)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			// JSON has no such numbers; keep the text.
			n.kind, n.str = stringNode, y.Value
			return nil
		}
		var i int64
		if y.ShortTag() == "!!int" && y.Decode(&i) == nil {
			n.str = strconv.FormatInt(i, 10)
			return nil
		}
		n.str = strconv.FormatFloat(f, 'g', -1, 64)
	default:
		// Strings, and timestamps and binary kept as written.
		n.kind, n.str = stringNode, y.Value
	}
	return nil
}
