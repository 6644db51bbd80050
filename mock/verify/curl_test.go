package verify

import (
	"net/http"
	"strings"
	"testing"
)

// TestCurl checks the curl lines of the report: the method where it is
// not GET, the URL, the headers sorted with the options' values hidden,
// and the body quoted for a shell, or left out when it is not text.
func TestCurl(t *testing.T) {
	tests := []struct {
		name, method string
		header       http.Header
		body         string
		want         string
	}{
		{"get", http.MethodGet, http.Header{"Accept": {"application/json"}}, "",
			"curl -sS -i 'http://h/things?q=a%27b' -H 'Accept: application/json'"},
		{"quoted body", http.MethodPost, http.Header{"Content-Type": {"application/json"}}, `{"name":"O'Hara"}`,
			`curl -sS -i -X POST 'http://h/things?q=a%27b' -H 'Content-Type: application/json' --data-binary '{"name":"O'\''Hara"}'`},
		{"secret hidden", http.MethodDelete, http.Header{"Authorization": {"Bearer s3cret"}}, "",
			"curl -sS -i -X DELETE 'http://h/things?q=a%27b' -H 'Authorization: ***'"},
		{"bytes", http.MethodPut, nil, "\x00\x01",
			"curl -sS -i -X PUT 'http://h/things?q=a%27b' --data-binary @body # a body of bytes that are not text, not shown"},
	}
	secret := http.Header{"Authorization": {"Bearer s3cret"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, "http://h/things?q=a%27b", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			for k, vs := range tt.header {
				req.Header[k] = vs
			}
			if got := curl(req, []byte(tt.body), secret); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestCurlHiding checks that the credentials the options give are shown
// as *** where a request carries them, by name and value: a header, a
// query parameter (the other pairs as written), a cookie (the other
// cookies shown); a value the check changed is shown.
func TestCurlHiding(t *testing.T) {
	hide := []placed{
		{"header", "Authorization", "Bearer s3cret"},
		{"header", "X-Api-Key", "k=1"},
		{"query", "api_key", "q&k"},
		{"cookie", "session", "c00kie"},
	}
	tests := []struct {
		name, url string
		header    http.Header
		want      string
	}{
		{"header", "http://h/a", http.Header{"Authorization": {"Bearer s3cret"}, "X-Api-Key": {"k=1"}, "X-Other": {"k=1"}},
			"curl -sS -i 'http://h/a' -H 'Authorization: ***' -H 'X-Api-Key: ***' -H 'X-Other: k=1'"},
		{"header broken", "http://h/a", http.Header{"Authorization": {"Bearer"}},
			"curl -sS -i 'http://h/a' -H 'Authorization: Bearer'"},
		{"query", "http://h/a?q=a%20b&api_key=q%26k&n=q%26k", nil,
			"curl -sS -i 'http://h/a?q=a%20b&api_key=***&n=q%26k'"},
		{"query broken", "http://h/a?api_key=", nil,
			"curl -sS -i 'http://h/a?api_key='"},
		{"cookie", "http://h/a", http.Header{"Cookie": {"theme=dark; session=c00kie"}},
			"curl -sS -i 'http://h/a' -H 'Cookie: theme=dark; session=***'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, vs := range tt.header {
				req.Header[k] = vs
			}
			if got := curlHiding(req, nil, hide); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
