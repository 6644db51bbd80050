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
	want := &SecurityScheme{Name: "device", Type: "oauth2", Flows: []string{"clientCredentials", "deviceAuthorization"}, TokenURL: "/token",
		MetadataURL: "https://auth.example.com/.well-known/oauth-authorization-server", Deprecated: true,
		place: place{ptr: "/components/securitySchemes/device", line: 7}}
	if len(d.SecuritySchemes) != 1 || !reflect.DeepEqual(d.SecuritySchemes[0], want) {
		t.Errorf("schemes %+v\nwant %+v", d.SecuritySchemes, want)
	}
}

// TestTags32 reads tags with what OpenAPI 3.2 adds; a parent that names
// no tag, and a cycle of parents, are mistakes, and the tags stay.
func TestTags32(t *testing.T) {
	d, err := Load([]byte(`openapi: 3.2.0
info: {title: t, version: '1'}
paths: {}
tags:
  - {name: plants, summary: Plants, description: all about plants, kind: nav}
  - {name: ferns, parent: plants, kind: nav}
  - {name: moss, parent: lichen}
  - {name: a, parent: c}
  - {name: b, parent: a}
  - {name: c, parent: b}
  - {name: d, parent: a}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Tag{
		{Name: "plants", Summary: "Plants", Description: "all about plants", Kind: "nav"},
		{Name: "ferns", Parent: "plants", Kind: "nav"},
		{Name: "moss"},
		{Name: "a"},
		{Name: "b", Parent: "a"},
		{Name: "c", Parent: "b"},
		{Name: "d", Parent: "a"},
	}
	if !reflect.DeepEqual(d.Tags, want) {
		t.Errorf("tags %+v\nwant %+v", d.Tags, want)
	}
	wantMistakes := []string{
		`#/tags/2/parent (line 7): tag "moss" has parent "lichen", which is no tag of the document: it is read without a parent`,
		`#/tags/3/parent (line 8): tag "a" is its own ancestor through its parents: it is read without a parent`,
	}
	if !reflect.DeepEqual(d.Mistakes, wantMistakes) {
		t.Errorf("mistakes %q\nwant %q", d.Mistakes, wantMistakes)
	}
}
