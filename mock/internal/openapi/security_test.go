package openapi

import (
	"reflect"
	"testing"
)

// TestSecurityScopes: the scopes each security alternative asks of its
// schemes are kept beside the alternatives, an operation's own list
// replacing the document's, and a client credentials flow's tokenUrl
// is kept as written.
func TestSecurityScopes(t *testing.T) {
	d, err := Load([]byte(`openapi: 3.1.0
info: {title: t, version: "1"}
security: [{oauth: [read]}]
paths:
  /a:
    get:
      responses: {"204": {description: ok}}
    put:
      security: [{oauth: [read, write], key: []}, {}]
      responses: {"204": {description: ok}}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
    oauth:
      type: oauth2
      flows:
        clientCredentials: {tokenUrl: /oauth/token, scopes: {read: r, write: w}}
`))
	if err != nil {
		t.Fatal(err)
	}
	byMethod := map[string]*Operation{}
	for _, op := range d.Operations {
		byMethod[op.Method] = op
	}
	if got, want := byMethod["GET"].Scopes, []map[string][]string{{"oauth": {"read"}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("GET scopes %v, want %v", got, want)
	}
	if got, want := byMethod["PUT"].Scopes, []map[string][]string{{"oauth": {"read", "write"}}, nil}; !reflect.DeepEqual(got, want) {
		t.Errorf("PUT scopes %v, want %v", got, want)
	}
	if n := len(byMethod["PUT"].Security); n != 2 || len(byMethod["PUT"].Security[0]) != 2 {
		t.Errorf("PUT security %v", byMethod["PUT"].Security)
	}
	for _, s := range d.SecuritySchemes {
		if s.Name == "oauth" && s.TokenURL != "/oauth/token" {
			t.Errorf("tokenUrl %q", s.TokenURL)
		}
	}
}
