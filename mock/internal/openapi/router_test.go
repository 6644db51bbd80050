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
		{"/plants/a%2Fb", "/plants/{plantId}", []string{"a%2Fb"}, "DELETE, GET"},
		{"/plants/7/leaves/3", "/plants/{plantId}/leaves/{leafId}", []string{"7", "3"}, "GET"},
		{"/plants/mine/leaves/3", "/plants/{plantId}/leaves/{leafId}", []string{"mine", "3"}, "GET"},
		{"/", "/", nil, "GET"},
		{"/plants/", "", nil, ""},
		{"/plants/7/leaves", "", nil, ""},
		{"/plant", "", nil, ""},
		{"plants", "", nil, ""},
		{"/plants/%zz", "/plants/{plantId}", []string{"%zz"}, "DELETE, GET"},
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

// TestRouterMixedSegments checks segments that mix text and parameters: a
// literal beats a template, and among templates the one with more literal
// characters wins.
func TestRouterMixedSegments(t *testing.T) {
	doc, err := Load([]byte(`openapi: 3.0.3
info: {title: r, version: '1'}
paths:
  /files/{name}.json:
    get: {responses: {'200': {description: ok}}}
  /files/{name}:
    get: {responses: {'200': {description: ok}}}
  /files/{name}.{ext}:
    get: {responses: {'200': {description: ok}}}
  /files/index.json:
    get: {responses: {'200': {description: ok}}}
  /v1/{name}:cancel:
    post: {responses: {'200': {description: ok}}}
  /v1/{name}:
    post: {responses: {'200': {description: ok}}}
  /pet/a:{b}:
    get: {responses: {'200': {description: ok}}}
  /r/{a}-{b}-{c}/x:
    get: {responses: {'200': {description: ok}}}
  /finding/{id}#analyzerArn:
    get: {responses: {'200': {description: ok}}}
  /finding/{id}:
    post: {responses: {'200': {description: ok}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path     string
		template string
		vals     []string
	}{
		{"/files/report.json", "/files/{name}.json", []string{"report"}},
		{"/files/report.v2.json", "/files/{name}.json", []string{"report.v2"}},
		{"/files/index.json", "/files/index.json", nil},
		{"/files/report.csv", "/files/{name}.{ext}", []string{"report", "csv"}},
		{"/files/report", "/files/{name}", []string{"report"}},
		{"/v1/job7:cancel", "/v1/{name}:cancel", []string{"job7"}},
		{"/v1/job7", "/v1/{name}", []string{"job7"}},
		{"/v1/:cancel", "/v1/{name}", []string{":cancel"}},
		{"/pet/a:1", "/pet/a:{b}", []string{"1"}},
		{"/pet/b:1", "", nil},
		{"/pet/a:", "", nil},
		{"/r/1-2-3/x", "/r/{a}-{b}-{c}/x", []string{"1", "2", "3"}},
		{"/r/1-2-3-4/x", "/r/{a}-{b}-{c}/x", []string{"1", "2", "3-4"}},
		{"/r/1-2/x", "", nil},
		// A literal a client escaped: the values stay escaped.
		{"/finding/x%23analyzerArn", "/finding/{id}#analyzerArn", []string{"x"}},
		{"/finding/a%2fb%23analyzerArn", "/finding/{id}#analyzerArn", []string{"a%2fb"}},
		{"/finding/x%2523analyzerArn", "/finding/{id}", []string{"x%2523analyzerArn"}},
		{"/finding/x", "/finding/{id}", []string{"x"}},
		{"/files/report%2Ejson", "/files/{name}.json", []string{"report"}},
		{"/v1/job%2f7%3Acancel", "/v1/{name}:cancel", []string{"job%2f7"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r, vals := doc.Router().Find(tt.path)
			switch {
			case tt.template == "" && r != nil:
				t.Fatalf("found %s %q, want no route", r.Path, vals)
			case tt.template == "":
			case r == nil:
				t.Fatalf("no route, want %s", tt.template)
			case r.Path != tt.template || len(vals) != len(tt.vals) || (len(vals) > 0 && !reflect.DeepEqual(vals, tt.vals)):
				t.Errorf("got %s %q, want %s %q", r.Path, vals, tt.template, tt.vals)
			}
		})
	}
	// /files/.json: {name} takes at least one character, so {name}.json
	// does not match, and {name}.{ext} does not either; {name} does.
	if r, _ := doc.Router().Find("/files/.json"); r == nil || r.Path != "/files/{name}" {
		t.Errorf("/files/.json routed to %v, want /files/{name}", r)
	}
}

// TestRouterMergesParameterNames checks templates that differ only in
// parameter names: one route, each method from the first template that
// declares it, and a warning when two declare the same method.
func TestRouterMergesParameterNames(t *testing.T) {
	doc, err := Load([]byte(`openapi: 3.1.0
info: {title: r, version: '1'}
paths:
  /orgs/{org}/attestations/{attestation_id}:
    delete:
      operationId: deleteAttestation
      responses: {'204': {description: ok}}
  /orgs/{org}/attestations/{subject_digest}:
    get:
      operationId: listAttestations
      responses: {'200': {description: ok}}
    delete:
      operationId: shadowed
      responses: {'204': {description: ok}}
`))
	if err != nil {
		t.Fatal(err)
	}
	r, vals := doc.Router().Find("/orgs/acme/attestations/sha256:ab")
	if r == nil || r.Allow != "DELETE, GET" || !reflect.DeepEqual(vals, []string{"acme", "sha256:ab"}) {
		t.Fatalf("route = %+v %q", r, vals)
	}
	if id := r.Operation("DELETE").ID; id != "deleteAttestation" {
		t.Errorf("DELETE serves %s, want deleteAttestation (the first in document order)", id)
	}
	if op := r.Operation("GET"); op.ID != "listAttestations" || !reflect.DeepEqual(op.pathNames, []string{"org", "subject_digest"}) {
		t.Errorf("GET = %s %q", op.ID, op.pathNames)
	}
	if len(doc.Operations) != 2 {
		t.Errorf("%d operations, want 2", len(doc.Operations))
	}
	want := []string{"#/paths/~1orgs~1{org}~1attestations~1{subject_digest}/delete (line 13): DELETE /orgs/{org}/attestations/{attestation_id} and DELETE /orgs/{org}/attestations/{subject_digest} differ only in parameter names; the first serves"}
	if !reflect.DeepEqual(doc.Warnings, want) {
		t.Errorf("warnings = %q\nwant %q", doc.Warnings, want)
	}
}

// TestFill checks templates filled with values, escaped for a path, with
// parameters in mixed segments too.
func TestFill(t *testing.T) {
	for _, tt := range []struct {
		template string
		vals     []string
		want     string
	}{
		{"/plants", nil, "/plants"},
		{"/shelves/{shelf}/plants", []string{"a b"}, "/shelves/a%20b/plants"},
		{"/v1/{shelf}:books", []string{"x/y"}, "/v1/x%2Fy:books"},
		{"/r/{a}-{b}/x", []string{"1", "2"}, "/r/1-2/x"},
		{"/r/{a}-{b}/x", []string{"1"}, "/r/1-{b}/x"},
	} {
		if got := Fill(tt.template, tt.vals); got != tt.want {
			t.Errorf("Fill(%s, %q) = %s, want %s", tt.template, tt.vals, got, tt.want)
		}
	}
}

// TestFindEscapedLiteral: a literal segment matches when the client
// escapes it.
func TestFindEscapedLiteral(t *testing.T) {
	rt := newRouter()
	for _, p := range []string{"/cookies#a", "/cookies#b", "/x/{id}"} {
		rt.add(&Operation{Method: "GET", Path: p})
	}
	for path, want := range map[string]string{"/cookies%23a": "/cookies#a", "/cookies%23b": "/cookies#b", "/cookies%23c": "", "/x/%41": "/x/{id}"} {
		r, _ := rt.Find(path)
		got := ""
		if r != nil {
			got = r.Path
		}
		if got != want {
			t.Errorf("Find(%s) = %q, want %q", path, got, want)
		}
	}
}

// TestRouterFindFor: a literal route that does not declare the method
// gives way to a template that matches the path and declares it; with
// none, the literal one is found (for its 405).
func TestRouterFindFor(t *testing.T) {
	doc, err := Load([]byte(`openapi: 3.0.3
info: {title: r, version: '1'}
paths:
  /jobs/$next:
    put: {responses: {'200': {description: ok}}}
  /jobs/{jobId}:
    get: {responses: {'200': {description: ok}}}
  /jobs/{jobId}/runs/latest:
    post: {responses: {'200': {description: ok}}}
  /jobs/{jobId}/runs/{runId}:
    get: {responses: {'200': {description: ok}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, path string
		template           string
		vals               []string
	}{
		{"literal declares it", "PUT", "/jobs/$next", "/jobs/$next", nil},
		{"template declares it", "GET", "/jobs/$next", "/jobs/{jobId}", []string{"$next"}},
		{"escaped, template declares it", "GET", "/jobs/%24next", "/jobs/{jobId}", []string{"%24next"}},
		{"none declares it", "DELETE", "/jobs/$next", "/jobs/$next", nil},
		{"any method", "", "/jobs/$next", "/jobs/$next", nil},
		{"deeper literal gives way", "GET", "/jobs/7/runs/latest", "/jobs/{jobId}/runs/{runId}", []string{"7", "latest"}},
		{"deeper literal declares it", "POST", "/jobs/7/runs/latest", "/jobs/{jobId}/runs/latest", []string{"7"}},
		{"no route", "GET", "/runs", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, vals := doc.Router().FindFor(tt.path, tt.method)
			if tt.template == "" {
				if r != nil {
					t.Fatalf("found %s, want no route", r.Path)
				}
				return
			}
			if r == nil {
				t.Fatalf("no route, want %s", tt.template)
			}
			if r.Path != tt.template || !reflect.DeepEqual(vals, tt.vals) {
				t.Errorf("got %s %q, want %s %q", r.Path, vals, tt.template, tt.vals)
			}
		})
	}
}

// TestRouterAdjacentParameters checks a segment with two parameters and
// nothing between them: the second's enum decides where they part.
func TestRouterAdjacentParameters(t *testing.T) {
	doc, err := Load([]byte(`openapi: 3.0.3
info: {title: r, version: '1'}
paths:
  /profiles/{id}{ext}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
      - {name: ext, in: path, required: true, schema: {type: string, enum: [.json, .js, .xml]}}
    get: {responses: {'200': {description: ok}}}
  /m/{a}{b}-x:
    parameters:
      - {name: a, in: path, required: true, schema: {type: string}}
      - {name: b, in: path, required: true, schema: {type: string, enum: [v1, v2]}}
    get: {responses: {'200': {description: ok}}}
  /k/{a}{b}.{c}:
    parameters:
      - {name: a, in: path, required: true, schema: {type: string}}
      - {name: b, in: path, required: true, schema: {type: string, enum: [v1, v2]}}
      - {name: c, in: path, required: true, schema: {type: string}}
    get: {responses: {'200': {description: ok}}}
  /n/{a}{b}:
    parameters:
      - {name: a, in: path, required: true, schema: {type: string}}
      - {name: b, in: path, required: true, schema: {type: string}}
    get: {responses: {'200': {description: ok}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		vals []string
	}{
		{"enum from the end", "/profiles/4e5a.json", []string{"4e5a", ".json"}},
		{"longest value first", "/profiles/a.js.json", []string{"a.js", ".json"}},
		{"shorter value", "/profiles/a.json.js", []string{"a.json", ".js"}},
		{"escaped value", "/profiles/abc%2Exml", []string{"abc", "%2Exml"}},
		{"no value fits: first takes one character", "/profiles/abc.csv", []string{"a", "bc.csv"}},
		{"value alone leaves no id", "/profiles/.json", []string{".", "json"}},
		{"enum from the end before a literal", "/m/av2v1-x", []string{"av2", "v1"}},
		{"enum leftmost when a parameter follows", "/k/av2v1.c", []string{"a", "v2v1", "c"}},
		{"enum leftmost after a longer first", "/k/xyzv1.c", []string{"xyz", "v1", "c"}},
		{"no enum: first takes one character", "/n/abc", []string{"a", "bc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, vals := doc.Router().Find(tt.path)
			if r == nil {
				t.Fatalf("no route for %s", tt.path)
			}
			if !reflect.DeepEqual(vals, tt.vals) {
				t.Errorf("%s: got %q, want %q", tt.path, vals, tt.vals)
			}
		})
	}
}
