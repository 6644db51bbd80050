package media

import (
	"bytes"
	"encoding/xml"
	"io"
	"testing"
	"unicode/utf8"
)

func TestAppendName(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"name", "petName", "petName"},
		{"inner characters", "a-b.c_d9", "a-b.c_d9"},
		{"empty", "", "_"},
		{"digit first", "1st", "_1st"},
		{"dash first", "-x", "_-x"},
		{"dot first", ".x", "_.x"},
		{"colon", "a:b", "a_b"},
		{"space", "a b", "a_b"},
		{"symbols", "a$b@c", "a_b_c"},
		{"Latin letter", "café", "café"},
		{"CJK", "名前", "名前"},
		{"combining mark inside", "e\u0301", "e\u0301"},
		{"combining mark first", "\u0301e", "_\u0301e"},
		{"letter newer than XML 1.0 4th edition", "Ștefan", "_tefan"},
		{"not UTF-8", "a\xffb", "a_b"},
		{"replacement character", "a\uFFFDb", "a_b"},
		{"emoji", "a😀", "a_"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendName(nil, tt.in)); got != tt.want {
				t.Errorf("appendName(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestNameCharacters checks that encoding/xml reads every name
// appendName makes of one character, alone and after a letter, for all
// of Unicode.
func TestNameCharacters(t *testing.T) {
	var doc bytes.Buffer
	doc.WriteString("<r>")
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := string(r)
		doc.WriteByte('<')
		doc.Write(appendName(nil, s))
		doc.WriteString("/><a")
		doc.Write(appendName(nil, "a"+s)[1:])
		doc.WriteString("/>")
	}
	doc.WriteString("</r>")
	d := xml.NewDecoder(&doc)
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

func TestIsNCName(t *testing.T) {
	for in, want := range map[string]bool{"x": true, "_x1": true, "é": true, "": false, "1x": false, "a:b": false, "a b": false, "-": false} {
		if got := isNCName(in); got != want {
			t.Errorf("isNCName(%q) = %v, want %v", in, got, want)
		}
	}
}
