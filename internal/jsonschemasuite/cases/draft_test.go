package cases

import (
	"encoding/json"
	"slices"
	"testing"
)

// mustDecode decodes a schema written in a test.
func mustDecode(tb testing.TB, s string) any {
	tb.Helper()
	v, err := DecodeJSON([]byte(s))
	if err != nil {
		tb.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestNeeds2020(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"no refs", `{"type": "string"}`, ""},
		{"boolean schema", `true`, ""},
		{"the 2020-12 meta-schema", `{"$schema": "https://json-schema.org/draft/2020-12/schema"}`, ""},
		{"the meta-schema with an empty fragment", `{"$schema": "https://json-schema.org/draft/2020-12/schema#"}`, ""},
		{"ref to the schema itself", `{"properties": {"a": {"$ref": "#"}}}`, ""},
		{"ref into $defs", `{"$defs": {"a": {}}, "$ref": "#/$defs/a"}`, ""},
		{"ref to an anchor", `{"$defs": {"a": {"$anchor": "x"}}, "$ref": "#x"}`, ""},
		{"ref to the meta-schema", `{"$ref": "https://json-schema.org/draft/2020-12/schema"}`, ""},
		{"ref to an embedded relative $id", `{"$defs": {"a": {"$id": "list"}}, "$ref": "list"}`, ""},
		{"ref to an embedded absolute $id", `{"$id": "http://example.com/a.json", "$defs": {"b": {"$id": "b/c.json", "$defs": {"d": {"$id": "d.json"}}}}, "$ref": "http://example.com/b/d.json"}`, ""},
		{"ref to an embedded URN", `{"$id": "urn:uuid:0f1e", "$defs": {"a": {}}, "properties": {"p": {"$ref": "urn:uuid:0f1e#/$defs/a"}}}`, ""},
		{"dynamic ref to an anchor", `{"$dynamicAnchor": "x", "items": {"$dynamicRef": "#x"}}`, ""},
		{"ref to a remote", `{"$ref": "http://localhost:1234/draft2020-12/integer.json"}`, skipRemote},
		{"relative ref with no embedded $id", `{"$ref": "folderInteger.json"}`, skipRemote},
		{"ref under an $id that is a remote", `{"$id": "http://localhost:1234/draft2020-12/", "items": {"$ref": "integer.json"}}`, skipRemote},
		{"dynamic ref to a remote", `{"$dynamicRef": "http://localhost:1234/draft2020-12/tree.json#node"}`, skipRemote},
		{"ref to an $id inside an unknown keyword", `{"unknown": {"$id": "http://example.com/x"}, "$ref": "http://example.com/x"}`, skipRemote},
		{"ref inside enum data is no ref", `{"enum": [{"$ref": "http://localhost:1234/x.json"}]}`, ""},
		{"$schema of the remotes", `{"$schema": "http://localhost:1234/draft2020-12/metaschema-no-validation.json"}`, skipRemote},
		{"$schema of another dialect", `{"$schema": "http://json-schema.org/draft-07/schema#"}`, skipOtherDialect},
		{"another dialect and a remote", `{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "http://localhost:1234/a.json"}`, skipRemote},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := needs2020(mustDecode(t, tt.schema)); got != tt.want {
				t.Errorf("needs2020(%s) = %q, want %q", tt.schema, got, tt.want)
			}
		})
	}
}

func TestPrepare2020(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"no $id", `{"type": "string"}`, `{"$id":"https://plantmock.test/schema/case","type":"string"}`},
		{"relative $id", `{"$id": "plants/fern.json"}`, `{"$id":"https://plantmock.test/schema/plants/fern.json"}`},
		{"absolute $id kept", `{"$id": "urn:example:1/406/47452/2", "$anchor": "a"}`, `{"$anchor":"a","$id":"urn:example:1/406/47452/2"}`},
		{"boolean", `false`, `false`},
		{"numbers as written", `{"maxLength": 2.0, "multipleOf": 1e-8}`, `{"$id":"https://plantmock.test/schema/case","maxLength":2.0,"multipleOf":1e-8}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schemas, skip := prepare2020(mustDecode(t, tt.schema))
			if skip != nil {
				t.Fatalf("skipped: %v", skip)
			}
			got, err := json.Marshal(schemas)
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"Case":` + tt.want + `}`; string(got) != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
	if _, skip := prepare2020(mustDecode(t, `{"$ref": "http://localhost:1234/a.json"}`)); !slices.Equal(skip, []string{skipRemote}) {
		t.Errorf("remote ref: skip %q, want %q", skip, skipRemote)
	}
}

