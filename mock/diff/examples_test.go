package diff_test

import (
	"strings"
	"testing"
)

// exemplified is a document whose POST /plants gives examples of its
// parameter view, of its body's media type and schema, and of its
// answer's header; each case edits it.
const exemplified = `openapi: 3.1.0
info: {title: Examples, version: "1"}
paths:
  /plants:
    post:
      parameters:
        - name: view
          in: query
          schema: {type: string, examples: [short, full]}
          example: short
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                name: {type: string, example: fern}
            example: {name: fern}
            examples:
              moss: {value: {name: moss}}
              ivy: {$ref: '#/components/examples/Ivy'}
      responses:
        "201":
          description: made
          headers:
            X-Rate: {schema: {type: integer}, example: 10}
components:
  examples:
    Ivy: {value: {name: ivy}}
`

// TestExampleChanges edits exemplified's examples and holds each change
// to its rule, level (compatible: an example is documentation) and
// places.
func TestExampleChanges(t *testing.T) {
	const (
		post  = "POST /plants "
		param = "/paths/~1plants/post/parameters/0"
		media = "/paths/~1plants/post/requestBody/content/application~1json"
	)
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		{"media type example changed", "example: {name: fern}", "example: {name: fern, kind: moss}",
			[]string{post + "request-body-example-changed compatible request old=" + media + "/example:18 new=" + media + "/example:18"}},
		{"named example added", "            examples:\n", "            examples:\n              fern: {value: {name: fern}}\n",
			[]string{post + "request-body-example-added compatible request old=- new=" + media + "/examples/fern:20"}},
		{"named example removed", "              moss: {value: {name: moss}}\n", "",
			[]string{post + "request-body-example-removed compatible request old=" + media + "/examples/moss:20 new=-"}},
		{"referenced example changed", "Ivy: {value: {name: ivy}}", "Ivy: {value: {name: ivy2}}",
			[]string{post + "request-body-example-changed compatible request old=/components/examples/Ivy:29 new=/components/examples/Ivy:29"}},
		{"schema example changed", "example: fern}", "example: moss}",
			[]string{post + "request-property-example-changed compatible request old=" + media + "/schema/properties/name/example:17 new=" + media + "/schema/properties/name/example:17"}},
		{"schema examples item removed", "examples: [short, full]", "examples: [short]",
			[]string{post + "request-parameter-example-removed compatible request old=" + param + "/schema/examples/1:9 new=-"}},
		{"parameter example changed", "example: short", "example: full",
			[]string{post + "request-parameter-example-changed compatible request old=" + param + "/example:10 new=" + param + "/example:10"}},
		{"header example removed", ", example: 10}", "}",
			[]string{post + "response-header-example-removed compatible response old=/paths/~1plants/post/responses/201/headers/X-Rate/example:26 new=-"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, compare(t, exemplified, edit(t, exemplified, tt.old, tt.new)), tt.want)
		})
	}
}

// TestExampleReasons holds the reasons to naming the example, what it
// illustrates, and its values.
func TestExampleReasons(t *testing.T) {
	edited := strings.NewReplacer("example: short", "example: full", "              moss: {value: {name: moss}}\n", "").Replace(exemplified)
	check(t, reasons(t, exemplified, edited), []string{
		`parameter view: the example became "full", from "short"; documentation only, no request or answer is held to it`,
		"request body (application/json): example moss was removed; documentation only, no request or answer is held to it",
	})
}
