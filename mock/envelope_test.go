package mock

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/internal/redistest"
)

// firewallSpec is a document whose answers wrap the resource in an
// envelope ({"firewall": {...}}, and {"firewalls": [...], "meta": ...,
// "links": ...} for the list), whose read requires fields the create
// neither takes nor answers (server-computed: status, created_at,
// fingerprint, events, last_event), and whose events are a
// discriminated union that generation must satisfy: each event is a
// named alternative whose own member narrows the tag the discriminator
// would name otherwise.
var firewallSpec = answerSpec("firewall.yaml")

// answerOf sends a request, checks its exact status, its Content-Type and
// that the answer conforms to the document, and returns the decoded body.
func answerOf(t *testing.T, s *Server, ts *httptest.Server, method, path, body string, status int) map[string]any {
	t.Helper()
	h := map[string]string{}
	if body != "" {
		h["Content-Type"] = "application/json"
	}
	req, resp, got := send(t, ts, call{method: method, path: path, body: body, header: h})
	if resp.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d (body %s)", method, path, resp.StatusCode, status, got)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", method, path, ct)
	}
	assertConforms(t, s, req, resp, got)
	v, err := jsonx.Decode(got)
	obj, _ := v.(map[string]any)
	if err != nil || obj == nil {
		t.Fatalf("%s %s: body %s is not a JSON object: %v", method, path, got, err)
	}
	return obj
}

// firewallOf returns the firewall an answer wraps.
func firewallOf(t *testing.T, answer map[string]any) map[string]any {
	t.Helper()
	fw, ok := answer["firewall"].(map[string]any)
	if !ok || len(answer) != 1 {
		t.Fatalf("answer %s is not {\"firewall\": {...}}", jsonx.Marshal(answer))
	}
	return fw
}

// TestStatefulEnvelopesReplicas: two mocks sharing Redis answer a read of
// a firewall one of them created with the same server-computed fields,
// stored once, not made again by each.
func TestStatefulEnvelopesReplicas(t *testing.T) {
	url := redistest.NewServer(t).URL(0)
	mocks := make([]*Server, 2)
	servers := make([]*httptest.Server, 2)
	for i := range mocks {
		mocks[i], servers[i] = newTestServer(t, Options{Spec: []byte(firewallSpec), Store: StoreOptions{URL: url}, Seed: int64(i + 1)})
		t.Cleanup(func() { mocks[i].Close() })
	}
	a, b := 0, 1
	created := firewallOf(t, answerOf(t, mocks[a], servers[a], "POST", "/firewalls", `{"name":"edge","rules":[{"kind":"in","ports":"22"}]}`, 201))
	onA := firewallOf(t, answerOf(t, mocks[a], servers[a], "GET", "/firewalls/1", "", 200))
	onB := firewallOf(t, answerOf(t, mocks[b], servers[b], "GET", "/firewalls/1", "", 200))
	if !reflect.DeepEqual(onA, onB) {
		t.Errorf("read on A %s, on B %s", jsonx.Marshal(onA), jsonx.Marshal(onB))
	}
	if onB["status"] != created["status"] || onB["id"] != json.Number("1") {
		t.Errorf("read on B %s, created %s", jsonx.Marshal(onB), jsonx.Marshal(created))
	}
	list := answerOf(t, mocks[b], servers[b], "GET", "/firewalls", "", 200)
	if items, _ := list["firewalls"].([]any); len(items) != 1 || !reflect.DeepEqual(items[0], any(onA)) {
		t.Errorf("list on B %s, want the firewall read on A", jsonx.Marshal(list))
	}
}
