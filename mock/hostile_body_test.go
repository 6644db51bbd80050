package mock

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileSpec is a document whose one body schema has a keyword of each
// kind a hostile body can aim at: numeric bounds, multipleOf, integers
// and int32, patterns (two of them catastrophic for a backtracking
// engine, which their lookarounds need: the strings that make the first
// backtrack, the pattern without its lookahead refuses in linear time;
// the second's hostile strings pass without its lookbehind), and no
// other properties. The body
// of /others has keywords the fast path does not check (propertyNames,
// oneOf), so that the validator judges it.
const hostileSpec = `openapi: 3.1.0
info: {title: hostile, version: "1"}
paths:
  /things:
    get:
      parameters:
        - {name: limit, in: query, schema: {type: integer, maximum: 100}}
      responses:
        "204": {description: listed}
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              properties:
                n: {type: number, maximum: 10}
                m: {type: number, multipleOf: 7}
                i: {type: integer, minimum: 0}
                x: {type: integer, format: int32}
                list: {type: array, items: {type: number, maximum: 10}}
                deep: {type: array, items: {$ref: "#/components/schemas/Deep"}}
                s: {type: string, pattern: "^[a-z]+$"}
                strs: {type: array, items: {type: string, pattern: "^[a-z]+$"}}
                e: {type: string, pattern: "^(?=a)(a+)+$"}
                es: {type: array, items: {type: string, pattern: "^(?=a)(a+)+$"}}
                w: {type: string, pattern: "^(\\w+\\s?)+(?<!\\s)$"}
                ws: {type: array, items: {type: string, pattern: "^(\\w+\\s?)+(?<!\\s)$"}}
      responses:
        "204": {description: taken}
  /others:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              propertyNames: {maxLength: 10}
              properties:
                es: {type: array, items: {type: string, pattern: "^(?=a)(a+)+$"}}
                eo: {oneOf: [{type: string, pattern: "^(?=a)(a+)+$"}, {type: integer}]}
      responses:
        "204": {description: taken}
components:
  schemas:
    Deep:
      type: [array, number]
      items: {$ref: "#/components/schemas/Deep"}
      maximum: 10
`

// hostileBody is one hostile request: a path on the hostile document (or
// the Plant Store when plants is true) and a body.
type hostileBody struct {
	name   string
	plants bool
	method string
	path   string
	body   []byte
}

// repeatTo repeats item, joined by commas, until the list is about n
// bytes long.
func repeatTo(item string, n int) string {
	return strings.TrimSuffix(strings.Repeat(item+",", n/(len(item)+1)), ",")
}

