package mock

import (
	"slices"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/media"
)

// TestBareMediaType: a media type declared as a bare token (gzip, as App
// Store Connect's finance reports declare it) is answered with that
// Content-Type, as the document declares it, and a body sampled as
// application/gzip; the start-up warnings name it.
func TestBareMediaType(t *testing.T) {
	spec := `openapi: 3.0.1
info: {title: reports, version: '1'}
paths:
  /reports:
    get:
      responses:
        '200':
          description: a report
          content:
            gzip:
              schema: {type: string, format: binary}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	warning := `#/paths/~1reports/get/responses/200/content/gzip (line 11): "gzip" is no media type (type/subtype, such as application/gzip): it is matched and sent as written`
	if w := s.Warnings(); !slices.Contains(w, warning) {
		t.Errorf("Warnings() = %q, want it to hold %q", w, warning)
	}
	gz := string(media.Sample("application/gzip", nil))
	check(t, s, ts, call{method: "GET", path: "/reports", status: 200,
		wantHeader: map[string]string{"Content-Type": "gzip", "Content-Length": itoa(len(gz))}, wantBody: gz})
}
