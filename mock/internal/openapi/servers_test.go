package openapi

import (
	"slices"
	"testing"
)

func TestServerPaths(t *testing.T) {
	for _, tc := range []struct {
		name    string
		servers string
		first   string
		bases   []string
	}{
		{"none", ``, "", nil},
		{"a host alone first", `servers: [{url: "https://api.example.com"}, {url: "https://example.com/api/v2/"}]`, "", []string{"/api/v2"}},
		{"variables at their defaults", `servers: [{url: "https://{region}.example.com/{product}/v1", variables: {region: {default: eu}, product: {default: billing}}}]`, "/billing/v1", []string{"/billing/v1"}},
		{"a relative URL", `servers: [{url: /tasks}, {url: "http://localhost:8080/other"}]`, "/tasks", []string{"/tasks", "/other"}},
		{"a template left", `servers: [{url: "https://example.com/{tenant}"}]`, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Load([]byte("openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n" + tc.servers + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			if d.ServerPath != tc.first || !slices.Equal(d.BasePaths, tc.bases) {
				t.Errorf("ServerPath %q, BasePaths %q; want %q, %q", d.ServerPath, d.BasePaths, tc.first, tc.bases)
			}
		})
	}
}