// hostileBodies are the hostile requests, each about 9 KB at most (the
// 900,000-digit id aside): a tenth of what was found to cost seconds.
func hostileBodies() []hostileBody {
	const size = 9 << 10
	keys := make([]string, 0, 1000)
	for i := 0; len(strings.Join(keys, ",")) < size-16; i++ {
		keys = append(keys, `"k`+strconv.Itoa(i)+`":1`)
	}
	return []hostileBody{
		{name: "9 KB of 1e100000 against maximum", path: "/things", body: []byte(`{"list":[` + repeatTo("1e100000", size) + `]}`)},
		{name: "1e10000000 against maximum", path: "/things", body: []byte(`{"n":1e10000000}`)},
		{name: "1e10000000 against multipleOf", path: "/things", body: []byte(`{"m":1e10000000}`)},
		{name: "-1e10000000 against minimum", path: "/things", body: []byte(`{"i":-1e10000000}`)},
		{name: "1e100000 as an integer", path: "/things", body: []byte(`{"i":1e100000}`)},
		{name: "1e10000000 as an integer", path: "/things", body: []byte(`{"i":1e10000000}`)},
		{name: "1e-10000000 as an integer", path: "/things", body: []byte(`{"i":1e-10000000}`)},
		{name: "1e100000 as an int32", path: "/things", body: []byte(`{"x":1e100000}`)},
		{name: "an exponent of 30 digits", path: "/things", body: []byte(`{"n":1e100000000000000000000000000000}`)},
		{name: "9 KB of digits against maximum", path: "/things", body: []byte(`{"n":` + strings.Repeat("9", size) + `}`)},
		{name: "1e10000000 in a query", method: "GET", path: "/things?limit=1e10000000"},
		{name: "deep nesting", path: "/things", body: []byte(`{"deep":[` + strings.Repeat("[", size/2) + "11" + strings.Repeat("]", size/2) + `]}`)},
		{name: "a long key", path: "/things", body: []byte(`{"` + strings.Repeat("k", size) + `":1}`)},
		{name: "many keys", path: "/things", body: []byte("{" + strings.Join(keys, ",") + "}")},
		{name: "a long string against a pattern", path: "/things", body: []byte(`{"s":"` + strings.Repeat("a", size) + `!"}`)},
		{name: "many strings against a pattern", path: "/things", body: []byte(`{"strs":[` + repeatTo(`"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"`, size) + `]}`)},
		{name: "a catastrophic pattern", path: "/things", body: []byte(`{"e":"` + strings.Repeat("a", 30) + `!"}`)},
		{name: "many strings against a catastrophic pattern", path: "/things", body: []byte(`{"es":[` + repeatTo(`"`+strings.Repeat("a", 30)+`!"`, size) + `]}`)},
		{name: "many strings against a catastrophic pattern, each different", path: "/things", body: []byte(`{"es":[` + differentTo(size, "!") + `]}`)},
		{name: "a long string against a catastrophic pattern", path: "/things", body: []byte(`{"e":"` + strings.Repeat("a", size) + `!"}`)},
		{name: "a catastrophic pattern its superset takes", path: "/things", body: []byte(`{"w":"` + strings.Repeat("a", 30) + ` "}`)},
		{name: "many strings against a catastrophic pattern its superset takes", path: "/things", body: []byte(`{"ws":[` + differentTo(size, " ") + `]}`)},
		{name: "a long string against a catastrophic pattern its superset takes", path: "/things", body: []byte(`{"w":"` + strings.Repeat("a", size) + ` "}`)},
		{name: "a catastrophic pattern in a oneOf", path: "/others", body: []byte(`{"eo":"` + strings.Repeat("a", 30) + `!"}`)},
		{name: "many strings against a catastrophic pattern, off the fast path", path: "/others", body: []byte(`{"es":[` + differentTo(size, "!") + `]}`)},
		{name: "1e100000 as a plant's id", plants: true, path: "/plants", body: []byte(`{"id":1e100000,"name":"a"}`)},
		{name: "9 KB of 1e100000 as a plant", plants: true, path: "/plants", body: []byte(`[` + repeatTo("1e100000", size) + `]`)},
	}
}

// differentTo lists strings of 30 a's and end, 31 and end, and so on,
// until the list is about n bytes long.
func differentTo(n int, end string) string {
	var items []string
	for i, size := 0, 0; size < n; i++ {
		item := `"` + strings.Repeat("a", 30+i) + end + `"`
		items = append(items, item)
		size += len(item) + 1
	}
	return strings.Join(items, ",")
}

// hugeBodies are bodies of 900 KB to 1 MB, within the default --max-body
// and a hundred times the hostile bodies: a create whose id has 900,000
// digits, one whose id is a string as long (the cost of any body that
// size), and the two hostile bodies with most violations grown to 1 MB.
func hugeBodies() []hostileBody {
	const size = 1000 << 10
	var keys strings.Builder
	for i := 0; keys.Len() < size-16; i++ {
		fmt.Fprintf(&keys, `,"k%06d":1`, i)
	}
	return []hostileBody{
		{name: "a 900,000-digit id", plants: true, path: "/plants",
			body: []byte(`{"id":` + strings.Repeat("9", 900_000) + `,"name":"a"}`)},
		{name: "a 900,000-byte string id", plants: true, path: "/plants",
			body: []byte(`{"id":"` + strings.Repeat("9", 900_000) + `","name":"a"}`)},
		{name: "1 MB of 1e100000 against maximum", path: "/things", body: []byte(`{"list":[` + repeatTo("1e100000", size) + `]}`)},
		{name: "1 MB of keys", path: "/things", body: []byte("{" + keys.String()[1:] + "}")},
		{name: "1 MB of refused numbers", path: "/things", body: []byte(`{"list":[` + repeatTo("1e1000000000", size) + `]}`)},
	}
}

// request is hb as net/http would hand it to the handler.
func (hb hostileBody) request() *http.Request {
	method := hb.method
	if method == "" {
		method = "POST"
	}
	u, _ := url.Parse("http://127.0.0.1" + hb.path)
	r := &http.Request{Method: method, URL: u, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Authorization": {"Bearer abc"}}, Host: "127.0.0.1", RequestURI: hb.path, Body: http.NoBody}
	if hb.body != nil {
		r.Header.Set("Content-Type", "application/json")
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(hb.body)), int64(len(hb.body))
	}
	return r
}

