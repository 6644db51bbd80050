package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonschemasuite/cases"
)

// TestFastPathSuite is the fast path's differential test: every case of
// the JSON Schema Test Suite whose group the suite runner runs (its schema
// the request body of an OpenAPI document, see package cases), read with
// DecodeRequest and with jsonx.Decode and ValidateRequest. Where the fast
// path decides a body, the usual path must find it valid or not as it
// does, build the same value, and find the same violations; the same body
// indented must get the same answer from the fast path.
func TestFastPathSuite(t *testing.T) {
	dir := os.Getenv(cases.Env)
	if dir == "" {
		t.Skip("no JSON Schema Test Suite: set " + cases.Env + " to a checkout of github.com/json-schema-org/JSON-Schema-Test-Suite")
	}
	// floor is, per dialect, how many valid and how many invalid cases
	// the fast path must decide, a little under what it decides with the
	// suite of CI (JSON-Schema-Test-Suite at 44401e0c), so that a fast
	// path that declines everything, or every invalid body, fails.
	type counts struct{ valid, invalid int }
	floor := map[string]counts{"draft2020-12": {385, 220}, "draft4": {190, 115}}
	for _, d := range cases.Dialects() {
		files, err := cases.ReadDialect(dir, d.Dir)
		if err != nil {
			t.Fatal(err)
		}
		var total, valid, validWithPath, invalidWithPath, groups, fastGroups int
		var decided counts
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
						switch {
						case full:
							valid++
							if has {
								validWithPath++
							}
						case has:
							invalidWithPath++
						}
						if !fast {
							continue
						}
						if full {
							decided.valid++
						} else {
							decided.invalid++
						}
						if !has {
							t.Errorf("%s: decided without a fast path", c.Description)
						}
						var indented bytes.Buffer
						if err := json.Indent(&indented, c.Data, " ", "\t"); err != nil {
							t.Fatal(err)
						}
						d, ok := s.DecodeRequest(context.Background(), c.Data)
						vs := d.Violations
						id, iok := s.DecodeRequest(context.Background(), indented.Bytes())
						ivs := id.Violations
						if !iok || !reflect.DeepEqual(vs, ivs) {
							t.Errorf("%s: indented, the fast path answers %v %v, not %v %v: %s", c.Description, iok, ivs, ok, vs, indented.Bytes())
						}
					}
				})
			}
		}
		t.Logf("%s as OpenAPI %s: a fast path for %d of %d groups; of the %d cases, %d are valid (%d with a fast path) and it decided %d, %d are invalid with a fast path and it decided %d",
			d.Dir, d.OpenAPI, fastGroups, groups, total, valid, validWithPath, decided.valid, invalidWithPath, decided.invalid)
		if f := floor[d.Dir]; decided.valid < f.valid || decided.invalid < f.invalid {
			t.Errorf("%s: the fast path decided %d valid and %d invalid cases, under the floor of %d and %d", d.Dir, decided.valid, decided.invalid, f.valid, f.invalid)
		}
	}
}
