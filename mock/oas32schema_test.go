package mock_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v4"

	"github.com/plantmock/plantmock/mock"
)

// oas32SchemaEnv names the file that holds the OpenAPI 3.2 schema:
// openapi-3-2/schema.js of the npm package @hyperjump/json-schema 1.18.0,
// a JavaScript module whose default export is the schema (.ci/run fetches
// it with .ci/npm-fetch and sets the variable).
const oas32SchemaEnv = "PLANTMOCK_OAS32_SCHEMA"

// oas32Schema compiles the published OpenAPI 3.2 schema. Without it the
// test is skipped, or fails when the environment variable CI is set: CI
// must hold the loader to it.
func oas32Schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path := os.Getenv(oas32SchemaEnv)
	if path == "" {
		msg := "no OpenAPI 3.2 schema: set " + oas32SchemaEnv + " to openapi-3-2/schema.js of @hyperjump/json-schema 1.18.0 (.ci/npm-fetch @hyperjump/json-schema 1.18.0 prints its folder)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "export default ")
	if !ok {
		t.Fatalf("%s: not a module whose default export is the schema", path)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(strings.TrimSuffix(text, ";")))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	const url = "https://plantmock.invalid/openapi-3.2.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// asJSON reads a YAML document into the values the validator takes.
func asJSON(t *testing.T, name string, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := json.Marshal(stringKeys(v))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// stringKeys turns the maps YAML makes of keys that are not all strings
// (200: for a status) into maps with string keys, as JSON has.
func stringKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = stringKeys(e)
		}
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = stringKeys(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = stringKeys(e)
		}
	}
	return v
}

// TestOpenAPI32Schema holds the loader to the published OpenAPI 3.2
// schema: the documents of testdata/oas32, which use what 3.2 adds, are
// valid by it and load without a mistake; documents it refuses load with
// the mistake that says why; and documents it accepts that the loader
// calls a mistake are listed with the mistake, as choices of plantmock's.
func TestOpenAPI32Schema(t *testing.T) {
	schema := oas32Schema(t)
	files, err := filepath.Glob("testdata/oas32/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no documents in testdata/oas32: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(asJSON(t, f, data)); err != nil {
			t.Errorf("%s is not valid by the OpenAPI 3.2 schema: %v", f, err)
		}
		srv, err := mock.New(mock.Options{Spec: data})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if m := srv.Mistakes(); len(m) > 0 {
			t.Errorf("%s loads with mistakes: %q", f, m)
		}
	}
	// Each of these is a document of testdata/oas32 with one thing
	// changed, so that the schema refuses that thing, if anything.
	qs, err := os.ReadFile("testdata/oas32/querystring.yaml")
	if err != nil {
		t.Fatal(err)
	}
	changed := func(old, new string) string {
		if !strings.Contains(string(qs), old) {
			t.Fatalf("querystring.yaml has no %q", old)
		}
		return strings.Replace(string(qs), old, new, 1)
	}
	const filter = "      parameters:\n        - name: filter\n"
	cases := []struct {
		name, doc string
		valid     bool   // by the schema
		mistake   string // the loader's first mistake
	}{
		{"querystring beside a query parameter", changed(filter, "      parameters:\n        - {name: limit, in: query, schema: {type: integer}}\n        - name: filter\n"), false,
			`#/paths/~1search/get (line 10): querystring parameter "filter" is declared with query parameters, which OpenAPI 3.2 forbids: it is left out, and the query parameters are read`},
		{"two querystring parameters", changed(filter, "      parameters:\n        - {name: r, in: querystring, content: {text/plain: {}}}\n        - name: filter\n"), false,
			`#/paths/~1search/get (line 10): querystring parameter "filter" is a second querystring parameter, which OpenAPI 3.2 forbids: it is left out`},
		{"querystring with a schema", changed("          required: true\n", "          required: true\n          schema: {type: object}\n"), false,
			`#/paths/~1search/get/parameters/0 (line 12): querystring parameter "filter" is not described by content with one media type: the parameter is left out of its operation`},
		{"$self with a fragment", changed("openapi: 3.2.0\n", "openapi: 3.2.0\n$self: https://example.com/q.yaml#top\n"), false,
			`#/$self (line 2): $self has a fragment, which it must not: it is ignored`},
		// The schema looks at one list of parameters at a time: a query
		// parameter of the path item beside a querystring one of its
		// operation passes it.
		{"querystring beside a query parameter of the path item", changed("in: header", "in: query"), true,
			`#/paths/~1search/get (line 10): querystring parameter "filter" is declared with query parameters, which OpenAPI 3.2 forbids: it is left out, and the query parameters are read`},
		{"a tag's parent naming no tag", changed("parent: search", "parent: find"), true,
			`#/tags/1/parent (line 55): tag "select" has parent "find", which is no tag of the document: it is read without a parent`},
		{"tags that are their own ancestors", changed("kind: nav}", "kind: nav, parent: select}"), true,
			`#/tags/0/parent (line 54): tag "search" is its own ancestor through its parents: it is read without a parent`},
		// The schema compares methods with case; the loader, as HTTP
		// servers route, does not.
		{"additional operation get", v32, true,
			`#/paths/~1plants~1{id}/additionalOperations/get (line 26): "get" is not a method of its own (a token, not one the path item names): it is left out`},
	}
	refused := 0
	for _, c := range cases {
		err := schema.Validate(asJSON(t, c.name, []byte(c.doc)))
		if err != nil {
			refused++
		}
		if (err == nil) != c.valid {
			t.Errorf("%s: valid by the schema %v, want %v (%v)", c.name, err == nil, c.valid, err)
		}
		srv, err := mock.New(mock.Options{Spec: []byte(c.doc)})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if m := srv.Mistakes(); len(m) == 0 || m[0] != c.mistake {
			t.Errorf("%s: mistakes %q\nwant first %s", c.name, m, c.mistake)
		}
	}
	t.Logf("%d documents valid by the OpenAPI 3.2 schema load without a mistake; of %d changed ones, %d it refuses and %d it accepts load with the expected mistake",
		len(files), len(cases), refused, len(cases)-refused)
}