// BenchmarkHostileBody sends each hostile body through the handler, in
// process, with the log on, one request at a time: cpu-ns/op is the CPU
// time of the process for one answer (the garbage collector's included,
// other processes' not, unlike ns/op on a busy machine), B/op what it
// allocates, and log-B/op the bytes of its log line. The targets: under
// 1 ms of CPU and 1 MiB of allocation for each body of about 9 KB; a
// body that hits a catastrophic pattern takes one match's bound
// (regex.MatchTimeout) more.
func BenchmarkHostileBody(b *testing.B) {
	for _, hb := range append(hostileBodies(), hugeBodies()...) {
		b.Run(hb.name, func(b *testing.B) {
			var log bytes.Buffer
			opts := Options{LogRequests: true, Logger: slog.New(slog.NewJSONHandler(&log, nil))}
			if !hb.plants {
				opts.Spec = []byte(hostileSpec)
			}
			s, err := New(opts)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			reqs := make([]*http.Request, b.N)
			for i := range reqs {
				reqs[i] = hb.request()
			}
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := processCPU(b)
			for i := 0; i < b.N; i++ {
				clear(w.h)
				s.ServeHTTP(w, reqs[i])
			}
			cpu = processCPU(b) - cpu
			b.StopTimer()
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(log.Len())/float64(b.N), "log-B/op")
		})
	}
}

// Bounds of what the mock writes about one hostile request.
const (
	maxAnswer  = 8 << 10 // an error body
	maxLogLine = 6 << 10 // a log line (see logExchange)
)

// lineWriter hands each line written to it to a channel.
type lineWriter chan string

func (w lineWriter) Write(b []byte) (int, error) { w <- string(b); return len(b), nil }

