package openapi

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestParse checks what the document reader makes of JSON and YAML, and
// its errors on malformed input, each with its line.
func TestParse(t *testing.T) {
	deep := strings.Repeat("[", maxNesting+2) + strings.Repeat("]", maxNesting+2)
	var bomb strings.Builder
	bomb.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h"} {
		fmt.Fprintf(&bomb, "%s: &%s [%s*%s]\n", n, n, strings.Repeat("*"+prev+", ", 9), prev)
		prev = n
	}
	tests := []struct {
		name, doc, want string // want: the value as JSON, or the error
	}{
		{"JSON keeps key order and literals", `{"b": 1.0, "a": [true, null, "x\u00e9"], "c": -2e3}`, `{"b":1.0,"a":[true,null,"xé"],"c":-2e3}`},
		{"YAML numbers, booleans and keys", "b: 010\na: [yes, true, ~, 0x1F, 1_000, 2.50]\n200: ok\n", `{"b":8,"a":["yes",true,null,31,1000,2.50],"200":"ok"}`},
		{"YAML merge keys", "base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n", `{"base":{"x":1,"y":2},"d":{"x":1,"y":3}}`},
		{"YAML flow style that starts like JSON", "{a: 1, b: [x]}", `{"a":1,"b":["x"]}`},
		{"not JSON but flow-style YAML", `{"a": 01, "b": 1e}`, `{"a":1,"b":"1e"}`},
		{"neither JSON nor YAML: the JSON error", "{\n\"a\": [1, 2", "line 2: expected , or ] in an array"},
		{"JSON: a number with a bad exponent", "{\n\"a\": 1e}", "line 2: malformed number \"1e\""},
		{"JSON: a leading zero", `{"a": 01}`, "line 1: malformed number \"01\""},
		{"JSON: a missing comma", "{\"a\": 1\n \"b\": 2}", "line 2: expected , or } in an object"},
		{"JSON: a missing colon", `{"a" 1}`, "line 1: expected : after a key"},
		{"JSON: an unterminated array", `{"a": [1, 2`, "line 1: expected , or ] in an array"},
		{"JSON: text after the document", `{"a": 1} x`, "line 1: unexpected text after the document"},
		{"JSON: a control character in a string", "{\"a\": \"x\ty\"}", "line 1: control character in a string"},
		{"JSON: values nested too deep", `{"a": ` + deep + `}`, fmt.Sprintf("line 1: values nested deeper than %d levels", maxNesting)},
		{"an alias bomb", bomb.String(), fmt.Sprintf("line 6: aliases stand for more than %d values", maxExpanded)},
		{"an empty document", "", "the document is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := parse
			if strings.HasPrefix(tt.name, "JSON: ") {
				read = parseJSON
			}
			n, err := read([]byte(tt.doc))
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = string(mustJSON(t, n))
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// mustJSON writes nodes as compact JSON, keys in document order and
// numbers as written.
func mustJSON(t *testing.T, n *node) []byte {
	t.Helper()
	var b strings.Builder
	var write func(n *node)
	write = func(n *node) {
		switch n.kind {
		case nullNode:
			b.WriteString("null")
		case boolNode:
			fmt.Fprint(&b, n.b)
		case numberNode:
			b.WriteString(n.str)
		case stringNode:
			fmt.Fprintf(&b, "%q", n.str)
		case arrayNode:
			b.WriteByte('[')
			for i, v := range n.vals {
				if i > 0 {
					b.WriteByte(',')
				}
				write(v)
			}
			b.WriteByte(']')
		case objectNode:
			b.WriteByte('{')
			for i, k := range n.keys {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%q:", k)
				write(n.vals[i])
			}
			b.WriteByte('}')
		}
	}
	write(n)
	return []byte(b.String())
}

// FuzzLoad checks that no document makes Load panic or hang, and that a
// document Load accepts loads again the same, with the same mistakes.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a/{b}.json:\n    get: {parameters: [{name: b, in: path, required: true, schema: {type: string}}], responses: {'200': {description: ok}}}\n",
		`{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/x": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/N"}}}}, "responses": {"200": {"description": "ok"}}}}}, "components": {"schemas": {"N": {"type": "object", "nullable": true, "properties": {"n": {"$ref": "#/components/schemas/N"}}}}}}`,
		"openapi: 3.1.0\ncomponents:\n  schemas:\n    A: {allOf: [{$ref: '#/components/schemas/A'}]}\n",
		"swagger: '2.0'\n",
		"openapi: 3.0.3\npaths:\n  x-root: /api\n  /a:\n    get: {parameters: [{in: query, schema: {type: file, pattern: 12}}, {name: q, in: query, schema: {pattern: '[a-', properties: {x: 3}}}], responses: {'200': {description: ok}}}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Load(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
			return
		}
		d2, err := Load(data)
		if err != nil || len(d2.Operations) != len(d.Operations) || len(d2.Warnings) != len(d.Warnings) || !slices.Equal(d2.Mistakes, d.Mistakes) {
			t.Errorf("second load differs: %v", err)
		}
	})
}
