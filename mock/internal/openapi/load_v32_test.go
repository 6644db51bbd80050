package openapi

import (
	"reflect"
	"testing"
)

// TestSecurityScheme32 reads what OpenAPI 3.2 adds to security schemes:
// oauth2MetadataUrl, the device authorization flow, deprecated.
func TestSecurityScheme32(t *testing.T) {
	d, err := Load([]byte(`openapi: 3.2.0
info: {title: t, version: '1'}
paths: {}
components:
  securitySchemes:
    device:
      type: oauth2
      oauth2MetadataUrl: https://auth.example.com/.well-known/oauth-authorization-server
      flows:
        clientCredentials: {tokenUrl: /token, scopes: {}}
        deviceAuthorization: {deviceAuthorizationUrl: /device, tokenUrl: /token, scopes: {}}
        x-note: {}
      deprecated: true
`))
	if err != nil {
		t.Fatal(err)
	}
	want := &SecurityScheme{Name: "device", Type: "oauth2", Flows: []string{"clientCredentials", "deviceAuthorization"},
		MetadataURL: "https://auth.example.com/.well-known/oauth-authorization-server", Deprecated: true}
	if len(d.SecuritySchemes) != 1 || !reflect.DeepEqual(d.SecuritySchemes[0], want) {
		t.Errorf("schemes %+v\nwant %+v", d.SecuritySchemes, want)
	}
}
