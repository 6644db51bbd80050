package openapi

import "testing"

func TestOperationKey(t *testing.T) {
	for _, tc := range []struct{ method, path, want string }{
		{"GET", "/plants", "GET /plants"},
		{"GET", "/plants/{plantId}", "GET /plants/{}"},
		{"PUT", "/a/{x}/b/{y}.json", "PUT /a/{}/b/{}.json"},
		{"GET", "/files/{name}-{version}", "GET /files/{}-{}"},
	} {
		if got := OperationKey(tc.method, tc.path); got != tc.want {
			t.Errorf("OperationKey(%s, %s) = %q, want %q", tc.method, tc.path, got, tc.want)
		}
	}
	doc, err := Load([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/plants/{id}":{"get":{"responses":{"200":{"description":"ok"}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Operations[0].Key(); got != "GET /plants/{}" {
		t.Errorf("Key() = %q, want GET /plants/{}", got)
	}
}