func TestPrepare4(t *testing.T) {
	tests := []struct {
		name, schema, want string
		skip               []string
	}{
		{name: "plain", schema: `{"type": "integer", "maximum": 3, "exclusiveMaximum": true}`,
			want: `{"Case":{"exclusiveMaximum":true,"maximum":3,"type":"integer"}}`},
		{name: "root ref", schema: `{"properties": {"a": {"$ref": "#"}}, "additionalProperties": false}`,
			want: `{"Case":{"additionalProperties":false,"properties":{"a":{"$ref":"#/components/schemas/Case"}}}}`},
		{name: "pointer into the schema", schema: `{"properties": {"a/b": {"type": "string"}, "c": {"$ref": "#/properties/a~1b"}}}`,
			want: `{"Case":{"properties":{"a/b":{"type":"string"},"c":{"$ref":"#/components/schemas/Case/properties/a~1b"}}}}`},
		{name: "definitions become components",
			schema: `{"definitions": {"a b": {"type": "string"}, "c%d": {"items": {"$ref": "#/definitions/a%20b"}}}, "allOf": [{"$ref": "#/definitions/c%25d"}]}`,
			want:   `{"Case":{"allOf":[{"$ref":"#/components/schemas/Case_c_d"}]},"Case_a_b":{"type":"string"},"Case_c_d":{"items":{"$ref":"#/components/schemas/Case_a_b"}}}`},
		{name: "pointer inside a definition", schema: `{"definitions": {"a": {"properties": {"x": {}}}}, "$ref": "#/definitions/a/properties/x"}`,
			want: `{"Case":{"$ref":"#/components/schemas/Case_a/properties/x"},"Case_a":{"properties":{"x":{}}}}`},
		{name: "enum data is not rewritten", schema: `{"enum": [{"$ref": "#/definitions/a"}, {"type": "null"}]}`,
			want: `{"Case":{"enum":[{"$ref":"#/definitions/a"},{"type":"null"}]}}`},
		{name: "$comment dropped", schema: `{"$comment": "a note", "minLength": 1}`,
			want: `{"Case":{"minLength":1}}`},
		{name: "keywords 3.0 lacks", schema: `{"patternProperties": {}, "properties": {"a": {"dependencies": {}, "id": "x"}}}`,
			skip: []string{"keyword dependencies", "keyword id", "keyword patternProperties"}},
		{name: "type null, type array, items array", schema: `{"anyOf": [{"type": "null"}, {"type": ["string"]}, {"items": [{}]}]}`,
			skip: []string{"items array", "type array", "type null"}},
		{name: "remote and id refs", schema: `{"allOf": [{"$ref": "http://localhost:1234/a.json"}, {"$ref": "#foo"}]}`,
			skip: []string{"ref to a location-independent identifier", "remote ref"}},
		{name: "nested definitions", schema: `{"definitions": {"a": {"definitions": {}}}}`,
			skip: []string{"definitions below the root"}},
		{name: "ref to a missing definition", schema: `{"$ref": "#/definitions/none"}`,
			skip: []string{"ref to no definition"}},
		{name: "colliding names", schema: `{"definitions": {"a b": {}, "a_b": {}}}`,
			skip: []string{"definitions whose names collide as component names"}},
		{name: "boolean", schema: `true`, skip: []string{"a schema that is not an object"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schemas, skip := prepare4(mustDecode(t, tt.schema))
			if !slices.Equal(skip, tt.skip) {
				t.Fatalf("skip %q, want %q", skip, tt.skip)
			}
			if tt.skip != nil {
				if schemas != nil {
					t.Errorf("skipped with schemas %v", schemas)
				}
				return
			}
			got, err := json.Marshal(schemas)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
