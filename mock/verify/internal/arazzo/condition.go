package arazzo

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// A simple condition (Arazzo's Criterion Object, "Literals" and
// "Operators"): literals (true, false, null, numbers, 'strings' with ''
// for a quote), runtime expressions, ==, !=, <, <=, >, >=, !, &&, ||,
// parentheses, [index] and .property. Comparisons are loose: strings
// compare without regard to case, a number and a numeric string as
// numbers, null equals only null; a value a runtime expression does not
// find is null.

// node is a simple condition, parsed.
type node interface{}

type (
	literal struct{ v any }
	exprRef struct{ e *expr }
	not     struct{ x node }
	binary  struct {
		op   string
		l, r node
	}
	index struct {
		x   node
		key string
	}
)

// token is a piece of a condition.
type token struct {
	kind string // lit, expr, op, name, end
	text string
	v    any
}

// lex cuts a condition into tokens.
func lex(s string) ([]token, error) {
	var out []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '$':
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r=!<>&|()[]", rune(s[j])) {
				j++
			}
			out = append(out, token{kind: "expr", text: s[i:j]})
			i = j
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(s) {
					return nil, fmt.Errorf("the string at %d has no closing quote", i)
				}
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			out = append(out, token{kind: "lit", text: s[i : j+1], v: b.String()})
			i = j + 1
		case strings.HasPrefix(s[i:], "==") || strings.HasPrefix(s[i:], "!=") || strings.HasPrefix(s[i:], "<=") ||
			strings.HasPrefix(s[i:], ">=") || strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||"):
			out = append(out, token{kind: "op", text: s[i : i+2]})
			i += 2
		case strings.ContainsRune("<>!()[].", rune(c)):
			out = append(out, token{kind: "op", text: string(c)})
			i++
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(s) && strings.ContainsRune("0123456789.eE+-", rune(s[j])) {
				j++
			}
			if !jsonx.IsNumber(s[i:j]) {
				return nil, fmt.Errorf("%q is not a number", s[i:j])
			}
			out = append(out, token{kind: "lit", text: s[i:j], v: json.Number(s[i:j])})
			i = j
		case isNameByte(c):
			j := i
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			w := s[i:j]
			switch w {
			case "true", "false":
				out = append(out, token{kind: "lit", text: w, v: w == "true"})
			case "null":
				out = append(out, token{kind: "lit", text: w})
			default:
				out = append(out, token{kind: "name", text: w})
			}
			i = j
		default:
			return nil, fmt.Errorf("unexpected %q", string(c))
		}
	}
	return append(out, token{kind: "end"}), nil
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parser parses tokens by precedence: ||, &&, comparisons, !, then
// [index] and .property after a value.
type parser struct {
	toks []token
	at   int
}

// parseCondition parses a simple condition.
func parseCondition(s string) (node, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != "end" {
		return nil, fmt.Errorf("unexpected %q", t.text)
	}
	return n, nil
}

func (p *parser) peek() token { return p.toks[p.at] }
func (p *parser) next() token { t := p.toks[p.at]; p.at++; return t }

func (p *parser) or() (node, error) {
	l, err := p.and()
	for err == nil && p.peek().text == "||" && p.peek().kind == "op" {
		p.next()
		var r node
		if r, err = p.and(); err == nil {
			l = binary{"||", l, r}
		}
	}
	return l, err
}

func (p *parser) and() (node, error) {
	l, err := p.compare()
	for err == nil && p.peek().text == "&&" && p.peek().kind == "op" {
		p.next()
		var r node
		if r, err = p.compare(); err == nil {
			l = binary{"&&", l, r}
		}
	}
	return l, err
}

func (p *parser) compare() (node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	switch t := p.peek(); t.text {
	case "==", "!=", "<", "<=", ">", ">=":
		if t.kind != "op" {
			return l, nil
		}
		p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		return binary{t.text, l, r}, nil
	}
	return l, nil
}

func (p *parser) unary() (node, error) {
	if t := p.peek(); t.kind == "op" && t.text == "!" {
		p.next()
		x, err := p.unary()
		return not{x}, err
	}
	return p.postfix()
}

func (p *parser) postfix() (node, error) {
	x, err := p.primary()
	for err == nil {
		t := p.peek()
		switch {
		case t.kind == "op" && t.text == "[":
			p.next()
			k := p.next()
			if k.kind != "lit" || k.v == nil {
				return nil, fmt.Errorf("want an index or a 'name' in [], not %q", k.text)
			}
			if e := p.next(); e.text != "]" {
				return nil, fmt.Errorf("want ] after [%s", k.text)
			}
			x = index{x, text(k.v)}
		case t.kind == "op" && t.text == ".":
			p.next()
			k := p.next()
			if k.kind != "name" && k.kind != "lit" {
				return nil, fmt.Errorf("want a property name after ., not %q", k.text)
			}
			x = index{x, k.text}
		default:
			return x, nil
		}
	}
	return nil, err
}

