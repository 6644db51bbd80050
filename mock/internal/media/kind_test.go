package media

import "testing"

func TestKindOf(t *testing.T) {
	tests := []struct {
		mt   string
		want Kind
	}{
		{"application/json", JSON},
		{"Application/JSON; charset=utf-8", JSON},
		{"text/json", JSON},
		{"application/problem+json", JSON},
		{"application/vnd.api+json", JSON},
		{"application/*+json", JSON},
		{"application/x-ndjson", JSON},
		{"application/jsonl", JSON},
		{"application/yaml", JSON},
		{"text/x-yaml", JSON},
		{"application/openapi+yaml", JSON},
		{"*/*", JSON},
		{"application/*", JSON},
		{"application/xml", XML},
		{"text/xml", XML},
		{"application/atom+xml", XML},
		{"application/problem+xml", XML},
		{"application/xhtml+xml", XML},
		{"application/*+xml", XML},
		{"application/x-www-form-urlencoded", Form},
		{"text/plain", Text},
		{"text/html", Text},
		{"text/csv", Text},
		{"text/event-stream", Text},
		{"text/*", Text},
		{"image/svg+xml", Binary},
		{"image/png", Binary},
		{"image/*", Binary},
		{"application/octet-stream", Binary},
		{"application/pdf", Binary},
		{"multipart/form-data", Binary},
		{"application/json-patch", Binary},
		{"model/*", Binary},
		{"json", Binary},
		{"", Binary},
	}
	for _, tt := range tests {
		t.Run(tt.mt, func(t *testing.T) {
			if got := KindOf(tt.mt); got != tt.want {
				t.Errorf("KindOf(%q) = %v, want %v", tt.mt, got, tt.want)
			}
			if got, want := Writable(tt.mt), tt.want != Binary; got != want {
				t.Errorf("Writable(%q) = %v, want %v", tt.mt, got, want)
			}
		})
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Binary: "binary", JSON: "json", XML: "xml", Form: "form", Text: "text", 99: "Kind(99)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}
