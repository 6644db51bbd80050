package exercise

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestOutgoing sends requests whose Host and Transfer-Encoding are in
// req.Header, as a header parameter puts them, over a loopback listener
// and checks what Go's server read: the fields reach it, the request
// given is left as it was.
func TestOutgoing(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "host=%s te=%q length=%d body=%q other=%q", r.Host, r.TransferEncoding, r.ContentLength, body, r.Header.Get("X-Other"))
	}))
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	for _, tt := range []struct {
		name   string
		method string
		body   string
		header map[string]string
		want   string
	}{
		{"nothing to move", "GET", "", map[string]string{"X-Other": "1"},
			`host=` + addr + ` te=[] length=0 body="" other="1"`},
		{"chunked with a body", "POST", "leaf", map[string]string{"Transfer-Encoding": "chunked"},
			`host=` + addr + ` te=["chunked"] length=-1 body="leaf" other=""`},
		{"chunked without a body", "GET", "", map[string]string{"Transfer-Encoding": "Chunked"},
			`host=` + addr + ` te=["chunked"] length=-1 body="" other=""`},
		{"host", "GET", "", map[string]string{"Host": "uploads.example:8080"},
			`host=uploads.example:8080 te=[] length=0 body="" other=""`},
		{"a host the client refuses is the URL's", "GET", "", map[string]string{"Host": "two words"},
			`host=` + addr + ` te=[] length=0 body="" other=""`},
		{"another coding is dropped", "POST", "leaf", map[string]string{"Transfer-Encoding": "gzip"},
			`host=` + addr + ` te=[] length=4 body="leaf" other=""`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			req, err := http.NewRequest(tt.method, srv.URL+"/", body)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			before := req.Header.Clone()
			resp, err := srv.Client().Do(Outgoing(req))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || string(got) != tt.want {
				t.Errorf("got %d %s\nwant 200 %s", resp.StatusCode, got, tt.want)
			}
			if fmt.Sprint(req.Header) != fmt.Sprint(before) || req.Host != addr || req.TransferEncoding != nil {
				t.Errorf("req changed: header %v, host %q, te %q", req.Header, req.Host, req.TransferEncoding)
			}
		})
	}
}