func (p *parser) primary() (node, error) {
	t := p.next()
	switch t.kind {
	case "lit":
		return literal{t.v}, nil
	case "expr":
		e, err := parseExpr(t.text)
		if err != nil {
			return nil, err
		}
		return exprRef{e}, nil
	case "op":
		if t.text == "(" {
			n, err := p.or()
			if err != nil {
				return nil, err
			}
			if c := p.next(); c.text != ")" {
				return nil, errors.New("want ) to close (")
			}
			return n, nil
		}
	case "end":
		return nil, errors.New("the condition ends too soon")
	}
	return nil, fmt.Errorf("unexpected %q", t.text)
}

// evaluation is what evaluating a condition saw: the value of each
// runtime expression, for saying why it failed.
type evaluation struct {
	sc   *scope
	seen []string
}

// eval evaluates n.
func (ev *evaluation) eval(n node) (any, error) {
	switch x := n.(type) {
	case literal:
		return x.v, nil
	case exprRef:
		v, found, err := ev.sc.eval(x.e)
		if err != nil {
			return nil, err
		}
		shown := "null (not there)"
		if found {
			shown = clipped(text(v), 80)
			if _, isString := v.(string); isString {
				shown = strconv.Quote(clipped(v.(string), 80))
			}
		}
		ev.note(x.e.text + " = " + shown)
		return v, nil
	case index:
		v, err := ev.eval(x.x)
		if err != nil {
			return nil, err
		}
		r, _ := property(v, x.key)
		return r, nil
	case not:
		v, err := ev.eval(x.x)
		if err != nil {
			return nil, err
		}
		b, err := truth(v)
		return !b, err
	case binary:
		l, err := ev.eval(x.l)
		if err != nil {
			return nil, err
		}
		switch x.op {
		case "&&", "||":
			lb, err := truth(l)
			if err != nil {
				return nil, err
			}
			if lb == (x.op == "||") {
				return lb, nil
			}
			r, err := ev.eval(x.r)
			if err != nil {
				return nil, err
			}
			return truth(r)
		}
		r, err := ev.eval(x.r)
		if err != nil {
			return nil, err
		}
		return compare(x.op, l, r)
	}
	return nil, fmt.Errorf("cannot evaluate %T", n)
}

func (ev *evaluation) note(s string) {
	for _, o := range ev.seen {
		if o == s {
			return
		}
	}
	ev.seen = append(ev.seen, s)
}

// truth is a value as a condition: true or false; null is false, and
// anything else is an error.
func truth(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case nil:
		return false, nil
	}
	return false, fmt.Errorf("%s is not true or false", clipped(text(v), 80))
}

// compare compares two values loosely (see the comment at the top).
func compare(op string, l, r any) (bool, error) {
	if l == nil || r == nil {
		switch op {
		case "==":
			return l == nil && r == nil, nil
		case "!=":
			return !(l == nil && r == nil), nil
		}
		return false, nil // null has no order
	}
	c, ordered, err := order(l, r)
	if err != nil {
		return false, err
	}
	switch op {
	case "==":
		return c == 0, nil
	case "!=":
		return c != 0, nil
	}
	if !ordered {
		return false, fmt.Errorf("%s and %s have no order", clipped(text(l), 40), clipped(text(r), 40))
	}
	switch op {
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	}
	return c >= 0, nil
}

// order compares l and r: -1, 0 or 1, and whether the two have an order
// (numbers and strings do; for others only 0 or 1 is said).
func order(l, r any) (int, bool, error) {
	ln, lIsNum := l.(json.Number)
	rn, rIsNum := r.(json.Number)
	ls, lIsStr := l.(string)
	rs, rIsStr := r.(string)
	switch {
	case lIsNum && rIsStr && jsonx.IsNumber(strings.TrimSpace(rs)):
		rn, rIsNum = json.Number(strings.TrimSpace(rs)), true
	case rIsNum && lIsStr && jsonx.IsNumber(strings.TrimSpace(ls)):
		ln, lIsNum = json.Number(strings.TrimSpace(ls)), true
	}
	switch {
	case lIsNum && rIsNum:
		a, err1 := jsonx.ReadNumber(ln.String())
		b, err2 := jsonx.ReadNumber(rn.String())
		if err1 != nil || err2 != nil {
			return 0, false, fmt.Errorf("cannot compare %s and %s", ln, rn)
		}
		return jsonx.Cmp(a, b), true, nil
	case lIsStr && rIsStr:
		return strings.Compare(strings.ToLower(ls), strings.ToLower(rs)), true, nil
	}
	lb, lIsBool := l.(bool)
	if lIsBool && rIsStr {
		return boolInt(!strings.EqualFold(strconv.FormatBool(lb), rs)), false, nil
	}
	rb, rIsBool := r.(bool)
	if rIsBool && lIsStr {
		return boolInt(!strings.EqualFold(strconv.FormatBool(rb), ls)), false, nil
	}
	return boolInt(string(jsonx.Marshal(l)) != string(jsonx.Marshal(r))), false, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// clipped shortens s to n bytes for a message.
func clipped(s string, n int) string {
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
}
