package wire

import (
	"strings"
	"testing"
)

// TestStyleExamples reproduces the "Style Examples" table of OpenAPI
// 3.1.0: color is "blue", ["blue","black","brown"] or
// {"R":100,"G":200,"B":150}, written in every style and explode.
func TestStyleExamples(t *testing.T) {
	blue := "blue"
	colors := []any{"blue", "black", "brown"}
	object := map[string]any{"R": num("100"), "G": num("200"), "B": num("150")}
	type column struct {
		shape *Shape
		want  any
	}
	columns := map[string]column{
		"empty":  {str, ""},
		"string": {str, blue},
		"array":  {strs, colors},
		"object": {rgb, object},
	}
	tests := []struct {
		style   string
		explode bool
		in      string
		wire    map[string]string // column: as written; absent when n/a
	}{
		{"matrix", false, "path", map[string]string{"empty": ";color", "string": ";color=blue", "array": ";color=blue,black,brown", "object": ";color=R,100,G,200,B,150"}},
		{"matrix", true, "path", map[string]string{"empty": ";color", "string": ";color=blue", "array": ";color=blue;color=black;color=brown", "object": ";R=100;G=200;B=150"}},
		{"label", false, "path", map[string]string{"empty": ".", "string": ".blue", "array": ".blue.black.brown", "object": ".R.100.G.200.B.150"}},
		{"label", true, "path", map[string]string{"empty": ".", "string": ".blue", "array": ".blue.black.brown", "object": ".R=100.G=200.B=150"}},
		{"form", false, "query", map[string]string{"empty": "color=", "string": "color=blue", "array": "color=blue,black,brown", "object": "color=R,100,G,200,B,150"}},
		{"form", true, "query", map[string]string{"empty": "color=", "string": "color=blue", "array": "color=blue&color=black&color=brown", "object": "R=100&G=200&B=150"}},
		{"form", false, "cookie", map[string]string{"empty": "color=", "string": "color=blue", "array": "color=blue,black,brown", "object": "color=R,100,G,200,B,150"}},
		{"form", true, "cookie", map[string]string{"empty": "color=", "string": "color=blue", "array": "color=blue; color=black; color=brown", "object": "R=100; G=200; B=150"}},
		{"simple", false, "path", map[string]string{"string": "blue", "array": "blue,black,brown", "object": "R,100,G,200,B,150"}},
		{"simple", true, "path", map[string]string{"string": "blue", "array": "blue,black,brown", "object": "R=100,G=200,B=150"}},
		{"simple", false, "header", map[string]string{"string": "blue", "array": "blue,black,brown", "object": "R,100,G,200,B,150"}},
		{"simple", true, "header", map[string]string{"string": "blue", "array": "blue,black,brown", "object": "R=100,G=200,B=150"}},
		{"spaceDelimited", false, "query", map[string]string{"array": "color=blue%20black%20brown", "object": "color=R%20100%20G%20200%20B%20150"}},
		{"pipeDelimited", false, "query", map[string]string{"array": "color=blue|black|brown", "object": "color=R|100|G|200|B|150"}},
		{"deepObject", true, "query", map[string]string{"object": "color[R]=100&color[G]=200&color[B]=150"}},
	}
	for _, tt := range tests {
		for _, name := range []string{"empty", "string", "array", "object"} {
			raw, ok := tt.wire[name]
			if !ok {
				continue
			}
			col := columns[name]
			explode := tt.explode
			t.Run(tt.in+"/"+tt.style+"/explode="+map[bool]string{true: "true", false: "false"}[explode]+"/"+name, func(t *testing.T) {
				p := Param{Name: "color", In: tt.in, Style: tt.style, Explode: &explode, Shape: col.shape}
				checkValue(t, decodeOne(t, p, place(tt.in, raw)), col.want, "")
			})
		}
	}
}

// place puts raw where a parameter of location in is read.
func place(in, raw string) wireRequest {
	switch in {
	case "path":
		return wireRequest{path: raw}
	case "query":
		return wireRequest{query: raw}
	case "header":
		return wireRequest{headers: map[string][]string{"Color": {raw}}}
	}
	return wireRequest{headers: map[string][]string{"Cookie": {raw}}}
}

