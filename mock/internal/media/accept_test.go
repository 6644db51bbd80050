package media

import "testing"

// browser is the Accept header Chrome sends for a page.
const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"

func TestNegotiate(t *testing.T) {
	jsonXML := []string{"application/json", "application/xml"}
	tests := []struct {
		name    string
		accept  string
		offered []string
		want    int
		ok      bool
	}{
		{"nothing offered", "application/json", nil, -1, false},
		{"no Accept takes the first", "", jsonXML, 0, true},
		{"blank Accept takes the first", "  ", jsonXML, 0, true},
		{"only malformed elements count as none", "json, xml", []string{"text/plain", "application/json"}, 0, true},
		{"exact", "application/xml", jsonXML, 1, true},
		{"case-insensitive", "APPLICATION/XML", jsonXML, 1, true},
		{"any takes the first", "*/*", jsonXML, 0, true},
		{"type range", "text/*", []string{"application/json", "text/csv", "text/plain"}, 1, true},
		{"higher weight wins", "application/json;q=0.5, application/xml", jsonXML, 1, true},
		{"order of Accept does not matter", "application/xml, application/json", jsonXML, 0, true},
		{"equal weights: more specific range wins", "application/json, */*", []string{"text/html", "application/json"}, 1, true},
		{"equal weights, equal ranges: offered order", "application/*", []string{"application/xml", "application/json"}, 0, true},
		{"browser prefers XML to JSON", browser, jsonXML, 1, true},
		{"browser takes JSON when alone", browser, []string{"application/json"}, 0, true},
		{"q=0 excludes", "application/json;q=0, */*", jsonXML, 1, true},
		{"q=0 on the only one", "application/json;q=0", []string{"application/json"}, -1, false},
		{"q=0 range, specific type allowed", "text/*;q=0, text/csv", []string{"text/plain", "text/csv"}, 1, true},
		{"specific q=0 beats range", "text/*, text/plain;q=0", []string{"text/plain"}, -1, false},
		{"nothing matches", "image/png", jsonXML, -1, false},
		{"malformed element skipped", "application/json;q=2, application/xml", jsonXML, 1, true},
		{"quoted comma", `text/plain;x="a,application/json", application/xml;q=0.1`, []string{"application/json", "application/xml"}, 1, true},
		{"parameter must be offered", "text/html;level=1", []string{"text/html", "text/html;level=1"}, 1, true},
		{"parameter not offered", "text/html;level=1", []string{"text/html"}, -1, false},
		{"offered parameters are fine with a plain range", "application/json", []string{"application/json; charset=utf-8"}, 0, true},
		{"suffix range accepted", "application/*+json", []string{"application/xml", "application/problem+json"}, 1, true},
		{"offered any", "image/png", []string{"application/json", "*/*"}, 1, true},
		{"offered type range", "application/xml", []string{"text/plain", "application/*"}, 1, true},
		{"offered range loses to an exact type of equal weight", "application/xml", []string{"application/*", "application/xml"}, 1, true},
		{"offered range vs excluded default", "*/*, application/json;q=0", []string{"*/*"}, -1, false},
		{"offered range with excluded type picks another", "text/csv, application/json;q=0", []string{"*/*"}, 0, true},
		{"offered suffix range", "application/vnd.x+json", []string{"application/xml", "application/*+json"}, 1, true},
		{"malformed offered type skipped", "application/json", []string{"json", "application/json"}, 1, true},
		{"many elements", "a/a,b/b,c/c,d/d,e/e,f/f,g/g,h/h,i/i,j/j,k/k,l/l,m/m,n/n,o/o,p/p,q/q,application/json", jsonXML, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Negotiate(tt.accept, tt.offered)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Negotiate(%q, %q) = %d, %v; want %d, %v", tt.accept, tt.offered, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestQuality checks the example of RFC 9110, section 12.5.1.
func TestQuality(t *testing.T) {
	const accept = "text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, text/plain;format=fixed;q=0.4, */*;q=0.5"
	tests := []struct {
		typ  string
		want int
	}{
		{"text/plain;format=flowed", 1000},
		{"text/plain", 700},
		{"text/html", 300},
		{"image/jpeg", 500},
		{"text/plain;format=fixed", 400},
		{"text/html;level=3", 300},
	}
	ranges := parseAccept(nil, accept)
	if len(ranges) != 5 {
		t.Fatalf("read %d ranges, want 5", len(ranges))
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			c, _ := parseRange(tt.typ)
			if got, _ := quality(ranges, &c); got != tt.want {
				t.Errorf("quality(%s) = %d, want %d", tt.typ, got, tt.want)
			}
		})
	}
}

func TestContentType(t *testing.T) {
	tests := []struct {
		name, offered, accept, want string
	}{
		{"concrete as it is", "application/json; charset=utf-8", "text/html", "application/json; charset=utf-8"},
		{"any, no Accept", "*/*", "", "application/json"},
		{"any, Accept any", "*/*", "*/*", "application/json"},
		{"any, Accept a type", "*/*", "text/csv", "text/csv"},
		{"any, Accept a range", "*/*", "image/*", "image/png"},
		{"any, Accept a type in capitals", "*/*", "Text/CSV;q=0.9", "text/csv"},
		{"any, parameters dropped", "*/*", "text/html;level=1", "text/html"},
		{"any, best weight", "*/*", "application/xml;q=0.5, text/plain", "text/plain"},
		{"any, excluded default", "*/*", "text/plain;q=0.1, application/json;q=0, */*", "text/plain"},
		{"application range, Accept JSON", "application/*", "application/json", "application/json"},
		{"application range, Accept XML", "application/*", "application/xml", "application/xml"},
		{"application range, browser", "application/*", browser, "application/xhtml+xml"},
		{"application range, no Accept", "application/*", "", "application/json"},
		{"application range, unacceptable", "application/*", "text/html", "application/json"},
		{"text range", "text/*", "", "text/plain"},
		{"image range", "image/*", "", "image/png"},
		{"image range, Accept gif", "image/*", "image/gif", "image/gif"},
		{"audio range", "audio/*", "", "audio/wav"},
		{"video range", "video/*", "", "video/mp4"},
		{"font range", "font/*", "", "font/woff2"},
		{"unknown range", "model/*", "", "application/octet-stream"},
		{"JSON suffix range", "application/*+json", "", "application/json"},
		{"JSON suffix range, Accept a JSON type", "application/*+json", "application/problem+json", "application/problem+json"},
		{"XML suffix range", "application/*+xml", "", "application/xml"},
		{"other suffix range", "application/*+cbor", "", "application/octet-stream"},
		{"a bare token, as declared", "gzip", "", "gzip"},
		{"a bare token, whatever Accept says", "gzip", "application/gzip", "gzip"},
		{"not a media type", "application/", "", "application/octet-stream"},
		{"not a token", "g zip", "", "application/octet-stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ContentType(tt.offered, tt.accept); got != tt.want {
				t.Errorf("ContentType(%q, %q) = %q, want %q", tt.offered, tt.accept, got, tt.want)
			}
		})
	}
}

func TestNegotiateAllocates(t *testing.T) {
	offered := []string{"application/json", "application/xml", "*/*"}
	for _, accept := range []string{"", "application/json", browser, "TEXT/*"} {
		if n := testing.AllocsPerRun(100, func() { Negotiate(accept, offered) }); n != 0 {
			t.Errorf("Negotiate(%q) allocates %v times, want 0", accept, n)
		}
	}
}
