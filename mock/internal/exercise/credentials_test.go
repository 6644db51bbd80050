package exercise

import (
	"strings"
	"testing"
)

const securitySpec = `openapi: 3.1.0
info: {title: security, version: '1'}
paths:
  /none:
    get:
      responses: {'200': {description: ok}}
  /bearer:
    get:
      security: [{oauth: []}]
      responses: {'200': {description: ok}}
  /basic-or-key:
    get:
      security: [{mtls: []}, {basic: [], bearer: []}, {basic: [], queryKey: [], cookieKey: []}]
      responses: {'200': {description: ok}}
  /digest:
    get:
      security: [{digest: []}]
      responses: {'200': {description: ok}}
  /optional:
    get:
      security: [{mtls: []}, {}]
      responses: {'200': {description: ok}}
  /impossible:
    get:
      security: [{mtls: []}, {basic: [], bearer: []}]
      responses: {'200': {description: ok}}
components:
  securitySchemes:
    oauth: {type: oauth2, flows: {implicit: {authorizationUrl: 'https://x.test', scopes: {}}}}
    bearer: {type: http, scheme: bearer}
    basic: {type: http, scheme: Basic}
    digest: {type: http, scheme: digest}
    mtls: {type: mutualTLS}
    queryKey: {type: apiKey, in: query, name: api_key}
    cookieKey: {type: apiKey, in: cookie, name: sid}
`

// TestCredentials checks the credentials sent for each security
// requirement.
func TestCredentials(t *testing.T) {
	doc := load(t, securitySpec)
	tests := []struct {
		op, authorization, query, cookie string
	}{
		{"GET /none", "", "", ""},
		{"GET /bearer", "Bearer token", "", ""},
		{"GET /basic-or-key", "Basic dXNlcjpwYXNz", "api_key=key", "sid=key"},
		{"GET /digest", `Digest username="user", realm="plantmock", nonce="0a1b2c", uri="/", qop=auth, nc=00000001, cnonce="3d4e", response="6629fae49393a05397450978507c4ef1"`, "", ""},
		{"GET /optional", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			req, err := Request(doc, operation(t, doc, tt.op), "http://mock.test", 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := req.Header.Get("Authorization"); got != tt.authorization {
				t.Errorf("Authorization = %q, want %q", got, tt.authorization)
			}
			if got := req.URL.RawQuery; got != tt.query {
				t.Errorf("query = %q, want %q", got, tt.query)
			}
			if got := req.Header.Get("Cookie"); got != tt.cookie {
				t.Errorf("Cookie = %q, want %q", got, tt.cookie)
			}
		})
	}
	_, err := Request(doc, operation(t, doc, "GET /impossible"), "http://mock.test", 1)
	want := "GET /impossible: no security alternative can be met (mtls (mutualTLS), or basic (http basic) and bearer (http bearer))"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}
