package mock

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/pipeline"
)

// nextSpec is replicaSpec's next version: a plant's name holds 5
// characters at most, and a create no longer answers 409.
func nextSpec(t *testing.T) []byte {
	t.Helper()
	next := strings.Replace(replicaSpec, "name: {type: string}}", "name: {type: string, maxLength: 5}}", 1)
	next = strings.Replace(next, "        '409': {$ref: '#/components/responses/Error'}\n", "", 1)
	if next == replicaSpec || strings.Contains(next, "'409'") {
		t.Fatal("replicaSpec changed: nextSpec no longer changes it")
	}
	return []byte(next)
}

// judgeTraffic judges the files at paths against the document spec and
// returns the report's text, dir left out of the file names, and its
// verdict.
func judgeTraffic(t *testing.T, spec []byte, dir string, paths ...string) (string, bool) {
	t.Helper()
	s, err := New(Options{Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.CheckTraffic(paths...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(r.Text(), dir+string(filepath.Separator), ""), r.Clean("")
}

// trafficSession is what the clients send in the tests of recorded
// traffic: creates, one of them again, reads and a list.
var trafficSession = []struct{ method, path, body string }{
	{"POST", "/plants", `{"id":1,"name":"fern"}`},
	{"POST", "/plants", `{"id":2,"name":"monstera"}`},
	{"POST", "/plants", `{"id":1,"name":"fern"}`},
	{"GET", "/plants/2", ""},
	{"GET", "/plants/x", ""},
	{"GET", "/plants", ""},
}

// TestTrafficJournal: the journal of a mock of one document, saved from
// GET /__admin/requests, judged against the document's next version
// names exactly the requests it refuses and the answers it no longer
// allows, with their rules; against its own document, none.
func TestTrafficJournal(t *testing.T) {
	_, ts := newTestServer(t, Options{Spec: []byte(replicaSpec)})
	var got []string
	for _, c := range trafficSession {
		st, _ := do(t, ts, c.method, c.path, c.body, "Authorization", "Bearer secret-token-1")
		got = append(got, itoa(st))
	}
	if strings.Join(got, " ") != "201 201 409 200 400 200" {
		t.Fatalf("statuses %s", strings.Join(got, " "))
	}
	_, resp, body := send(t, ts, call{method: "GET", path: "/__admin/requests"})
	if resp.StatusCode != 200 {
		t.Fatalf("GET /__admin/requests: %d %s", resp.StatusCode, body)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "requests.json")
	if err := os.WriteFile(file, body, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "GET /plants: 1 exchange(s), 1 kind(s) of violation\n" +
		"  response x1: [1].name: longer than the maximum length 5 (e.g. GET /plants -> 200)\n" +
		"GET /plants/{id}: 2 exchange(s), 2 kind(s) of violation\n" +
		"  response x1: name: longer than the maximum length 5 (e.g. GET /plants/2 -> 200)\n" +
		"  request x1: path.id: expected integer, got string (e.g. GET /plants/x -> 400)\n" +
		"POST /plants: 3 exchange(s), 2 kind(s) of violation\n" +
		"  request x1: name: longer than the maximum length 5 (e.g. POST /plants -> 201)\n" +
		"  response x1: name: longer than the maximum length 5 (e.g. POST /plants -> 201)\n" +
		"traffic: 6 exchange(s) judged, 4 breaking the document:\n" +
		"  requests.json: seq 2: POST /plants -> 201\n" +
		"    request name: longer than the maximum length 5 (#/components/schemas/Plant/properties/name/maxLength)\n" +
		"    response name: longer than the maximum length 5 (#/components/schemas/Plant/properties/name/maxLength)\n" +
		"  requests.json: seq 4: GET /plants/2 -> 200\n" +
		"    response name: longer than the maximum length 5 (#/components/schemas/Plant/properties/name/maxLength)\n" +
		"  requests.json: seq 5: GET /plants/x -> 400\n" +
		"    request path.id: expected integer, got string (#/paths/~1plants~1{id}/get/parameters/0/schema/type)\n" +
		"  requests.json: seq 6: GET /plants -> 200\n" +
		"    response [1].name: longer than the maximum length 5 (#/components/schemas/Plant/properties/name/maxLength)\n"
	if got, clean := judgeTraffic(t, nextSpec(t), dir, file); got != want || clean {
		t.Errorf("against the next version (clean %v):\n%s\nwant\n%s", clean, got, want)
	}
	want = "GET /plants: 1 exchange(s), 0 kind(s) of violation\n" +
		"GET /plants/{id}: 2 exchange(s), 1 kind(s) of violation\n" +
		"  request x1: path.id: expected integer, got string (e.g. GET /plants/x -> 400)\n" +
		"POST /plants: 3 exchange(s), 0 kind(s) of violation\n" +
		"traffic: 6 exchange(s) judged, 1 breaking the document:\n" +
		"  requests.json: seq 5: GET /plants/x -> 400\n" +
		"    request path.id: expected integer, got string (#/paths/~1plants~1{id}/get/parameters/0/schema/type)\n"
	if got, _ := judgeTraffic(t, []byte(replicaSpec), dir, file); got != want {
		t.Errorf("against its own document:\n%s\nwant\n%s", got, want)
	}
}

// TestTrafficRecording: what a proxy recorded of the real service, its
// folder or one of its files, judged against the document's next
// version: each recorded request by its route and body, each answer by
// its status and body, the one it no longer declares named.
func TestTrafficRecording(t *testing.T) {
	dir := t.TempDir()
	real := crudStore(t)
	_, rec := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: real.URL, Record: dir}})
	for _, c := range trafficSession {
		do(t, rec, c.method, c.path, c.body, "Authorization", "Bearer secret-token-1")
	}
	snapshot(t, rec, "recorded-get-plants-{id}.yaml recorded-get-plants.yaml recorded-post-plants.yaml seed-data.json")
	want := "GET /plants: 1 exchange(s), 1 kind(s) of violation\n" +
		"  response x1: [1].name: longer than the maximum length 5 (e.g. GET /plants -> 200)\n" +
		"GET /plants/{id}: 2 exchange(s), 1 kind(s) of violation\n" +
		"  response x1: name: longer than the maximum length 5 (e.g. GET /plants/2 -> 200)\n" +
		"POST /plants: 3 exchange(s), 3 kind(s) of violation\n" +
		"  response x1: status 409 is not declared by POST /plants (e.g. POST /plants -> 409)\n" +
		"  request x1: name: longer than the maximum length 5 (e.g. POST /plants -> 201)\n" +
		"  response x1: name: longer than the maximum length 5 (e.g. POST /plants -> 201)\n" +
		"traffic: 6 exchange(s) judged, 4 breaking the document:\n" +
		"  recorded-get-plants-{id}.yaml: rule 1: GET /plants/2 -> 200\n" +
		"    response name: longer than the maximum length 5 (#/components/schemas/Plant/properties/name/maxLength)\n" +
		"  recorded-get-plants.yaml: rule 1: GET /plants -> 200\n" +
		"    response [1].name: longer than the maximum length 5 (#/components/schemas/Plant/properties/name/maxLength)\n" +
		"  recorded-post-plants.yaml: rule 2: POST /plants -> 409\n" +
		"    response: status 409 is not declared by POST /plants\n" +
		"  recorded-post-plants.yaml: rule 3: POST /plants -> 201\n" +
		"    request name: longer than the maximum length 5 (#/components/schemas/Plant/properties/name/maxLength)\n" +
		"    response name: longer than the maximum length 5 (#/components/schemas/Plant/properties/name/maxLength)\n"
	if got, clean := judgeTraffic(t, nextSpec(t), dir, dir); got != want || clean {
		t.Errorf("the folder against the next version (clean %v):\n%s\nwant\n%s", clean, got, want)
	}
	file := filepath.Join(dir, "recorded-get-plants.yaml")
	want = "GET /plants: 1 exchange(s), 1 kind(s) of violation\n" +
		"  response x1: [1].name: longer than the maximum length 5 (e.g. GET /plants -> 200)\n" +
		"traffic: 1 exchange(s) judged, 1 breaking the document:\n" +
		"  recorded-get-plants.yaml: rule 1: GET /plants -> 200\n" +
		"    response [1].name: longer than the maximum length 5 (#/components/schemas/Plant/properties/name/maxLength)\n"
	if got, _ := judgeTraffic(t, nextSpec(t), dir, file); got != want {
		t.Errorf("one file against the next version:\n%s\nwant\n%s", got, want)
	}
	if got, clean := judgeTraffic(t, []byte(replicaSpec), dir, dir); !clean || !strings.HasSuffix(got, "traffic: 6 exchange(s) judged, none breaking the document\n") {
		t.Errorf("against its own document (clean %v):\n%s", clean, got)
	}
}

// TestTrafficFiles: several files of different formats are judged into
// one report; a file of none of them, or one that cannot be read, is
// refused in one line naming it, and nothing is judged.
func TestTrafficFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	har := write("session.har", `{"log": {"entries": [{"request": {"method": "POST", "url": "http://localhost/plants", "headers": [],
  "postData": {"mimeType": "application/json", "text": "{\"id\":3,\"name\":\"rosemary\"}"}}, "response": {"status": 0}}]}}`)
	journal := write("journal", `{"requests": [{"seq": 7, "method": "POST", "path": "/plants", "headers": {"Content-Type": ["application/json"]},
  "body": {"id": 4, "name": "oak"}, "status": 201, "response": {"id": 4, "name": "oak"}}]}`)
	want := "POST /plants: 2 exchange(s), 1 kind(s) of violation\n" +
		"  request x1: name: longer than the maximum length 5 (e.g. POST /plants -> 0)\n" +
		"traffic: 2 exchange(s) judged, 1 breaking the document:\n" +
		"  session.har: entry 1: POST /plants -> no answer\n" +
		"    request name: longer than the maximum length 5 (#/components/schemas/Plant/properties/name/maxLength)\n"
	if got, _ := judgeTraffic(t, nextSpec(t), dir, har, journal); got != want {
		t.Errorf("a HAR and a journal:\n%s\nwant\n%s", got, want)
	}
	s, err := New(Options{Spec: []byte(replicaSpec)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	unknown := "not recorded traffic (a HAR 1.2 archive, the journal of GET /__admin/requests, or a scenario file or folder of --record)"
	for _, c := range []struct{ name, text, want string }{
		{"array.json", `[1]`, ": " + unknown + ": not a JSON object"},
		{"object.json", `{"entries": []}`, ": " + unknown + ": a JSON object without log, requests or rules"},
		{"cut.har", `{"log": {"entries": [`, ": " + unknown + ": unexpected end of JSON input"},
		{"bad.har", `{"log": {"entries": [{"request": {"method": 1}}]}}`, ": an HTTP Archive (HAR) whose log cannot be read: json: cannot unmarshal number into Go struct field "},
		{"url.har", `{"log": {"entries": [{"request": {"method": "GET", "url": "http://[::1"}}]}}`, `: entry 1: parse "http://[::1": missing ']' in host`},
		{"rule.yaml", `{"name": "x", "rules": [{"when": {}, "respond": {"status": 200}}]}`, `: rule 1: not a rule a recording of --record wrote: it needs when.operation ("POST /plants") and respond.status`},
	} {
		p := write(c.name, c.text)
		if r, err := s.CheckTraffic(journal, p); r != nil || err == nil || !strings.HasPrefix(err.Error(), p+c.want) {
			t.Errorf("%s: %v, %v\nwant %s%s", c.name, r, err, p, c.want)
		}
	}
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "seed-data.json"), []byte(`{"/plants": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{empty, empty + ": a folder without a scenario file a recording of --record wrote"},
		{filepath.Join(dir, "none"), "stat " + filepath.Join(dir, "none") + ": no such file or directory"},
	} {
		if _, err := s.CheckTraffic(c.path); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.path, err, c.want)
		}
	}
	if r := s.Contract(); r.Text() != "no exchanges seen\n" {
		t.Errorf("refused files were judged:\n%s", r.Text())
	}
}
