package admin

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

func TestCalls(t *testing.T) {
	got, err := Calls(`openapi: 3.1.0
paths:
  /__admin/b:
    parameters: [{name: x, in: query}]
    post: {operationId: makeB, summary: Make a b}
    get: {operationId: getB, summary: The b}
  /__admin/a:
    delete: {operationId: dropA}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Call{
		{Method: "GET", Path: "/__admin/b", Name: "getB", Summary: "The b"},
		{Method: "POST", Path: "/__admin/b", Name: "makeB", Summary: "Make a b"},
		{Method: "DELETE", Path: "/__admin/a", Name: "dropA"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Calls = %+v\nwant %+v", got, want)
	}
	if _, err := Calls("openapi: 3.1.0\n"); err == nil || err.Error() != "the admin document has no paths" {
		t.Errorf("Calls of a document without paths: %v", err)
	}
}

// TestAdminIndex: GET /__admin/ lists every call admin.yaml declares,
// in its order, beginning with the health call.
func TestAdminIndex(t *testing.T) {
	h, err := New(&fakeMock{sess: &fakeSession{}}, &Events{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	resp, err := ts.Client().Get(ts.URL + "/__admin/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	const head = `{"calls":[{"method":"GET","path":"/__admin/health","operationId":"health","summary":"Whether the mock is up, and what it serves"},`
	const tail = `{"method":"GET","path":"/__admin/openapi.yaml","operationId":"adminDocument","summary":"This document"},`
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" ||
		!strings.HasPrefix(string(body), head) || !strings.Contains(string(body), tail) || !strings.HasSuffix(string(body), `],"openapi":"/__admin/openapi.yaml"}`) {
		t.Fatalf("GET /__admin/: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	var got struct{ Calls []Call }
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(OpenAPI, "\n      operationId: "); len(got.Calls) != n {
		t.Errorf("GET /__admin/ lists %d calls; admin.yaml declares %d", len(got.Calls), n)
	}
}