// TestHostileBodies sends each hostile body to a mock over loopback and
// checks the exact answer, that it is bounded, and that its log line is.
func TestHostileBodies(t *testing.T) {
	logs := make(lineWriter, 8)
	servers := map[bool]*httptest.Server{}
	for _, plants := range []bool{false, true} {
		opts := Options{LogRequests: true, Logger: slog.New(slog.NewJSONHandler(logs, nil))}
		if !plants {
			opts.Spec = []byte(hostileSpec)
		}
		_, servers[plants] = newTestServer(t, opts)
	}
	for _, hb := range append(hostileBodies(), hugeBodies()...) {
		t.Run(hb.name, func(t *testing.T) {
			want, ok := hostileAnswers[hb.name]
			if !ok {
				t.Fatalf("no answer is expected of %q", hb.name)
			}
			ts := servers[hb.plants]
			r := hb.request()
			r.URL, _ = url.Parse(ts.URL + hb.path)
			r.RequestURI, r.Host = "", ""
			resp, err := ts.Client().Do(r)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != want.status || string(got) != want.body {
				t.Errorf("answer %d %s\nwant   %d %s", resp.StatusCode, got, want.status, want.body)
			}
			if len(got) > maxAnswer {
				t.Errorf("answer of %d bytes, over %d", len(got), maxAnswer)
			}
			select {
			case line := <-logs:
				if len(line) > maxLogLine {
					t.Errorf("log line of %d bytes, over %d: %.300s", len(line), maxLogLine, line)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no log line")
			}
		})
	}
}

// hostileAnswers are the answers to the hostile bodies, by name.
var hostileAnswers = map[string]struct {
	status int
	body   string
}{
	"9 KB of 1e100000 against maximum":                                {422, schemaAnswer("1e100000 is over the maximum 10", "and more than 980 more", append(append([]string{"list[0]"}, numbered("list[1%02d]", 0, 10)...), append([]string{"list[10]"}, numbered("list[1%02d]", 10, 8)...)...)...)},
	"1e10000000 against maximum":                                      {422, "{\"error\":40004,\"message\":\"request body does not match the schema: n: 1e10000000 is over the maximum 10\"}"},
	"1e10000000 against multipleOf":                                   {422, "{\"error\":40004,\"message\":\"request body does not match the schema: m: 1e10000000 is not a multiple of 7\"}"},
	"-1e10000000 against minimum":                                     {422, "{\"error\":40004,\"message\":\"request body does not match the schema: i: -1e10000000 is under the minimum 0\"}"},
	"1e100000 as an integer":                                          {204, ""},
	"1e10000000 as an integer":                                        {204, ""},
	"1e-10000000 as an integer":                                       {422, "{\"error\":40004,\"message\":\"request body does not match the schema: i: expected integer, got number\"}"},
	"1e100000 as an int32":                                            {422, "{\"error\":40004,\"message\":\"request body does not match the schema: x: 1e100000 is over the int32 maximum 2147483647\"}"},
	"an exponent of 30 digits":                                        {422, "{\"error\":40004,\"message\":\"request body does not match the schema: n: 1e100000000000000000000000000000 has an exponent of more than 9 digits\"}"},
	"9 KB of digits against maximum":                                  {422, "{\"error\":40004,\"message\":\"request body does not match the schema: n: 99999999999999999999999999999999...(9216 bytes) has more than 1000 digits\"}"},
	"1e10000000 in a query":                                           {400, "{\"error\":40005,\"message\":\"invalid parameters: query.limit: 1e10000000 is over the maximum 100\"}"},
	"deep nesting":                                                    {422, "{\"error\":40004,\"message\":\"request body does not match the schema: deep[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][...(385 bytes): nested deeper than 128 levels\"}"},
	"a long key":                                                      {422, "{\"error\":40004,\"message\":\"request body does not match the schema: kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...(9216 bytes): property is not declared by the schema\"}"},
	"many keys":                                                       {422, schemaAnswer("property is not declared by the schema", "and more than 980 more", append(append([]string{"k0", "k1", "k10", "k100"}, numbered("k10%02d", 0, 10)...), append([]string{"k101"}, numbered("k10%02d", 10, 5)...)...)...)},
	"a long string against a pattern":                                 {422, "{\"error\":40004,\"message\":\"request body does not match the schema: s: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(9217 bytes)\\\" does not match the pattern ^[a-z]+$\"}"},
	"many strings against a pattern":                                  {422, "{\"error\":40004,\"message\":\"request body does not match the schema: strs[0]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[100]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[101]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[102]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[103]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[104]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[105]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[106]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[107]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[108]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[109]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[10]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[110]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[111]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[112]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[113]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[114]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[115]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[116]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; strs[117]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^[a-z]+$; and 251 more\"}"},
	"1e100000 as a plant's id":                                        {400, "{\"error\":40004,\"message\":\"request body does not match the schema: id: 1e100000 is over the int64 maximum 9223372036854775807\"}"},
	"9 KB of 1e100000 as a plant":                                     {400, "{\"error\":40004,\"message\":\"request body does not match the schema: body: expected object, got array\"}"},
	"a 900,000-digit id":                                              {400, "{\"error\":40004,\"message\":\"request body does not match the schema: id: 99999999999999999999999999999999...(900000 bytes) has more than 1000 digits\"}"},
	"1 MB of 1e100000 against maximum":                                {422, schemaAnswer("1e100000 is over the maximum 10", "and more than 980 more", append(append([]string{"list[0]"}, numbered("list[1%02d]", 0, 10)...), append([]string{"list[10]"}, numbered("list[1%02d]", 10, 8)...)...)...)},
	"1 MB of refused numbers":                                         {422, schemaAnswer("1e1000000000 has an exponent of more than 9 digits", "and more than 980 more", append(append([]string{"list[0]"}, numbered("list[1%02d]", 0, 10)...), append([]string{"list[10]"}, numbered("list[1%02d]", 10, 8)...)...)...)},
	"a catastrophic pattern":                                          {422, "{\"error\":40004,\"message\":\"request body does not match the schema: e: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$\"}"},
	"many strings against a catastrophic pattern":                     {422, "{\"error\":40004,\"message\":\"request body does not match the schema: es[0]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[100]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[101]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[102]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[103]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[104]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[105]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[106]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[107]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[108]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[109]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[10]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[110]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[111]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[112]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[113]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[114]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[115]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[116]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[117]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; and 251 more\"}"},
	"many strings against a catastrophic pattern, each different":     {422, "{\"error\":40004,\"message\":\"request body does not match the schema: es[0]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[100]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(131 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[101]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(132 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[102]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(133 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[103]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(134 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[104]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(135 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[105]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(136 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[106]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(137 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[10]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(41 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[11]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(42 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[12]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(43 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[13]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(44 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[14]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(45 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[15]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(46 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[16]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(47 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[17]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(48 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[18]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(49 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[19]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(50 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[1]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[20]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(51 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; and 87 more\"}"},
	"a long string against a catastrophic pattern":                    {422, "{\"error\":40004,\"message\":\"request body does not match the schema: e: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(9217 bytes)\\\" does not match the pattern ^(?=a)(a+)+$\"}"},
	"a catastrophic pattern its superset takes":                       {422, "{\"error\":40004,\"message\":\"request body does not match the schema: w: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \\\" could not be matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$ within 3ms\"}"},
	"many strings against a catastrophic pattern its superset takes":  {422, "{\"error\":40004,\"message\":\"request body does not match the schema: ws[0]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \\\" could not be matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$ within 3ms; ws[100]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(131 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[101]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(132 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[102]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(133 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[103]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(134 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[104]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(135 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[105]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(136 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[106]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(137 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[10]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(41 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[11]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(42 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[12]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(43 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[13]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(44 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[14]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(45 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[15]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(46 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[16]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(47 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[17]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(48 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[18]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(49 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[19]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(50 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[1]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; ws[20]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(51 bytes)\\\" was not matched against the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$: an earlier string of the value took the time a value may spend on patterns; and 87 more\"}"},
	"a long string against a catastrophic pattern its superset takes": {422, "{\"error\":40004,\"message\":\"request body does not match the schema: w: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(9217 bytes)\\\" is longer than 4096 characters, the most the pattern ^(\\\\w+\\\\s?)+(?<!\\\\s)$ is matched against (it needs a backtracking engine)\"}"},
	"a catastrophic pattern in a oneOf":                               {422, "{\"error\":40004,\"message\":\"request body does not match the schema: eo: matches none of the oneOf alternatives\"}"},
	"many strings against a catastrophic pattern, off the fast path":  {422, "{\"error\":40004,\"message\":\"request body does not match the schema: es[0]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[100]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(131 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[101]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(132 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[102]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(133 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[103]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(134 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[104]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(135 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[105]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(136 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[106]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(137 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[10]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(41 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[11]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(42 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[12]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(43 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[13]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(44 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[14]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(45 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[15]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(46 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[16]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(47 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[17]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(48 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[18]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(49 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[19]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(50 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; es[1]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\\" does not match the pattern ^(?=a)(a+)+$; es[20]: \\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(51 bytes)\\\" does not match the pattern ^(?=a)(a+)+$; and 87 more\"}"},
	"1 MB of keys":                                                    {422, schemaAnswer("property is not declared by the schema", "and more than 980 more", numbered("k%06d", 0, 20)...)},
	"a 900,000-byte string id":                                        {400, "{\"error\":40004,\"message\":\"request body does not match the schema: id: expected integer, got string\"}"},
}

// numbered returns format filled with from to from+n-1.
func numbered(format string, from, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(format, from+i)
	}
	return out
}

