package media

import (
	"net/url"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func TestEncodeForm(t *testing.T) {
	s := object("F", prop("name", typed("string")), prop("tags", array("", typed("string"))), prop("id", typed("integer")))
	tests := []struct {
		name   string
		schema *openapi.Schema
		value  string
		want   string
	}{
		{"declared order", s, `{"id":1,"name":"Rex"}`, "name=Rex&id=1"},
		{"undeclared sorted after", s, `{"z":"1","id":2,"a":true}`, "id=2&a=true&z=1"},
		{"exploded array", s, `{"tags":["a","b"],"id":1}`, "tags=a&tags=b&id=1"},
		{"empty array", s, `{"tags":[]}`, "tags="},
		{"null left out", s, `{"name":null,"tags":[null,"x"],"id":1}`, "tags=x&id=1"},
		{"nested object as JSON", nil, `{"o":{"b":1,"a":[2]}}`, "o=%7B%22a%22%3A%5B2%5D%2C%22b%22%3A1%7D"},
		{"nested array item as JSON", nil, `{"m":[[1,2]]}`, "m=%5B1%2C2%5D"},
		{"escaping", nil, `{"a b&c":"x=y z+é/~._-"}`, "a+b%26c=x%3Dy+z%2B%C3%A9%2F~._-"},
		{"empty string", nil, `{"e":""}`, "e="},
		{"number as written", nil, `{"n":1.50}`, "n=1.50"},
		{"empty object", s, `{}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode("application/x-www-form-urlencoded", value(t, tt.value), tt.schema)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if _, err := url.ParseQuery(string(got)); err != nil {
				t.Errorf("url.ParseQuery: %v", err)
			}
		})
	}
}

func TestAppendQueryEscape(t *testing.T) {
	for _, s := range []string{"", "abcXYZ019", "-_.~", " ", "a b", "&=+%#?/:;,@!$'()*[]", "é\x00\xff\n", "日本"} {
		t.Run(s, func(t *testing.T) {
			if got, want := string(appendQueryEscape(nil, s)), url.QueryEscape(s); got != want {
				t.Errorf("appendQueryEscape(%q) = %q, want %q", s, got, want)
			}
		})
	}
}
