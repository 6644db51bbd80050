package mock

import (
	"fmt"
	"io"
	"net/http"
	"testing"
)

// TestDashboardFiles: the dashboard's files are served with their types,
// no caching without a check, and a policy that allows only their own
// script; they need no admin token, the data they show does.
func TestDashboardFiles(t *testing.T) {
	index, _ := ui.ReadFile("ui/index.html")
	script, _ := ui.ReadFile("ui/app.js")
	style, _ := ui.ReadFile("ui/app.css")
	icon, _ := ui.ReadFile("ui/icon.svg")
	for _, token := range []string{"", "s3cret"} {
		_, ts := newTestServer(t, Options{AdminToken: token})
		client := ts.Client()
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		files := []struct {
			path, contentType string
			body              []byte
		}{
			{"/__admin/ui/", "text/html; charset=utf-8", index},
			{"/__admin/ui/app.js", "text/javascript; charset=utf-8", script},
			{"/__admin/ui/app.css", "text/css; charset=utf-8", style},
			{"/__admin/ui/icon.svg", "image/svg+xml", icon},
		}
		for _, f := range files {
			t.Run(fmt.Sprintf("%s token=%q", f.path, token), func(t *testing.T) {
				resp, err := client.Get(ts.URL + f.path)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				h := headerMap(resp.Header)
				want := map[string]string{
					"Content-Type":            f.contentType,
					"Content-Length":          itoa(len(f.body)),
					"Cache-Control":           "no-cache",
					"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
					"X-Content-Type-Options":  "nosniff",
					"Referrer-Policy":         "no-referrer",
				}
				if resp.StatusCode != 200 || !equalMaps(h, want) || string(got) != string(f.body) {
					t.Errorf("%d %v\nwant 200 %v, the embedded file (%d bytes, got %d)", resp.StatusCode, h, want, len(f.body), len(got))
				}
			})
		}
		t.Run(fmt.Sprintf("no slash token=%q", token), func(t *testing.T) {
			resp, err := client.Get(ts.URL + "/__admin/ui")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/__admin/ui/" {
				t.Errorf("%d Location %q; want 301 to /__admin/ui/", resp.StatusCode, resp.Header.Get("Location"))
			}
		})
	}

	_, ts := newTestServer(t, Options{})
	doc := adminDoc(t)
	callAdmin(t, ts, doc, adminCall{name: "page", method: "GET", path: "/__admin/ui/", status: 200, want: string(index)})
	callAdmin(t, ts, doc, adminCall{name: "operations", method: "GET", path: "/__admin/ui/operations", status: 200, want: `{"operations":["POST /plants"]}`})
	callAdmin(t, ts, doc, adminCall{name: "no such file", method: "GET", path: "/__admin/ui/nope.js", status: 404,
		want: `{"error":40400,"message":"no admin call GET /__admin/ui/nope.js; see /__admin/openapi.yaml"}`, undeclared: true})
	callAdmin(t, ts, doc, adminCall{name: "not a GET", method: "POST", path: "/__admin/ui/", status: 404,
		want: `{"error":40400,"message":"no admin call POST /__admin/ui/; see /__admin/openapi.yaml"}`, undeclared: true})

	_, locked := newTestServer(t, Options{AdminToken: "s3cret"})
	unauthorized := `{"error":40102,"message":"the admin API needs \"Authorization: Bearer <admin token>\""}`
	callAdmin(t, locked, doc, adminCall{name: "operations need the token", method: "GET", path: "/__admin/ui/operations", status: 401, want: unauthorized})
	callAdmin(t, locked, doc, adminCall{name: "the journal needs the token", method: "GET", path: "/__admin/requests", status: 401, want: unauthorized})
	callAdmin(t, locked, doc, adminCall{name: "an escaped file name needs the token", method: "GET", path: "/__admin/ui/%61pp.js", status: 401, want: unauthorized, undeclared: true})
}
