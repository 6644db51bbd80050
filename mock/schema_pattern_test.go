package mock

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/regex"
)

// ecmaPatterns are patterns of public API descriptions that Go's RE2
// refuses, by the property that has each in ecmaSpec.
var ecmaPatterns = map[string]string{
	"lookahead":  `^(?!aws:)[a-zA-Z+-=._:/]+$`,
	"lookbehind": `^[0-9A-Za-z\.\-_]*(?<!\.)$`,
	"hostname":   `(?=^.{3,63}$)(?!^(\d+\.)+\d+$)(^(([a-z0-9]|[a-z0-9][a-z0-9\-]*[a-z0-9])\.)*([a-z0-9]|[a-z0-9][a-z0-9\-]*[a-z0-9])$)`,
	"backref":    `^(?!.*?(.)\1{3})[-_!@#$a-zA-Z0-9]*$`,
	"escapes":    `[\u0009\u000A\u000D\u0020-\u00FF]*`,
	"arn":        `^arn:aws:iam::\d{12}:user(?:(\u002F)|(\u002F[\u0021-\u007E]+\u002F))[\w+=,.@-]+$`,
	"any":        `^.{0,262144}$`,
	"alnum":      `^[a-zA-Z0-9]{0,4096}$`,
	"nonspace":   `\S{1,8192}`,
}

// ecmaSpec has a body whose properties each have one of ecmaPatterns,
// a pattern of another dialect and one no engine reads, an object whose
// property names must match a lookahead, and an answer made of the
// patterned properties.
func ecmaSpec() string {
	var props strings.Builder
	for _, name := range []string{"lookahead", "lookbehind", "hostname", "backref", "escapes", "arn", "any", "alnum", "nonspace"} {
		props.WriteString("        " + name + ": {type: string, pattern: '" + ecmaPatterns[name] + "'}\n")
	}
	return `openapi: 3.1.0
info: {title: patterns, version: '1'}
paths:
  /things:
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Thing'}
      responses:
        '204': {description: stored}
    get:
      responses:
        '200':
          description: a thing
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
  /names:
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, patternProperties: {'^(?!x-)[a-z-]+$': {type: integer}}, additionalProperties: false}
      responses:
        '204': {description: stored}
components:
  schemas:
    Thing:
      type: object
      required: [lookahead, lookbehind, hostname, backref, escapes, arn, any, alnum, nonspace]
      properties:
` + props.String() + `        print: {type: string, pattern: '\p{Print}+'}
        broken: {type: string, pattern: '^[a-z'}
`
}

// TestECMAPatterns sends values that match each pattern of ecmaPatterns
// and values that do not to a mock over loopback, and checks that the
// patterns no engine reads are left out, as mistakes of the document.
func TestECMAPatterns(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(ecmaSpec())})
	wantMistakes := []string{
		`#/components/schemas/Thing/properties/print/pattern (line 44): pattern: "\\p{Print}+" is not an ECMA-262 regular expression (unknown unicode category, script, or property 'Print' in ` + "`\\p{Print}+`" + `): the keyword is left out of the schema`,
		`#/components/schemas/Thing/properties/broken/pattern (line 45): pattern: "^[a-z" is not an ECMA-262 regular expression (unterminated [] set in ` + "`^[a-z`" + `): the keyword is left out of the schema`,
	}
	if got := s.Mistakes(); !reflect.DeepEqual(got, wantMistakes) {
		t.Errorf("mistakes = %q\nwant       %q", got, wantMistakes)
	}
	if got := s.Warnings(); len(got) != 0 {
		t.Errorf("warnings = %q, want none", got)
	}
	valid := map[string]any{
		"lookahead": "user:team/a", "lookbehind": "a.b-c_1", "hostname": "my-bucket.example", "backref": "P@ss_w0rd",
		"escapes": "tab\there", "arn": "arn:aws:iam::123456789012:user/path/to/bob@x.io", "any": strings.Repeat("é", 5000),
		"alnum": strings.Repeat("z", 4096), "nonspace": " a ",
	}
	body := func(name string, v any) string {
		m := map[string]any{}
		for k, x := range valid {
			m[k] = x
		}
		if name != "" {
			m[name] = v
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	h := map[string]string{"Content-Type": "application/json"}
	tests := []struct {
		name string
		path string
		body string
		why  string // the violation; "" when valid
	}{
		{"all valid", "/things", body("", nil), ""},
		{"a pattern of another dialect is ignored", "/things", body("print", "\x01"), ""},
		{"a pattern no engine reads is ignored", "/things", body("broken", "ABC"), ""},
		{"lookahead", "/things", body("lookahead", "aws:reserved"), `lookahead: "aws:reserved" does not match the pattern ^(?!aws:)[a-zA-Z+-=._:/]+$`},
		{"lookbehind", "/things", body("lookbehind", "trailing."), `lookbehind: "trailing." does not match the pattern ^[0-9A-Za-z\.\-_]*(?<!\.)$`},
		{"hostname of digits", "/things", body("hostname", "10.0.0.1"), `hostname: "10.0.0.1" does not match the pattern ` + ecmaPatterns["hostname"]},
		{"backreference", "/things", body("backref", "aaaab"), `backref: "aaaab" does not match the pattern ^(?!.*?(.)\1{3})[-_!@#$a-zA-Z0-9]*$`},
		{"arn", "/things", body("arn", "arn:aws:iam::12345:user/alice"), `arn: "arn:aws:iam::12345:user/alice" does not match the pattern ` + ecmaPatterns["arn"]},
		{"a line break is not any character", "/things", body("any", "line\nbreak"), `any: "line\nbreak" does not match the pattern ^.{0,262144}$`},
		{"over a long count", "/things", body("alnum", strings.Repeat("z", 4097)), `alnum: "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...(4097 bytes)" does not match the pattern ^[a-zA-Z0-9]{0,4096}$`},
		{"white space of Unicode", "/things", body("nonspace", "\u00a0\u3000"), `nonspace: "\u00a0\u3000" does not match the pattern \S{1,8192}`},
		{"a name a lookahead allows", "/names", `{"plant-count":1}`, ""},
		{"a name a lookahead refuses", "/names", `{"x-count":1}`, "x-count: property is not declared by the schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := call{method: "PUT", path: tt.path, header: h, body: tt.body, status: 204, wantHeader: map[string]string{}}
			if tt.why != "" {
				b := errorBody(problem.CodeSchema, "request body does not match the schema: "+tt.why)
				c.status, c.wantHeader, c.wantBody = 422, jsonHeader(b), b
			}
			check(t, s, ts, c)
		})
	}
}

// TestECMAPatternsGenerated checks that answers made up for a schema of
// ecmaPatterns satisfy each pattern, as ECMAScript reads it.
func TestECMAPatternsGenerated(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(ecmaSpec()), Seed: 7})
	for i := 0; i < 10; i++ {
		req, resp, got := send(t, ts, call{method: "GET", path: "/things"})
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: %s", resp.StatusCode, got)
		}
		assertConforms(t, s, req, resp, got)
		var v map[string]any
		if err := json.Unmarshal(got, &v); err != nil {
			t.Fatal(err)
		}
		for name, src := range ecmaPatterns {
			p, err := regex.Compile(src)
			if err != nil {
				t.Fatal(err)
			}
			str, _ := v[name].(string)
			if !p.MatchString(str) {
				t.Errorf("%s: %q does not match %s", name, str, src)
			}
			if len(str) > 4096 {
				t.Errorf("%s: %d bytes, over the 4,096 runes a pattern makes", name, len(str))
			}
		}
	}
}
