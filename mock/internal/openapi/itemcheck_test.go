package openapi

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// streamDoc declares GET /s answering 200 with content, in 3.2.
func streamDoc(t *testing.T, content string) *Document {
	t.Helper()
	doc, err := Load([]byte(`openapi: 3.2.0
info: {title: t, version: '1'}
paths:
  /s:
    get:
      responses:
        '200':
          description: a stream
          content:
` + content))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

const chunks = `
            application/jsonl:
              itemSchema: {type: object, required: [n], properties: {n: {type: integer}}}
            application/json-seq:
              itemSchema: {type: object, required: [n], properties: {n: {type: integer}}}
            text/event-stream:
              itemSchema:
                type: object
                required: [data]
                properties:
                  data:
                    type: string
                    contentMediaType: application/json
                    contentSchema: {type: object, required: [n], properties: {n: {type: integer}}}
            multipart/mixed:
              itemSchema: {type: object, required: [n], properties: {n: {type: integer}}}
            application/json:
              schema: {type: object}`

func TestCheckResponseItems(t *testing.T) {
	op := operation(t, streamDoc(t, chunks))
	for _, c := range []struct{ ct, body, want string }{
		{"application/jsonl", "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n", ""},
		{"application/jsonl", "{\"n\":1}\n{\"n\":2}\n{\"n\":\"3\"}\n{\"n\":\"4\"}\n", "item[3].n"},
		{"application/jsonl", "{\"n\":1}\nnot json\n", "item[2]: "},
		{"application/json-seq", "\x1e{\"n\":1}\n\x1e{}\n", "item[2].n: required property is missing"},
		{"text/event-stream", "data: {\"n\":1}\n\ndata: {\"n\":true}\n\n", "item[2].data.n"},
		{"text/event-stream", "data: {\"n\":1}\n\ndata: {\"n\":", "item[2]: the stream ends inside an event"},
		{"text/event-stream", "data: {\"n\":1}\n\n: no more events\n", ""},
		{"text/event-stream", "data: {\"n\":1}\n\ndata: [DONE]\n\n", ""},
		{"text/event-stream", "data: {\"n\":1}\n\nevent: done\ndata: [DONE]\n\n", ""},
		{"text/event-stream", "data: {\"n\":1}\n\ndata: [DONE]\n\ndata: not read\n\n", ""},
		{"text/event-stream", "data: {\"n\":1}\n\ndata: [DONE]!\n\n", "item[2].data: the data is not JSON"},
		{"application/jsonl", "{\"n\":1}\n[DONE]\n", "item[2]: "},
		{"application/jsonl", "{\"n\":1}\n" + strings.Repeat(" ", MaxItem+1) + "{}\n", "item[2]: the item is over 1048576 bytes"},
		{"multipart/mixed; boundary=b", "--b\r\nContent-Type: application/json\r\n\r\n{\"n\":\"x\"}\r\n--b--\r\n", "item[1].n"},
		{"multipart/mixed", "--b\r\n\r\n{}\r\n--b--\r\n", "header.Content-Type: multipart/mixed without a boundary"},
	} {
		vs := op.CheckResponse(200, http.Header{"Content-Type": {c.ct}}, []byte(c.body), true)
		got := ""
		if len(vs) > 0 {
			got = vs[0].Path + ": " + vs[0].Reason
		}
		if c.want == "" && len(vs) > 0 || c.want != "" && (len(vs) == 0 || !strings.HasPrefix(got, c.want)) {
			t.Errorf("%s %q: %v, want %q", c.ct, c.body, vs, c.want)
		}
	}
}

func operation(t *testing.T, doc *Document) *Operation {
	t.Helper()
	route, _, _ := doc.Find("/s", "GET")
	return route.Operation("GET")
}

// TestCheckResponseStreamItemByItem checks a live stream: the check
// returns at the first broken item, while the stream is still open,
// so it never needs the stream's end.
func TestCheckResponseStreamItemByItem(t *testing.T) {
	doc := streamDoc(t, chunks)
	pr, pw := io.Pipe()
	defer pw.Close()
	written := make(chan error, 1)
	go func() {
		_, err := io.WriteString(pw, "{\"n\":1}\n{\"n\":2}\n{\"x\":3}\n")
		written <- err
	}()
	req := &http.Request{Method: "GET", URL: &url.URL{Path: "/s"}}
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/jsonl"}}, Body: pr}
	vs := doc.CheckResponse(req, resp)
	if len(vs) != 1 || vs[0].String() != "item[3].n: required property is missing" {
		t.Fatalf("CheckResponse = %v, want item[3] missing n", vs)
	}
	if err := <-written; err != nil {
		t.Fatal(err)
	}
	pr, pw = io.Pipe()
	go func() {
		io.WriteString(pw, "{\"n\":1}\n")
		pw.CloseWithError(errors.New("the connection is lost"))
	}()
	resp.Body = pr
	if vs := doc.CheckResponse(req, resp); len(vs) != 1 || vs[0].Reason != "the body cannot be read: the connection is lost" {
		t.Fatalf("a lost stream: %v", vs)
	}
}

func TestItemsNext(t *testing.T) {
	m := operation(t, streamDoc(t, chunks)).Response(200).Content[0]
	c := m.Items(strings.NewReader("{\"n\":1}\n{}\n{\"n\":3}\n"), "application/jsonl", false)
	for _, w := range []struct {
		n   int
		bad bool
	}{{1, false}, {2, true}, {3, false}} {
		n, vs, err := c.Next()
		if err != nil || n != w.n || (len(vs) > 0) != w.bad {
			t.Fatalf("Next = %d %v %v, want item %d (broken %v)", n, vs, err, w.n, w.bad)
		}
	}
	if _, _, err := c.Next(); err != io.EOF {
		t.Fatalf("at the end: %v", err)
	}
	if _, _, err := c.Next(); err != io.EOF {
		t.Fatalf("after the end: %v", err)
	}
}

// TestEndMarker: data: [DONE] ends a stream of server-sent events in a
// 3.0, 3.1 and 3.2 document alike, none of which describes it: it is
// not an item, ItemCheck stops there, and ReadItems reports it.
func TestEndMarker(t *testing.T) {
	for _, c := range []struct{ version, content string }{
		{"3.0.3", "text/event-stream: {schema: {type: object, required: [n], properties: {n: {type: integer}}}}"},
		{"3.1.0", "text/event-stream: {schema: {type: object, required: [n], properties: {n: {type: integer}}}}"},
		{"3.2.0", "text/event-stream: {itemSchema: {type: object, required: [data], properties: {data: {type: string, contentMediaType: application/json, contentSchema: {type: object, required: [n], properties: {n: {type: integer}}}}}}}"},
	} {
		doc, err := Load([]byte("openapi: " + c.version + "\ninfo: {title: t, version: '1'}\npaths:\n  /s:\n    get:\n      responses:\n        '200':\n          description: a stream\n          content:\n            " + c.content + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		m := operation(t, doc).Response(200).Content[0]
		const body = "data: {\"n\":1}\n\ndata: {\"n\":2}\n\ndata: [DONE]\n\ndata: {\"x\":3}\n\n"
		ic := m.Items(strings.NewReader(body), "text/event-stream", false)
		var got []string
		for {
			n, vs, err := ic.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprint(n, vs))
		}
		if strings.Join(got, " ") != "1 [] 2 []" {
			t.Errorf("%s: the items checked: %q, want 1 and 2, then the end", c.version, got)
		}
		items, done, err := m.ReadItems([]byte(body), "text/event-stream")
		if err != nil || !done || len(items) != 2 {
			t.Errorf("%s: ReadItems = %v, %v, %v; want two items, done", c.version, items, done, err)
		}
		items, done, err = m.ReadItems([]byte("data: {\"n\":1}\n\n"), "text/event-stream")
		if err != nil || done || len(items) != 1 {
			t.Errorf("%s: ReadItems without the marker = %v, %v, %v", c.version, items, done, err)
		}
	}
}
