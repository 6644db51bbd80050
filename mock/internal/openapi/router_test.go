package openapi

import (
	"reflect"
	"testing"
)

func TestRouter(t *testing.T) {
	doc, err := Load([]byte(`openapi: 3.1.0
info: {title: r, version: '1'}
paths:
  /plants:
    get: {responses: {'200': {description: ok}}}
    post: {responses: {'200': {description: ok}}}
  /plants/mine:
    get: {responses: {'200': {description: ok}}}
  /plants/{plantId}:
    get: {responses: {'200': {description: ok}}}
    delete: {responses: {'204': {description: ok}}}
  /plants/{plantId}/leaves/{leafId}:
    get: {responses: {'200': {description: ok}}}
  /:
    get: {responses: {'200': {description: ok}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path     string
		template string
		vals     []string
		allow    string
	}{
		{"/plants", "/plants", nil, "GET, POST"},
		{"/plants/mine", "/plants/mine", nil, "GET"},
		{"/plants/7", "/plants/{plantId}", []string{"7"}, "DELETE, GET"},
		{"/plants/a%2Fb", "/plants/{plantId}", []string{"a/b"}, "DELETE, GET"},
		{"/plants/7/leaves/3", "/plants/{plantId}/leaves/{leafId}", []string{"7", "3"}, "GET"},
		{"/plants/mine/leaves/3", "/plants/{plantId}/leaves/{leafId}", []string{"mine", "3"}, "GET"},
		{"/", "/", nil, "GET"},
		{"/plants/", "", nil, ""},
		{"/plants/7/leaves", "", nil, ""},
		{"/plant", "", nil, ""},
		{"plants", "", nil, ""},
		{"/plants/%zz", "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r, vals := doc.Router().Find(tt.path)
			if tt.template == "" {
				if r != nil {
					t.Fatalf("found %s, want no route", r.Path)
				}
				return
			}
			if r == nil {
				t.Fatalf("no route, want %s", tt.template)
			}
			if r.Path != tt.template || !reflect.DeepEqual(vals, tt.vals) || r.Allow != tt.allow {
				t.Errorf("got %s %q allow %q, want %s %q allow %q", r.Path, vals, r.Allow, tt.template, tt.vals, tt.allow)
			}
		})
	}
	if c := doc.Router().Route("/plants/{plantId}").Collection(); c != (Collection{Path: "/plants", Item: true}) {
		t.Errorf("collection of the item route = %+v", c)
	}
	if c := doc.Router().Route("/plants").Collection(); c != (Collection{Path: "/plants"}) {
		t.Errorf("collection of the collection route = %+v", c)
	}
}
