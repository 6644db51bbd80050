package openapi

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonschemasuite/cases"
)

// TestFastPathSuite is the fast path's differential test: every case of
// the JSON Schema Test Suite whose group the suite runner runs (its schema
// the request body of an OpenAPI document, see package cases), read with
// DecodeRequest and with jsonx.Decode and ValidateRequest. Where the fast
// path accepts a body, the usual path must accept it too and build the
// same value; the same body indented must get the same answer from the
// fast path.
func TestFastPathSuite(t *testing.T) {
	dir := os.Getenv(cases.Env)
	if dir == "" {
		t.Skip("no JSON Schema Test Suite: set " + cases.Env + " to a checkout of github.com/json-schema-org/JSON-Schema-Test-Suite")
	}
	// floor is, per dialect, how many cases the fast path must decide
	// (accept), a little under what it decides with the suite of CI
	// (JSON-Schema-Test-Suite at 44401e0c: 363 of 1,250 in draft2020-12,
	// 174 of 414 in draft4), so that a fast path that declines everything
	// fails. The valid cases it leaves to the usual path, where it has a
	// fast path, are numbers it does not compare exactly (1.0 as an
	// integer, 2.6 against a bound, 1.0 in an enum) and objects and arrays
	// in an enum or const.
	floor := map[string]int{"draft2020-12": 350, "draft4": 165}
	for _, d := range cases.Dialects() {
		files, err := cases.ReadDialect(dir, d.Dir)
		if err != nil {
			t.Fatal(err)
		}
		var total, valid, validWithPath, decided, groups, fastGroups int
		for _, f := range files {
			for _, g := range f.Groups {
				schema, err := cases.DecodeJSON(g.Schema)
				if err != nil {
					t.Fatalf("%s: %s: %v", f.Name, g.Description, err)
				}
				schemas, skip := d.Prepare(schema)
				if skip != nil {
					continue
				}
				doc, err := Load(cases.Document(d.OpenAPI, schemas))
				if err != nil {
					continue // the runner counts its cases as refused documents
				}
				s := doc.Operations[0].Body.JSON().Schema
				has := s.HasFastPath()
				groups++
				if has {
					fastGroups++
				}
				t.Run(f.Name+": "+g.Description, func(t *testing.T) {
					for _, c := range g.Tests {
						total++
						fast, full := checkFast(t, s, c.Data)
						if full {
							valid++
							if has {
								validWithPath++
							}
						}
						if !fast {
							continue
						}
						decided++
						if !has {
							t.Errorf("%s: decided without a fast path", c.Description)
						}
						var indented bytes.Buffer
						if err := json.Indent(&indented, c.Data, " ", "\t"); err != nil {
							t.Fatal(err)
						}
						if _, ok := s.DecodeRequest(indented.Bytes()); !ok {
							t.Errorf("%s: indented, the fast path declines %s", c.Description, indented.Bytes())
						}
					}
				})
			}
		}
		t.Logf("%s as OpenAPI %s: a fast path for %d of %d groups; it decided %d of the %d cases, of which %d are valid, %d of these with a fast path",
			d.Dir, d.OpenAPI, fastGroups, groups, decided, total, valid, validWithPath)
		if decided < floor[d.Dir] {
			t.Errorf("%s: the fast path decided %d cases, under the floor of %d", d.Dir, decided, floor[d.Dir])
		}
	}
}