// schemaAnswer is the error body of a request body that breaks its schema
// for reason at each of paths, the first 20, and at more places after.
func schemaAnswer(reason, more string, paths ...string) string {
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = p + ": " + reason
	}
	return fmt.Sprintf(`{"error":40004,"message":"request body does not match the schema: %s; %s"}`, strings.Join(quoted, "; "), more)
}

// processCPU returns the CPU time the process has used, user and system.
func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestHostileBodyClientGone: a bad body whose client has gone is not
// explained to the end: the mock stops and journals why. The context is
// cancelled before the request is handed over, the one moment a test can
// be sure of; the explainer looks at it every 256 values or violations.
func TestHostileBodyClientGone(t *testing.T) {
	s, err := New(Options{Spec: []byte(hostileSpec)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, hb := range hostileBodies() {
		if hb.name != "many keys" && hb.name != "9 KB of 1e100000 against maximum" {
			continue
		}
		t.Run(hb.name, func(t *testing.T) {
			live := httptest.NewRecorder()
			s.ServeHTTP(live, hb.request())
			if live.Code != 422 {
				t.Fatalf("with its client there: %d %s; want 422", live.Code, live.Body)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			w := httptest.NewRecorder()
			s.ServeHTTP(w, hb.request().WithContext(ctx))
			want := `{"error":40001,"message":"request body was not checked: the client has gone (context canceled)"}`
			if got := strings.TrimSpace(w.Body.String()); w.Code != 400 || got != want {
				t.Errorf("with its client gone: %d %s; want 400 %s", w.Code, got, want)
			}
		})
	}
}
