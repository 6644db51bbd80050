package wire

import (
	"reflect"
	"testing"
)

func TestAppendQuery(t *testing.T) {
	tests := []struct {
		in   string
		want []pair
	}{
		{"", nil},
		{"a=1&b", []pair{{name: "a", value: "1"}, {name: "b"}}},
		{"&&a=&", []pair{{name: "a"}}},
		{"a=b=c", []pair{{name: "a", value: "b=c"}}},
		{"=x", []pair{{name: "", value: "x"}}},
		{"a+b%5B1%5D=x+y", []pair{{name: "a b[1]", value: "x+y"}}},
		{"a%zz=1&%ff=2", []pair{{name: "a%zz", value: "1", bad: `malformed percent-escape "%zz"`}, {name: "\xff", value: "2", bad: "invalid UTF-8"}}},
	}
	for _, tt := range tests {
		if got := appendQuery(nil, tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("appendQuery(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestAppendCookies(t *testing.T) {
	tests := []struct {
		lines []string
		want  []pair
	}{
		{nil, nil},
		{[]string{"a=1; b=2", "c=3"}, []pair{{name: "a", value: "1"}, {name: "b", value: "2"}, {name: "c", value: "3"}}},
		{[]string{` a = "x y" ;;noequals; =v; e=`}, []pair{{name: "a", value: "x y"}, {name: "e"}}},
		{[]string{`q="`}, []pair{{name: "q", value: `"`}}},
		{[]string{"\xff=1"}, []pair{{name: "\xff", value: "1", bad: "invalid UTF-8"}}},
	}
	for _, tt := range tests {
		if got := appendCookies(nil, tt.lines); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("appendCookies(%q) = %#v, want %#v", tt.lines, got, tt.want)
		}
	}
}
