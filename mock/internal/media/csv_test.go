package media

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func TestEncodeCSV(t *testing.T) {
	pet := object("Pet", prop("id", typed("integer")), prop("name", typed("string")))
	tests := []struct {
		name   string
		schema *openapi.Schema
		value  string
		want   string
	}{
		{"array of objects", array("", pet), `[{"name":"Rex","id":1},{"id":2,"name":"Tom"}]`, "id,name\r\n1,Rex\r\n2,Tom\r\n"},
		{"declared columns, then sorted", array("", pet), `[{"z":1,"name":"Rex"},{"a":true,"id":2}]`, "id,name,a,z\r\n,Rex,,1\r\n2,,true,\r\n"},
		{"no schema", nil, `[{"b":1,"a":2}]`, "a,b\r\n2,1\r\n"},
		{"one object", pet, `{"name":"Rex","id":1}`, "id,name\r\n1,Rex\r\n"},
		{"quoting", nil, `[{"t":"a,b \"c\"\nd"}]`, "t\r\n\"a,b \"\"c\"\"\r\nd\"\r\n"},
		{"null and nested", nil, `[{"n":null,"o":{"x":[1]},"l":[1,2]}]`, "l,n,o\r\n\"[1,2]\",,\"{\"\"x\"\":[1]}\"\r\n"},
		{"array of scalars", nil, `[1,"a",true,null]`, "1\r\na\r\ntrue\r\n\r\n"},
		{"array of arrays", nil, `[["a",1],["b",{"c":2}]]`, "a,1\r\nb,\"{\"\"c\"\":2}\"\r\n"},
		{"mixed array", nil, `[{"a":1},2]`, "\"{\"\"a\"\":1}\"\r\n2\r\n"},
		{"array of empty objects", nil, `[{},{}]`, "{}\r\n{}\r\n"},
		{"empty array", nil, `[]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode("text/csv", value(t, tt.value), tt.schema)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			r := csv.NewReader(bytes.NewReader(got))
			r.FieldsPerRecord = -1
			if _, err := r.ReadAll(); err != nil {
				t.Errorf("encoding/csv reads it: %v", err)
			}
		})
	}
}
