package wire

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// fuzzParams has a parameter of every style, so that every input meets
// each of them.
func fuzzParams(tb testing.TB) *Params {
	tb.Helper()
	obj := &Shape{Types: Object, Properties: map[string]*Shape{"R": integer, "n": {Types: Object}}, Additional: &Shape{Types: Boolean | Null}}
	ps, err := NewParams([]Param{
		{Name: "limit", In: "query", Shape: &Shape{Types: Integer | Null}},
		{Name: "tags", In: "query", Shape: ints},
		{Name: "csv", In: "query", Explode: no, Shape: strs},
		{Name: "csvo", In: "query", Explode: no, Shape: obj},
		{Name: "sp", In: "query", Style: "spaceDelimited", Shape: strs},
		{Name: "pi", In: "query", Style: "pipeDelimited", Shape: obj},
		{Name: "deep", In: "query", Style: "deepObject", Shape: obj},
		{Name: "rgb", In: "query", Shape: rgb},
		{Name: "rest", In: "query", Shape: &Shape{Types: Object, Additional: strs}},
		{Name: "j", In: "query", Content: "application/json"},
		{Name: "any", In: "query"},
		{Name: "c", In: "cookie", Shape: ints},
		{Name: "co", In: "cookie", Explode: no, Shape: obj},
		{Name: "h", In: "header", Shape: ints},
		{Name: "ho", In: "header", Explode: yes, Shape: obj},
		{Name: "s", In: "path", Shape: strs},
		{Name: "se", In: "path", Explode: yes, Shape: obj},
		{Name: "l", In: "path", Style: "label", Shape: strs},
		{Name: "le", In: "path", Style: "label", Explode: yes, Shape: obj},
		{Name: "m", In: "path", Style: "matrix", Shape: obj},
		{Name: "me", In: "path", Style: "matrix", Explode: yes, Shape: strs},
		{Name: "mo", In: "path", Style: "matrix", Explode: yes, Shape: obj},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return ps
}

// FuzzParams checks that no query string, path text, header or cookie
// makes decoding panic, that decoding is deterministic, and that every
// result is a JSON value of valid UTF-8 or an *Error.
func FuzzParams(f *testing.F) {
	for _, s := range []string{
		"limit=10&tags=1&tags=2", "csv=a,b%2Cc", "csv=a%2Cb", "csvo=R,1,n,2", "sp=a+b%20c", "pi=R|1|x|true",
		"deep[R]=1&deep[n][a]=2", "deep[a][b][c]=1&deep[a]=2", "deep[]=1", "deep", "R=1&G=2&B=3", "x=1&y=2&x=3",
		"j=%7B%22a%22%3A1%7D", "j={", "any=1&any=2", "%zz=1", "limit=%zz", "a=%ff", "&&=&=", "limit=null",
	} {
		f.Add(s, "blue,black", "c=1; c=2; co=R,1", ".a.b")
	}
	f.Add("", ";m=R,1;x", `c="1"; ;=;co`, ";me=a;me=b")
	f.Add("", "R=1,=,", "", ";R=1;x;n")
	ps := fuzzParams(f)
	f.Fuzz(func(t *testing.T, query, text, cookie, pathText string) {
		r, err := http.NewRequest(http.MethodGet, "http://x.test/", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.URL.RawQuery = query
		r.Header["H"] = []string{text}
		r.Header["Ho"] = []string{text, text}
		r.Header["Cookie"] = []string{cookie, text}
		path := func(name string) (string, bool) {
			if name[0] == 'l' || name[0] == 'm' {
				return pathText, true
			}
			return text, true
		}
		first := ps.Decode(nil, r, path)
		second := ps.Decode(nil, r, path)
		if !reflect.DeepEqual(first, second) {
			t.Fatalf("decoding twice differs:\n%#v\n%#v", first, second)
		}
		for i, v := range first {
			checkResult(t, v.Value, v.Err, true)
			if v.Err != nil && !strings.HasPrefix(v.Err.Error(), ps.fields[i].path+": ") {
				t.Errorf("error %q does not name %s", v.Err, ps.fields[i].path)
			}
		}
	})
}

// FuzzURLEncoded checks form bodies as FuzzParams does parameters.
func FuzzURLEncoded(f *testing.F) {
	for _, s := range []string{
		"id=a+b&count=3&tags=x&tags=y&address=%7B%22zip%22%3A%2212%22%7D&color[R]=1&ids=1,2&words=a|b&R=9",
		"note=%22hi%22&meta=%5B1%5D&extra=e1&extra=e2", "count=1&count=2", "a%zz=1", "color[R=1", "address=", "%ff=1",
	} {
		f.Add([]byte(s))
	}
	form := newTestForm(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		first, err1 := form.DecodeURLEncoded(body)
		second, err2 := form.DecodeURLEncoded(body)
		if !reflect.DeepEqual(first, second) || !reflect.DeepEqual(err1, err2) {
			t.Fatalf("decoding twice differs: %v, %v / %v, %v", first, err1, second, err2)
		}
		if first != nil {
			checkResult(t, first, err1, true)
		} else {
			checkResult(t, nil, err1, true)
		}
	})
}

// FuzzMultipart checks multipart bodies: no panic, the same result twice,
// and never more than the limit read.
func FuzzMultipart(f *testing.F) {
	body, ct := multipartBody(f,
		part{name: "id", body: "a"}, part{name: "tags", body: "x"}, part{name: "tags", body: "y"},
		part{name: "avatar", filename: "a.png", contentType: "image/png", body: "\x89PNG"},
		part{name: "address", body: `{"zip":"1"}`}, part{name: "note", contentType: "text/plain", body: "n"},
	)
	boundary := ct[strings.Index(ct, "boundary=")+len("boundary="):]
	f.Add(body, int64(len(body)))
	f.Add(body[:len(body)/2], int64(100))
	f.Add([]byte("--"+boundary+"\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\n1\r\n--"+boundary+"--\r\n"), int64(1000))
	form := newTestForm(f)
	f.Fuzz(func(t *testing.T, body []byte, limit int64) {
		limit %= 1 << 16
		r := &countingReader{r: bytes.NewReader(body)}
		first, err1 := form.DecodeMultipart(r, ct, limit)
		if r.n > max(limit, 0)+1 {
			t.Fatalf("read %d bytes with a limit of %d", r.n, limit)
		}
		second, err2 := form.DecodeMultipart(bytes.NewReader(body), ct, limit)
		if !reflect.DeepEqual(first, second) || !reflect.DeepEqual(err1, err2) {
			t.Fatalf("decoding twice differs: %v, %v / %v, %v", first, err1, second, err2)
		}
		if first != nil {
			checkResult(t, first, err1, false)
		} else {
			checkResult(t, nil, err1, false)
		}
	})
}

type countingReader struct {
	r *bytes.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// checkResult checks that a result is either an *Error or a JSON value
// (whose strings are UTF-8 when utf8Strings is set).
func checkResult(tb testing.TB, v any, err error, utf8Strings bool) {
	tb.Helper()
	if err != nil {
		if _, ok := err.(*Error); !ok {
			tb.Fatalf("error %v is a %T", err, err)
		}
		if v != nil {
			tb.Fatalf("value %#v with error %v", v, err)
		}
		return
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case nil, bool:
		case json.Number:
			if !jsonx.IsNumber(string(x)) {
				tb.Fatalf("%q is not a JSON number", x)
			}
		case string:
			if utf8Strings && !utf8.ValidString(x) {
				tb.Fatalf("%q is not UTF-8", x)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				if !utf8.ValidString(k) {
					tb.Fatalf("name %q is not UTF-8", k)
				}
				walk(e)
			}
		default:
			tb.Fatalf("%#v is a %T, not a JSON value", v, v)
		}
	}
	walk(v)
}
