package traffic

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// describe writes an exchange on one line: what each format's reader
// made of it.
func describe(t *testing.T, x Exchange) string {
	t.Helper()
	body, err := io.ReadAll(x.Request.Body)
	if err != nil {
		t.Fatal(err)
	}
	answer := "-"
	if x.AnswerKnown {
		answer = string(x.Answer)
	}
	return fmt.Sprintf("%s | %s %s %v %q partial=%v cut=%v | %d %v %s", x.Source, x.Request.Method, x.Request.URL, x.Request.Header, body,
		x.Partial, x.BodyCut, x.Status, x.AnswerHeader, answer)
}

// TestRead: each format is told by its content and read into exchanges,
// with what its record kept of the request and the answer.
func TestRead(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"a.har", `{"log": {"entries": [
  {"request": {"method": "POST", "url": "http://h/plants?x=1", "headers": [{"name": ":authority", "value": "h"}, {"name": "X-A", "value": "1"}],
    "postData": {"mimeType": "application/json", "text": "{\"id\":1}"}},
   "response": {"status": 201, "headers": [{"name": "X-B", "value": "2"}], "content": {"mimeType": "application/json", "encoding": "base64", "text": "e30="}}},
  {"request": {"method": "GET", "url": "http://h/plants"}, "response": {"status": 0}}]}}`,
			"a.har: entry 1 | POST http://h/plants?x=1 map[Content-Type:[application/json] X-A:[1]] \"{\\\"id\\\":1}\" partial=false cut=false | 201 map[Content-Type:[application/json] X-B:[2]] {}\n" +
				"a.har: entry 2 | GET http://h/plants map[] \"\" partial=false cut=false | 0 map[] -"},
		{"requests.json", `{"requests": [
  {"seq": 4, "method": "POST", "path": "/plants", "query": "a=b c", "headers": {"Authorization": ["Bearer ****en-1"], "Content-Type": ["application/json"]}, "body": "text", "status": 201, "response": {"id": 1}},
  {"seq": 5, "method": "POST", "path": "/a b", "headers": {"Authorization": ["Basic ****"], "Content-Type": ["text/plain"]}, "body": "it's \"text\"", "status": 400, "response": {"error": 1}, "code": 40001},
  {"seq": 6, "method": "PUT", "path": "/p", "headers": {"Cookie": ["s=****abcd"]}, "body": {"a": 1}, "status": 200, "response": "<p>", "clipped": {"body": 70000, "response": 80000}},
  {"seq": 7, "method": "GET", "path": "/p", "headers": {}, "clipped": {"query": 9000}},
  {"seq": 8, "method": "POST", "path": "/hook", "direction": "outbound", "status": 200}]}`,
			"requests.json: seq 4 | POST /plants?a=b c map[Authorization:[Bearer masked] Content-Type:[application/json]] \"\\\"text\\\"\" partial=false cut=false | 201 map[] {\"id\": 1}\n" +
				"requests.json: seq 5 | POST /a%20b map[Authorization:[Basic bWFza2VkOm1hc2tlZA==] Content-Type:[text/plain]] \"it's \\\"text\\\"\" partial=false cut=false | 400 map[] -\n" +
				"requests.json: seq 6 | PUT /p map[Cookie:[s=****abcd]] \"{\\\"a\\\": 1}\" partial=false cut=true | 200 map[] -"},
		{"recorded-post-plants.yaml", `{"name": "recorded-post-plants", "rules": [
  {"when": {"operation": "POST /plants", "headers": {"X-Variant": "a"}, "body": {"id": 1}}, "times": 1, "respond": {"status": 201, "body": {"id": 1}}},
  {"when": {"operation": "GET /plants/{id}/leaves/{leaf}", "params": {"id": "a/b", "leaf": "2"}}, "respond": {"status": 204}}]}`,
			"recorded-post-plants.yaml: rule 1 | POST /plants map[Content-Type:[application/json] X-Variant:[a]] \"{\\\"id\\\": 1}\" partial=true cut=false | 201 map[] {\"id\": 1}\n" +
				"recorded-post-plants.yaml: rule 2 | GET /plants/a%2Fb/leaves/2 map[] \"\" partial=true cut=false | 204 map[] -"},
	} {
		xs, err := Read(c.name, []byte(c.data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []string
		for _, x := range xs {
			got = append(got, describe(t, x))
		}
		if g := strings.Join(got, "\n"); g != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, g, c.want)
		}
	}
}

// TestReadPathsBound: the files read together are held to the bound, the
// one that passes it refused by name; a recording's folder is read in
// name order, its seed data and temporary files passed over.
func TestReadPathsBound(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.json", `{"requests": []}`) // 16 bytes
	b := write("b.json", `{"requests": []}`)
	if _, err := readPaths([]string{a, b}, 32); err != nil {
		t.Errorf("two files within the bound: %v", err)
	}
	want := b + ": with the files before it, over the limit of 31 bytes of traffic"
	if _, err := readPaths([]string{a, b}, 31); err == nil || err.Error() != want {
		t.Errorf("two files over the bound: %v\nwant %s", err, want)
	}
	want = a + ": file of 16 bytes is over the limit of 15 bytes"
	if _, err := readPaths([]string{a}, 15); err == nil || err.Error() != want {
		t.Errorf("one file over the bound: %v\nwant %s", err, want)
	}

	rec := filepath.Join(dir, "rec")
	if err := os.Mkdir(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	rule := func(op string) string {
		return `{"rules": [{"when": {"operation": "` + op + `"}, "respond": {"status": 200}}]}`
	}
	for name, text := range map[string]string{
		"recorded-get-b.yaml": rule("GET /b"), "recorded-get-a.yaml": rule("GET /a"),
		"seed-data.json": `{"/a": [{"id": 1}]}`, ".recorded-get-c.yaml.1.tmp": `{"rules": [`,
	} {
		if err := os.WriteFile(filepath.Join(rec, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	xs, err := ReadPaths([]string{rec})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range xs {
		got = append(got, x.Source+" "+x.Request.URL.Path)
	}
	if g, w := strings.Join(got, "; "), rec+"/recorded-get-a.yaml: rule 1 /a; "+rec+"/recorded-get-b.yaml: rule 1 /b"; g != w {
		t.Errorf("the folder: %s\nwant %s", g, w)
	}
}