func TestStyles(t *testing.T) {
	deepShape := &Shape{Types: Object, Properties: map[string]*Shape{
		"price": {Types: Object, Properties: map[string]*Shape{"max": integer}},
		"tags":  strs,
	}}
	tests := []struct {
		name    string
		param   Param
		wire    wireRequest
		want    any
		wantErr string
	}{
		// path
		{"simple element with an encoded comma", Param{Name: "id", In: "path", Shape: strs}, wireRequest{path: "a%2Cb,c"}, []any{"a,b", "c"}, ""},
		{"simple encoded comma alone", Param{Name: "id", In: "path", Shape: strs}, wireRequest{path: "a%2Cb"}, []any{"a,b"}, ""},
		{"simple scalar keeps commas", Param{Name: "id", In: "path", Shape: str}, wireRequest{path: "a,b%2Fc"}, "a,b/c", ""},
		{"simple plus is a plus", Param{Name: "id", In: "path", Shape: str}, wireRequest{path: "a+b"}, "a+b", ""},
		{"simple integers", Param{Name: "id", In: "path", Shape: ints}, wireRequest{path: "1,2"}, []any{num("1"), num("2")}, ""},
		{"simple encoded equals in exploded value", Param{Name: "id", In: "path", Explode: yes, Shape: &Shape{Types: Object}}, wireRequest{path: "a=1%3D2"}, map[string]any{"a": "1=2"}, ""},
		{"simple exploded element without =", Param{Name: "id", In: "path", Explode: yes, Shape: rgb}, wireRequest{path: "R=1,G"}, nil, `path.id: "G" is not a name=value pair`},
		{"simple object missing a value", Param{Name: "id", In: "path", Shape: rgb}, wireRequest{path: "R,1,G"}, nil, `path.id: property "G" has no value`},
		{"simple object repeats a property", Param{Name: "id", In: "path", Shape: rgb}, wireRequest{path: "R,1,R,2"}, nil, `path.id: property "R" is given twice`},
		{"simple malformed escape", Param{Name: "id", In: "path", Shape: str}, wireRequest{path: "a%zz"}, nil, `path.id: malformed percent-escape "%zz"`},
		{"simple truncated escape", Param{Name: "id", In: "path", Shape: str}, wireRequest{path: "a%4"}, nil, `path.id: malformed percent-escape "%4"`},
		{"simple invalid UTF-8", Param{Name: "id", In: "path", Shape: str}, wireRequest{path: "%ff"}, nil, `path.id: value is not valid UTF-8`},
		{"simple UTF-8", Param{Name: "id", In: "path", Shape: str}, wireRequest{path: "caf%C3%A9"}, "café", ""},
		{"label without its dot", Param{Name: "id", In: "path", Style: "label", Shape: str}, wireRequest{path: "blue"}, nil, `path.id: label style value must start with "."`},
		{"label RFC 6570 list", Param{Name: "id", In: "path", Style: "label", Shape: strs}, wireRequest{path: ".blue,black,brown"}, []any{"blue", "black", "brown"}, ""},
		{"label RFC 6570 object", Param{Name: "id", In: "path", Style: "label", Shape: rgb}, wireRequest{path: ".R,100,G,200,B,150"}, map[string]any{"R": num("100"), "G": num("200"), "B": num("150")}, ""},
		{"label scalar keeps dots", Param{Name: "id", In: "path", Style: "label", Shape: &Shape{Types: Number}}, wireRequest{path: ".1.5"}, num("1.5"), ""},
		{"label encoded dot in an element", Param{Name: "id", In: "path", Style: "label", Explode: yes, Shape: strs}, wireRequest{path: ".a%2Eb.c"}, []any{"a.b", "c"}, ""},
		{"label empty array", Param{Name: "id", In: "path", Style: "label", Shape: strs}, wireRequest{path: "."}, []any{}, ""},
		{"matrix without its semicolon", Param{Name: "color", In: "path", Style: "matrix", Shape: str}, wireRequest{path: "color=blue"}, nil, `path.color: matrix style value must start with ";"`},
		{"matrix of another name", Param{Name: "color", In: "path", Style: "matrix", Shape: str}, wireRequest{path: ";colour=blue"}, nil, `path.color: matrix style value must start with ";color"`},
		{"matrix exploded element of another name", Param{Name: "color", In: "path", Style: "matrix", Explode: yes, Shape: strs}, wireRequest{path: ";color=a;hue=b"}, nil, `path.color: matrix element "hue=b" is not named "color"`},
		{"matrix exploded bare property", Param{Name: "color", In: "path", Style: "matrix", Explode: yes, Shape: rgb}, wireRequest{path: ";R=1;G"}, map[string]any{"R": num("1"), "G": ""}, ""},
		{"matrix empty exploded array", Param{Name: "color", In: "path", Style: "matrix", Explode: yes, Shape: strs}, wireRequest{path: ";color"}, []any{}, ""},
		{"matrix encoded comma", Param{Name: "color", In: "path", Style: "matrix", Shape: strs}, wireRequest{path: ";color=a%2Cb,c"}, []any{"a,b", "c"}, ""},

		// query
		{"form encoded slash", Param{Name: "tags", In: "query", Shape: str}, wireRequest{query: "tags=a%2Fb"}, "a/b", ""},
		{"form raw reserved characters", Param{Name: "q", In: "query", Shape: str}, wireRequest{query: "q=http://x.test/a?b=c@d!$'()*;[]"}, "http://x.test/a?b=c@d!$'()*;[]", ""},
		{"form plus is a space", Param{Name: "q", In: "query", Shape: str}, wireRequest{query: "q=a+b%2Bc"}, "a b+c", ""},
		{"form list with raw commas keeps encoded ones", Param{Name: "tags", In: "query", Explode: no, Shape: strs}, wireRequest{query: "tags=a%2Cb,c"}, []any{"a,b", "c"}, ""},
		{"form list with every comma encoded", Param{Name: "tags", In: "query", Explode: no, Shape: ints}, wireRequest{query: "tags=1%2C2%2C3"}, []any{num("1"), num("2"), num("3")}, ""},
		{"form list repeated", Param{Name: "tags", In: "query", Explode: no, Shape: strs}, wireRequest{query: "tags=a,b&tags=c"}, nil, `query.tags: appears 2 times but takes one value`},
		{"form exploded keeps commas", Param{Name: "tags", In: "query", Shape: strs}, wireRequest{query: "tags=a,b&tags=c"}, []any{"a,b", "c"}, ""},
		{"form exploded single value", Param{Name: "tags", In: "query", Shape: strs}, wireRequest{query: "tags=a"}, []any{"a"}, ""},
		{"form exploded with an empty value", Param{Name: "tags", In: "query", Shape: strs}, wireRequest{query: "tags=a&tags="}, []any{"a", ""}, ""},
		{"form scalar repeated", Param{Name: "limit", In: "query", Shape: integer}, wireRequest{query: "limit=1&limit=2"}, nil, `query.limit: appears 2 times but takes one value`},
		{"form malformed escape", Param{Name: "color", In: "query", Shape: str}, wireRequest{query: "color=%zz"}, nil, `query.color: malformed percent-escape "%zz"`},
		{"form malformed escape in a list element", Param{Name: "color", In: "query", Explode: no, Shape: strs}, wireRequest{query: "color=a,%g1"}, nil, `query.color: malformed percent-escape "%g1"`},
		{"form encoded name", Param{Name: "a b", In: "query", Shape: str}, wireRequest{query: "a%20b=1&a+b=2"}, nil, `query.a b: appears 2 times but takes one value`},
		{"form exploded object ignores others", Param{Name: "color", In: "query", Shape: rgb}, wireRequest{query: "R=1&x=2&B=3"}, map[string]any{"R": num("1"), "B": num("3")}, ""},
		{"form exploded object property repeated", Param{Name: "color", In: "query", Shape: rgb}, wireRequest{query: "R=1&R=2"}, nil, `query.color: property "R" appears 2 times but takes one value`},
		{"form exploded free-form object", Param{Name: "freeForm", In: "query", Shape: &Shape{Types: Object, Additional: integer}}, wireRequest{query: "a=1&b=x&a%5B=2"}, map[string]any{"a": num("1"), "b": "x", "a[": num("2")}, ""},
		{"form exploded free-form malformed name", Param{Name: "freeForm", In: "query", Shape: &Shape{Types: Object}}, wireRequest{query: "a%zz=1"}, nil, `query.freeForm: malformed percent-escape "%zz" in the name "a%zz"`},
		{"spaceDelimited plus and %20", Param{Name: "w", In: "query", Style: "spaceDelimited", Shape: strs}, wireRequest{query: "w=math+is%20fun"}, []any{"math", "is", "fun"}, ""},
		{"spaceDelimited exploded", Param{Name: "w", In: "query", Style: "spaceDelimited", Explode: yes, Shape: strs}, wireRequest{query: "w=a&w=b"}, []any{"a", "b"}, ""},
		{"pipeDelimited encoded pipe", Param{Name: "w", In: "query", Style: "pipeDelimited", Shape: strs}, wireRequest{query: "w=a%7Cb|c"}, []any{"a", "b", "c"}, ""},
		{"pipeDelimited scalar", Param{Name: "w", In: "query", Style: "pipeDelimited", Shape: str}, wireRequest{query: "w=a|b"}, "a|b", ""},
		{"deepObject nested", Param{Name: "filter", In: "query", Style: "deepObject", Shape: deepShape}, wireRequest{query: "filter[price][max]=10&filter%5Bname%5D=x&other=1"}, map[string]any{"price": map[string]any{"max": num("10")}, "name": "x"}, ""},
		{"deepObject array property", Param{Name: "filter", In: "query", Style: "deepObject", Shape: deepShape}, wireRequest{query: "filter[tags]=a&filter[price][max]=1&filter[tags]=b"}, map[string]any{"price": map[string]any{"max": num("1")}, "tags": []any{"a", "b"}}, ""},
		{"deepObject property repeated", Param{Name: "filter", In: "query", Style: "deepObject", Shape: deepShape}, wireRequest{query: "filter[price][max]=1&filter[price][max]=2"}, nil, `query.filter: property "filter[price][max]" appears 2 times but takes one value`},
		{"deepObject without brackets", Param{Name: "filter", In: "query", Style: "deepObject", Shape: deepShape}, wireRequest{query: "filter=1"}, nil, `query.filter: deepObject style value must be written filter[name]=value`},
		{"deepObject empty brackets", Param{Name: "filter", In: "query", Style: "deepObject", Shape: deepShape}, wireRequest{query: "filter[]=1"}, nil, `query.filter: "filter[]" adds an item with empty brackets to what is not an array`},
		{"deepObject unclosed bracket", Param{Name: "filter", In: "query", Style: "deepObject", Shape: deepShape}, wireRequest{query: "filter[a=1"}, nil, `query.filter: "filter[a" is not a deepObject name: a bracket is not closed`},
		{"deepObject text after a bracket", Param{Name: "filter", In: "query", Style: "deepObject", Shape: deepShape}, wireRequest{query: "filter[a]b=1"}, nil, `query.filter: "filter[a]b" is not a deepObject name: text after a closing bracket`},
		{"deepObject value and object", Param{Name: "filter", In: "query", Style: "deepObject", Shape: deepShape}, wireRequest{query: "filter[a][b]=1&filter[a]=2"}, nil, `query.filter: "filter[a][b]" nests under a property that has a value`},
		{"deepObject too deep", Param{Name: "f", In: "query", Style: "deepObject", Shape: deepShape}, wireRequest{query: "f" + strings.Repeat("[a]", 11) + "=1"}, nil, `query.f: "f` + strings.Repeat("[a]", 11) + `" nests deeper than 10 levels`},
		{"deepObject at the depth limit", Param{Name: "f", In: "query", Style: "deepObject"}, wireRequest{query: "f" + strings.Repeat("[a]", 10) + "=1"}, nest(10, "1"), ""},

		// deepObject arrays and scalars: OpenAPI 3.1.1 (4.8.12.4.1, style
		// values) defines deepObject for objects and leaves arrays and
		// nested arrays undefined; these are written as the qs library
		// writes them (arrayFormat "indices" and "brackets"), which the
		// SDKs of form-encoded payment and messaging APIs send.
		{"deepObject indexed array", Param{Name: "expand", In: "query", Style: "deepObject", Shape: strs}, wireRequest{query: "expand[0]=a&expand[1]=b"}, []any{"a", "b"}, ""},
		{"deepObject indexes in their order", Param{Name: "e", In: "query", Style: "deepObject", Shape: ints}, wireRequest{query: "e[10]=3&e[2]=2&e[0]=1"}, []any{num("1"), num("2"), num("3")}, ""},
		{"deepObject empty brackets add items", Param{Name: "expand", In: "query", Style: "deepObject", Shape: strs}, wireRequest{query: "expand[]=a&expand[]=b"}, []any{"a", "b"}, ""},
		{"deepObject array by its name alone", Param{Name: "expand", In: "query", Style: "deepObject", Shape: strs}, wireRequest{query: "expand=a"}, []any{"a"}, ""},
		{"deepObject array by its name repeated", Param{Name: "expand", In: "query", Style: "deepObject", Shape: strs}, wireRequest{query: "expand=a&expand=b"}, []any{"a", "b"}, ""},
		{"deepObject array nested in objects", Param{Name: "d", In: "query", Style: "deepObject", Shape: &Shape{Types: Object, Properties: map[string]*Shape{
			"license": {Types: Object, Properties: map[string]*Shape{"files": strs}}}}},
			wireRequest{query: "d[license][files][0]=f1&d[license][files][1]=f2"}, map[string]any{"license": map[string]any{"files": []any{"f1", "f2"}}}, ""},
		{"deepObject array of objects, typed", Param{Name: "items", In: "query", Style: "deepObject", Shape: &Shape{Types: Array, Items: &Shape{Types: Object, Properties: map[string]*Shape{"price": str, "quantity": integer}}}},
			wireRequest{query: "items[0][price]=p1&items[0][quantity]=2&items[1][price]=p2"}, []any{map[string]any{"price": "p1", "quantity": num("2")}, map[string]any{"price": "p2"}}, ""},
		{"deepObject array of arrays", Param{Name: "m", In: "query", Style: "deepObject", Shape: &Shape{Types: Array, Items: ints}}, wireRequest{query: "m[0][0]=1&m[0][1]=2&m[1][]=3"}, []any{[]any{num("1"), num("2")}, []any{num("3")}}, ""},
		{"deepObject scalar beside an object", Param{Name: "start", In: "query", Style: "deepObject", Shape: &Shape{Types: Integer | Object, Properties: map[string]*Shape{"gte": integer}}}, wireRequest{query: "start=1676070661"}, num("1676070661"), ""},
		{"deepObject object beside a scalar", Param{Name: "start", In: "query", Style: "deepObject", Shape: &Shape{Types: Integer | Object, Properties: map[string]*Shape{"gte": integer}}}, wireRequest{query: "start[gte]=5"}, map[string]any{"gte": num("5")}, ""},
		{"deepObject scalar and nested", Param{Name: "start", In: "query", Style: "deepObject", Shape: &Shape{Types: Integer | Object}}, wireRequest{query: "start=1&start[gte]=5"}, nil, `query.start: "start" has a value and nested properties`},
		{"deepObject names that are no indexes stay an object", Param{Name: "expand", In: "query", Style: "deepObject", Shape: strs}, wireRequest{query: "expand[a]=x"}, map[string]any{"a": "x"}, ""},
		{"deepObject empty brackets before a key", Param{Name: "e", In: "query", Style: "deepObject", Shape: &Shape{Types: Array}}, wireRequest{query: "e[][a]=1"}, nil, `query.e: "e[][a]" is not a deepObject name: empty brackets before a key`},

		// header
		{"header list with spaces and empty elements", Param{Name: "X-Ids", In: "header", Shape: ints}, wireRequest{headers: map[string][]string{"X-Ids": {"1, 2,,3 "}}}, []any{num("1"), num("2"), num("3")}, ""},
		{"header lines joined", Param{Name: "x-ids", In: "header", Shape: ints}, wireRequest{headers: map[string][]string{"X-Ids": {"1, 2", "3"}}}, []any{num("1"), num("2"), num("3")}, ""},
		{"header scalar lines joined", Param{Name: "X-Id", In: "header", Shape: integer}, wireRequest{headers: map[string][]string{"X-Id": {"1", "2"}}}, "1, 2", ""},
		{"header not percent-decoded", Param{Name: "X-Name", In: "header", Shape: str}, wireRequest{headers: map[string][]string{"X-Name": {"a%20b, c"}}}, "a%20b, c", ""},
		{"header exploded object with spaces", Param{Name: "X-Color", In: "header", Explode: yes, Shape: rgb}, wireRequest{headers: map[string][]string{"X-Color": {"R=1, G=2"}}}, map[string]any{"R": num("1"), "G": num("2")}, ""},
		{"header invalid UTF-8", Param{Name: "X-Name", In: "header", Shape: str}, wireRequest{headers: map[string][]string{"X-Name": {"\xff"}}}, nil, `header.X-Name: value is not valid UTF-8`},

		// cookie
		{"cookie percent-decoded, plus kept", Param{Name: "c", In: "cookie", Shape: str}, wireRequest{headers: map[string][]string{"Cookie": {"a=1; c=x%20y+z"}}}, "x y+z", ""},
		{"cookie quoted", Param{Name: "c", In: "cookie", Shape: str}, wireRequest{headers: map[string][]string{"Cookie": {`c="v"`}}}, "v", ""},
		{"cookie repeated, first counts", Param{Name: "c", In: "cookie", Shape: integer}, wireRequest{headers: map[string][]string{"Cookie": {"c=1; c=2", "c=3"}}}, num("1"), ""},
		{"cookie over several lines", Param{Name: "c", In: "cookie", Shape: ints}, wireRequest{headers: map[string][]string{"Cookie": {"c=1", "x=0; c=2"}}}, []any{num("1"), num("2")}, ""},
		{"cookie malformed escape", Param{Name: "c", In: "cookie", Shape: str}, wireRequest{headers: map[string][]string{"Cookie": {"c=100%"}}}, nil, `cookie.c: malformed percent-escape "%"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkValue(t, decodeOne(t, tt.param, tt.wire), tt.want, tt.wantErr)
		})
	}
}

// nest returns {"a":{"a":...v}} n levels deep.
func nest(n int, v any) any {
	for range n {
		v = map[string]any{"a": v}
	}
	return v
}
