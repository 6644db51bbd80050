package mock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// TestDashboardFiles: the dashboard's files are served with their types,
// no caching without a check, and a policy that allows only their own
// script; they need no admin token, the data they show does.
func TestDashboardFiles(t *testing.T) {
	index, _ := os.ReadFile("internal/admin/ui/index.html")
	script, _ := os.ReadFile("internal/admin/ui/app.js")
	style, _ := os.ReadFile("internal/admin/ui/app.css")
	icon, _ := os.ReadFile("internal/admin/ui/icon.svg")
	for _, token := range []string{"", "s3cret"} {
		_, ts := newTestServer(t, Options{Admin: AdminOptions{Token: token}})
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
	callAdmin(t, ts, doc, adminCall{name: "page", method: "GET", path: "/__admin/ui/", status: 200, want: string(index), undeclared: true})
	callAdmin(t, ts, doc, adminCall{name: "operations", method: "GET", path: "/__admin/ui/operations", status: 200, want: `{"operations":["POST /plants"]}`})
	callAdmin(t, ts, doc, adminCall{name: "no such file", method: "GET", path: "/__admin/ui/nope.js", status: 404,
		want: `{"error":40400,"message":"no admin call GET /__admin/ui/nope.js; see /__admin/openapi.yaml"}`, undeclared: true})
	callAdmin(t, ts, doc, adminCall{name: "not a GET", method: "POST", path: "/__admin/ui/", status: 404,
		want: `{"error":40400,"message":"no admin call POST /__admin/ui/; see /__admin/openapi.yaml"}`, undeclared: true})

	_, locked := newTestServer(t, Options{Admin: AdminOptions{Token: "s3cret"}})
	unauthorized := `{"error":40102,"message":"the admin API needs \"Authorization: Bearer <admin token>\""}`
	callAdmin(t, locked, doc, adminCall{name: "operations need the token", method: "GET", path: "/__admin/ui/operations", status: 401, want: unauthorized})
	callAdmin(t, locked, doc, adminCall{name: "the journal needs the token", method: "GET", path: "/__admin/requests", status: 401, want: unauthorized})
	callAdmin(t, locked, doc, adminCall{name: "an escaped file name needs the token", method: "GET", path: "/__admin/ui/%61pp.js", status: 401, want: unauthorized, undeclared: true})
}

// waitLimit bounds each wait for the page: generous, since a loaded
// machine may run Chromium slowly; a wait that succeeds returns at once.
const waitLimit = 30 * time.Second

// browser is a headless Chromium with one tab, for one test.
type browser struct {
	t   *testing.T
	ctx context.Context // a chromedp context: the tab
}

// newBrowser starts a headless Chromium (see startBrowser) whose page
// errors fail the test (see failOnPageErrors).
func newBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	b := startBrowser(t, extra...)
	b.failOnPageErrors()
	return b
}

// startBrowser starts a headless Chromium with a window of 1280x800, a
// profile of its own and the extra options given; the test's cleanup
// stops it and removes the profile. Where Chromium is not installed the test is skipped, or fails
// when the environment variable CI is set: CI must run the browser tests.
func startBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		const msg = "chromium not found: apt-get install chromium"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir, err := os.MkdirTemp("", "plantmock-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(dir), chromedp.WindowSize(1280, 800),
		// Chromium puts its singleton socket's directory in TMPDIR:
		// inside the profile, it goes when the profile does.
		chromedp.Env("TMPDIR="+dir))
	opts = append(opts, extra...)
	actx, stopAllocator := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, stopTab := chromedp.NewContext(actx)
	t.Cleanup(func() {
		stopTab()
		stopAllocator() // stops Chromium and waits for it
		removeProfile(t, dir)
	})
	// The first Run starts the browser; it lives as long as ctx, so it
	// gets no deadline of its own.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return &browser{t: t, ctx: ctx}
}

// failOnPageErrors fails the test, at its end, for every exception the
// page's script threw and every error the browser logged but those of
// network answers (a 401, say): a policy that blocked something, a
// script that broke.
func (b *browser) failOnPageErrors() {
	var mu sync.Mutex // guards errs
	var errs []string
	err := chromedp.Listen(b.ctx, func(ev any) {
		var msg string
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = fmt.Sprintf("exception at %s:%d: %s", e.ExceptionDetails.URL, e.ExceptionDetails.LineNumber+1, e.ExceptionDetails.Text)
			if o := e.ExceptionDetails.Exception; o != nil {
				msg += " " + o.Description
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level != cdplog.EntryLevelError || e.Entry.Source == cdplog.EntrySourceNetwork {
				return
			}
			msg = fmt.Sprintf("%s error: %s (%s)", e.Entry.Source, e.Entry.Text, e.Entry.URL)
		default:
			return
		}
		mu.Lock()
		defer mu.Unlock()
		errs = append(errs, msg)
	})
	if err != nil {
		b.t.Fatal(err)
	}
	b.t.Cleanup(func() { // before the browser stops
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			b.t.Errorf("the page: %s", e)
		}
	})
}

// removeProfile removes Chromium's profile directory; Chromium's helper
// processes may still write to it for a moment after it stopped.
func removeProfile(t *testing.T, dir string) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := os.RemoveAll(dir)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("removing Chromium's profile: %v", err)
			return
		}
		time.Sleep(50 * time.Millisecond) // polling, with the deadline above
	}
}

// do runs actions in the tab, with a deadline.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitLimit)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval returns the value of a JavaScript expression in the page, decoded
// from JSON.
func (b *browser) eval(expr string) (any, error) {
	ctx, cancel := context.WithTimeout(b.ctx, waitLimit)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr))
	if err != nil {
		return nil, err
	}
	var v any
	err = json.Unmarshal(raw, &v)
	return v, err
}

// waitFor polls a JavaScript expression until its value is want (as
// JSON), and fails the test with the last value seen after waitLimit.
func (b *browser) waitFor(what, expr string, want any) {
	b.t.Helper()
	raw, _ := json.Marshal(want)
	var w any
	json.Unmarshal(raw, &w)
	deadline := time.Now().Add(waitLimit)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		got, err := b.eval(expr)
		if err == nil && reflect.DeepEqual(got, w) {
			return
		}
		if time.Now().After(deadline) {
			if err != nil {
				b.t.Fatalf("%s: %v", what, err)
			}
			g, _ := json.Marshal(got)
			b.t.Fatalf("%s: after %s the page shows\n%s\nwant\n%s", what, waitLimit, g, raw)
		}
		<-tick.C
	}
}

// Expressions that read the page.
const (
	// rowsJS: the journal's rows, newest first, each its cells but the
	// time.
	rowsJS = `[...document.querySelectorAll('#rows > li > .summary')].map(b => [...b.children].slice(1).map(c => c.textContent))`
	// shownJS: how many rows are shown of how many.
	shownJS = `document.getElementById('shown').textContent`
	// streamJS: the state of the live stream.
	streamJS = `document.getElementById('stream').textContent`
	// operationsJS: the operations table, row by row.
	operationsJS = `[...document.querySelectorAll('#operations tr')].map(r => [...r.cells].map(c => c.textContent))`
	// storeJS: the store view, its headings and resources.
	storeJS = `[...document.querySelectorAll('#store h3, #store pre, #store p')].map(e => e.textContent)`
	// detailJS: the terms and values of the open rows, but their time
	// and duration.
	detailJS = `[...document.querySelectorAll('#rows .detail dl')].map(d => [...d.querySelectorAll('dt')]
		.filter(t => t.textContent !== 'Time' && t.textContent !== 'Duration')
		.flatMap(t => [t.textContent, t.nextElementSibling.textContent]))`
	// activeJS: the active scenario as the page says it.
	activeJS = `document.getElementById('scenario-active').textContent`
)

// open loads the dashboard of the mock at base and waits until its live
// stream is open.
func (b *browser) open(base string) {
	b.t.Helper()
	b.do("loading the dashboard", chromedp.Navigate(base+"/__admin/ui/"))
	b.waitFor("the live stream", streamJS, "Live")
}

// TestDashboardJournalLive: requests sent once the page is open appear in
// its journal as they are answered, newest first, those of the selected
// session only; the operations table counts them.
func TestDashboardJournalLive(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	b := newBrowser(t)
	b.open(ts.URL)
	b.waitFor("an empty journal", shownJS, "0 of 0 requests")
	b.waitFor("operations before any request", operationsJS, [][]string{{"POST /plants never called", "0", "0"}})

	do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t")
	b.waitFor("the create", rowsJS, [][]string{{"POST", "/plants", "200", "POST /plants", "", ""}})
	do(t, ts, "GET", "/nope?q=1", "")
	b.waitFor("the 404 above the create", rowsJS, [][]string{
		{"GET", "/nope?q=1", "404", "no operation", "", "40400"},
		{"POST", "/plants", "200", "POST /plants", "", ""},
	})
	b.waitFor("the count", shownJS, "2 of 2 requests")
	b.waitFor("operations after two requests", operationsJS, [][]string{{"POST /plants", "1", "0"}, {"no operation", "1", "1"}})

	// Another session's request shows only when that session is selected.
	do(t, ts, "POST", "/plants", `{"id":1,"name":"Ivy"}`, "Authorization", "Bearer t", SessionHeader, "job-7")
	do(t, ts, "POST", "/plants", `{"id":2,"name":"Moss"}`, "Authorization", "Bearer t")
	b.waitFor("the default session's third request", shownJS, "3 of 3 requests")
	b.do("selecting session job-7", chromedp.SendKeys("#session", "job-7"), chromedp.KeyEvent(kb.Enter))
	b.waitFor("session job-7's journal", rowsJS, [][]string{{"POST", "/plants", "200", "POST /plants", "", ""}})
	b.waitFor("session job-7's count", shownJS, "1 of 1 request")
	do(t, ts, "POST", "/plants", `{"id":"x"}`, "Authorization", "Bearer t", SessionHeader, "job-7")
	b.waitFor("session job-7's refusal", rowsJS, [][]string{
		{"POST", "/plants", "400", "POST /plants", "", "40004"},
		{"POST", "/plants", "200", "POST /plants", "", ""},
	})
}

// TestDashboardAdminAddr: with the admin API on a listener of its own
// (--admin-addr), the dashboard there shows the mock's requests.
func TestDashboardAdminAddr(t *testing.T) {
	s, ts := newTestServer(t, Options{Admin: AdminOptions{Disabled: true}})
	admin := httptest.NewServer(s.Admin())
	t.Cleanup(admin.Close)
	b := newBrowser(t)
	b.open(admin.URL)
	do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t")
	b.waitFor("the create", rowsJS, [][]string{{"POST", "/plants", "200", "POST /plants", "", ""}})
	b.waitFor("the store", storeJS, []string{"/plants (1)", "{\n  \"id\": 1,\n  \"name\": \"Fern\"\n}"})
	if st, body := do(t, ts, "GET", "/__admin/ui/", ""); st != 404 {
		t.Errorf("the mock's own listener serves the dashboard: %d %s", st, body)
	}
}

// TestDashboardViolations: a refused request opens, with the keyboard,
// to its request and answer and the violations one per line. With
// PLANTMOCK_SCREENSHOT=file.png it saves the page there.
func TestDashboardViolations(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern","tag":"fern"}`, "Authorization", "Bearer t")
	do(t, ts, "POST", "/plants", `{"id":2,"name":"Monstera"}`, "Authorization", "Bearer t")
	do(t, ts, "GET", "/plants?limit=2", "", "Authorization", "Bearer t")
	do(t, ts, "POST", "/plants", `{"id":"x"}`, "Authorization", "Bearer t")
	b := newBrowser(t)
	b.open(ts.URL)
	b.waitFor("the journal", rowsJS, [][]string{
		{"POST", "/plants", "400", "POST /plants", "", "40004"},
		{"GET", "/plants?limit=2", "405", "no operation", "", "40500"},
		{"POST", "/plants", "200", "POST /plants", "", ""},
		{"POST", "/plants", "200", "POST /plants", "", ""},
	})

	const first = `#rows > li:first-child > .summary`
	const expanded = `document.querySelector('` + first + `').getAttribute('aria-expanded')`
	b.do("opening the refusal with Enter", chromedp.Focus(first), chromedp.KeyEvent(kb.Enter))
	b.waitFor("the refusal open", expanded, "true")
	b.waitFor("its violations", `[...document.querySelectorAll('#rows .violations li')].map(l => [...l.children].map(c => c.textContent))`, [][]string{
		{"id: expected integer, got string", "schema #/components/schemas/NewPlant/allOf/1/properties/id/type"},
		{"name: required property is missing", "schema #/components/schemas/Plant/required"},
	})
	b.waitFor("its request and answer", detailJS, [][]string{
		{"Request", "POST /plants", "Session", "default"},
		{"Status", "400", "Error code", "40004", "Operation", "POST /plants"},
	})
	b.do("closing it with Space", chromedp.KeyEvent(" "))
	b.waitFor("the refusal closed", expanded, "false")
	b.do("opening it again", chromedp.KeyEvent(kb.Enter))
	b.waitFor("its bodies", `[...document.querySelectorAll('#rows .detail pre')].map(p => p.textContent).slice(1)`, []string{
		"{\n  \"id\": \"x\"\n}",
		"{\n  \"error\": 40004,\n  \"message\": \"request body does not match the schema: id: expected integer, got string; name: required property is missing\"\n}",
	})

	if path := os.Getenv("PLANTMOCK_SCREENSHOT"); path != "" {
		b.do("blurring the row", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
		ctx, cancel := context.WithTimeout(b.ctx, waitLimit)
		defer cancel()
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("saved the dashboard to %s (%d bytes)", path, len(png))
	}
}

// TestDashboardScenario: choosing a scenario in the page changes the
// mock's next answer; choosing none restores it.
func TestDashboardScenario(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	b := newBrowser(t)
	b.open(ts.URL)
	b.waitFor("the scenarios", `[...document.querySelectorAll('#scenarios label')].map(l => l.textContent)`,
		[]string{"none", "first-call-fails", "first-create-fails", "flaky", "slow", "store-busy", "tag-policy"})
	b.waitFor("no active scenario", activeJS, "Active: none")

	b.do("choosing store-busy", chromedp.Click(`#scenarios input[value="store-busy"]`))
	b.waitFor("store-busy active", activeJS, "Active: store-busy")
	if _, body := do(t, ts, "GET", "/__admin/scenarios", ""); !strings.HasPrefix(body, `{"active":"store-busy",`) {
		t.Errorf("GET /__admin/scenarios: %s", body)
	}
	st, _ := do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t")
	if st != 400 {
		t.Errorf("create under store-busy: %d", st)
	}
	b.waitFor("the busy answer", rowsJS, [][]string{{"POST", "/plants", "400", "POST /plants", "store-busy #1", "50300"}})

	b.do("choosing none", chromedp.Click(`#scenarios input[value=""]`))
	b.waitFor("no active scenario again", activeJS, "Active: none")
	do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t")
	b.waitFor("the create", rowsJS, [][]string{
		{"POST", "/plants", "200", "POST /plants", "", ""},
		{"POST", "/plants", "400", "POST /plants", "store-busy #1", "50300"},
	})
}

// TestDashboardStore: the store view shows the session's resources,
// deletes one, follows new requests, and empties with reset.
func TestDashboardStore(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	do(t, ts, "PUT", "/__admin/store/plants", `[{"id":1,"name":"Fern"},{"id":2,"name":"Ivy"}]`)
	do(t, ts, "POST", "/plants", `{"id":3,"name":"Moss"}`, "Authorization", "Bearer t")
	b := newBrowser(t)
	b.open(ts.URL)
	fern, ivy, moss := "{\n  \"id\": 1,\n  \"name\": \"Fern\"\n}", "{\n  \"id\": 2,\n  \"name\": \"Ivy\"\n}", "{\n  \"id\": 3,\n  \"name\": \"Moss\"\n}"
	b.waitFor("the store", storeJS, []string{"/plants (3)", fern, ivy, moss})

	b.do("deleting Fern", chromedp.Click(`#store button[aria-label="Delete item 1 of /plants"]`))
	b.waitFor("the store without Fern", storeJS, []string{"/plants (2)", ivy, moss})
	if _, body := do(t, ts, "GET", "/__admin/store", ""); body != `{"collections":{"/plants":[{"id":2,"name":"Ivy"},{"id":3,"name":"Moss"}]}}` {
		t.Errorf("GET /__admin/store after the delete: %s", body)
	}

	do(t, ts, "POST", "/plants", `{"id":4,"name":"Sage"}`, "Authorization", "Bearer t")
	b.waitFor("the store after a create", storeJS, []string{"/plants (3)", ivy, moss, "{\n  \"id\": 4,\n  \"name\": \"Sage\"\n}"})
	b.waitFor("the journal", shownJS, "2 of 2 requests")

	b.do("resetting", chromedp.Click(`#reset`))
	b.waitFor("an empty store", storeJS, []string{"The store is empty."})
	b.waitFor("an empty journal", shownJS, "0 of 0 requests")
	if _, body := do(t, ts, "GET", "/__admin/store", ""); body != `{"collections":{}}` {
		t.Errorf("GET /__admin/store after reset: %s", body)
	}

	do(t, ts, "PUT", "/__admin/store/plants", `[{"id":1,"name":"Fern"}]`)
	b.do("reading the store again", chromedp.Reload())
	b.waitFor("the seeded store", storeJS, []string{"/plants (1)", fern})
	b.do("emptying the store", chromedp.Click(`#empty-store`))
	b.waitFor("an empty store again", storeJS, []string{"The store is empty."})
	if _, body := do(t, ts, "GET", "/__admin/store", ""); body != `{"collections":{}}` {
		t.Errorf("GET /__admin/store after emptying: %s", body)
	}
}

// TestDashboardAdminToken: under an admin token the page asks for it,
// says when it is refused, then shows the journal, live; the token goes
// in the Authorization header of its calls and in no URL.
func TestDashboardAdminToken(t *testing.T) {
	const secret = "s3cret-Token"
	_, ts := newTestServer(t, Options{Admin: AdminOptions{Token: secret}})
	do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t")
	b := newBrowser(t)

	var mu sync.Mutex // guards urls and authorized
	var urls []string
	authorized := map[string]string{} // URL path -> Authorization sent
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			defer mu.Unlock()
			urls = append(urls, e.Request.URL)
			if a, ok := e.Request.Headers["Authorization"].(string); ok {
				authorized[strings.TrimPrefix(e.Request.URL, ts.URL)] = a
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	b.do("recording requests", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, network.Enable, network.EnableParams{})
		return err
	}))
	b.do("loading the dashboard", chromedp.Navigate(ts.URL+"/__admin/ui/"))
	b.waitFor("the token form", `[!document.getElementById('login').hidden, document.querySelector('label[for=token]').textContent, document.getElementById('main').hidden]`,
		[]any{true, "Admin token", true})

	b.do("a wrong token", chromedp.SendKeys("#token", "wrong"), chromedp.Click(`#login button`))
	b.waitFor("the refusal", `[!document.getElementById('login').hidden, !document.getElementById('login-error').hidden, document.getElementById('login-error').textContent]`,
		[]any{true, true, "That token was refused."})

	b.do("the token", chromedp.SendKeys("#token", secret), chromedp.Click(`#login button`))
	b.waitFor("the live stream", streamJS, "Live")
	b.waitFor("the journal", rowsJS, [][]string{{"POST", "/plants", "200", "POST /plants", "", ""}})
	do(t, ts, "POST", "/plants", `{"id":"x"}`, "Authorization", "Bearer t")
	b.waitFor("a request sent after login", rowsJS, [][]string{
		{"POST", "/plants", "400", "POST /plants", "", "40004"},
		{"POST", "/plants", "200", "POST /plants", "", ""},
	})
	b.waitFor("the token kept in the tab", `[sessionStorage.getItem('plantmock-admin-token'), localStorage.length, document.cookie]`, []any{secret, 0, ""})

	mu.Lock()
	defer mu.Unlock()
	for _, u := range urls {
		if strings.Contains(u, secret) {
			t.Errorf("the token is in the URL %s", u)
		}
	}
	for _, p := range []string{"/__admin/events", "/__admin/requests", "/__admin/store", "/__admin/scenarios", "/__admin/contract", "/__admin/ui/operations"} {
		if got := authorized[p]; got != "Bearer "+secret {
			t.Errorf("%s: last Authorization %q, want the token", p, got)
		}
	}
	if len(urls) == 0 {
		t.Error("no request was seen")
	}
}

// TestDashboardWebhook: a webhook the mock sends shows as an outbound
// row, with its URL, its subscriber's answer and its attempt, once,
// though the page reads it from the journal before the stream brings it
// (Observe holds it in between) and the stream's copy has no number.
func TestDashboardWebhook(t *testing.T) {
	sub := newSubscriber(t, always(200))
	recorded, hold := make(chan struct{}, 1), make(chan struct{})
	_, ts := newTestServer(t, Options{Spec: webhookSpec(t), Webhooks: WebhookOptions{Subscribers: map[string]session.Subscriber{"/plant/webhook": {URL: sub.URL}}},
		Observe: func(e journal.Entry) {
			if e.Direction == "outbound" {
				recorded <- struct{}{}
				<-hold
			}
		}})
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release) // before the server closes, which waits for the delivery
	b := newBrowser(t)
	b.open(ts.URL)
	do(t, ts, "POST", "/plants", `{"id":2,"name":"fern"}`, "Authorization", "Bearer abc")
	sub.next(t)
	select {
	case <-recorded:
	case <-time.After(waitLimit):
		t.Fatal("the delivery was not recorded")
	}
	b.do("loading the page again", chromedp.Reload())
	want := [][]string{
		{"→ POST", sub.URL, "200", "webhook /plant/webhook", "", "try 1"},
		{"POST", "/plants", "200", "POST /plants", "", ""},
	}
	b.waitFor("the create and its webhook, from the journal", rowsJS, want)
	b.waitFor("the live stream", streamJS, "Live")
	release() // now the stream brings the webhook too
	do(t, ts, "GET", "/nope", "")
	b.waitFor("each once", rowsJS, append([][]string{{"GET", "/nope", "404", "no operation", "", "40400"}}, want...))
	b.do("opening the webhook", chromedp.Click(`#rows > li.outbound > .summary`))
	b.waitFor("its detail", detailJS, [][]string{
		{"Method", "POST", "URL", sub.URL, "Operation", "webhook /plant/webhook", "Attempt", "1", "Trigger", "the answer to request 1", "Session", "default"},
		{"Status", "200"},
	})
}

// TestDashboardManyEntries: with a full journal of 1,000 entries and 200
// more a second for two seconds, every new entry shows and the filters
// still answer. Deadlines are generous: this checks what is shown, not
// how fast.
func TestDashboardManyEntries(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	for i := 1; i <= 1000; i++ {
		r := httptest.NewRequest("POST", "/plants", strings.NewReader(fmt.Sprintf(`{"id":%d,"name":"plant %d"}`, i, i)))
		r.Header.Set("Authorization", "Bearer t")
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != 200 {
			t.Fatalf("create %d: %d %s", i, w.Code, w.Body)
		}
	}
	b := newBrowser(t)
	b.open(ts.URL)
	b.waitFor("the full journal", `[document.getElementById('shown').textContent, document.getElementById('rows').childElementCount]`,
		[]any{"1000 of 1000 requests (the newest 1000 that match)", 1000})

	// 400 requests, one every 5ms, each to a path of its own.
	sent := make(chan error, 1)
	go func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for i := 1001; i <= 1400; i++ {
			<-tick.C
			resp, err := ts.Client().Get(fmt.Sprintf("%s/plants/%d", ts.URL, i))
			if err != nil {
				sent <- err
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		sent <- nil
	}()
	// While they stream, a filter on the status is typed and applies.
	b.waitFor("the stream under way", `document.querySelector('#rows > li .target').textContent.startsWith('/plants/1')`, true)
	b.do("filtering by status", chromedp.Click("#f-status"), chromedp.SendKeys("#f-status", "404"))
	b.waitFor("only 404s", `[...document.querySelectorAll('#rows .status')].every(s => s.textContent === '404') && document.getElementById('rows').childElementCount > 0`, true)
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	want := make([]string, 0, 400)
	for i := 1400; i > 1000; i-- {
		want = append(want, fmt.Sprintf("/plants/%d", i))
	}
	b.waitFor("every streamed request", `[...document.querySelectorAll('#rows .target')].map(t => t.textContent)`, want)
	b.waitFor("the count", shownJS, "400 of 1400 requests")

	b.do("clearing the filters", chromedp.Click(`#filters button[type=reset]`))
	b.waitFor("the newest 1000 again", `[document.getElementById('shown').textContent, document.getElementById('rows').childElementCount,
		document.querySelector('#rows > li .target').textContent, document.querySelector('#rows > li:last-child .target').textContent]`,
		[]any{"1000 of 1400 requests (the newest 1000 that match)", 1000, "/plants/1400", "/plants"})
}

// TestDashboardHostileContent: what clients send shows as text, never as
// markup, in the rows, their detail, the store and the session list.
func TestDashboardHostileContent(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	b := newBrowser(t)
	b.open(ts.URL)
	const name = `<img src=x onerror="document.title='owned'">`
	do(t, ts, "POST", "/plants", `{"id":1,"name":"`+strings.ReplaceAll(name, `"`, `\"`)+`"}`,
		"Authorization", "Bearer t", "X-Note", "<script>document.title='owned'</script>")
	// An admin call makes session job-1, which then journals the request
	// to no operation (which alone would not make it).
	do(t, ts, "GET", "/__admin/requests", "", SessionHeader, "job-1")
	do(t, ts, "GET", "/%3Cb%3Ebold%3C/b%3E?q=%3Ci%3E", "", SessionHeader, "job-1")
	b.waitFor("the create", rowsJS, [][]string{{"POST", "/plants", "200", "POST /plants", "", ""}})
	b.do("opening it", chromedp.Click(`#rows > li:first-child > .summary`))
	b.waitFor("its body and header as text", `[...document.querySelectorAll('#rows .detail pre')].map(p => p.textContent).filter(t => t.includes('owned'))`, []string{
		"Accept-Encoding: gzip\nAuthorization: Bearer ****\nContent-Length: 64\nContent-Type: application/json\nUser-Agent: Go-http-client/1.1\nX-Note: <script>document.title='owned'</script>",
		"{\n  \"id\": 1,\n  \"name\": \"" + strings.ReplaceAll(name, `"`, `\"`) + "\"\n}",
		"{\n  \"name\": \"" + strings.ReplaceAll(name, `"`, `\"`) + "\"\n}",
	})
	b.waitFor("the store as text", storeJS, []string{"/plants (1)", "{\n  \"id\": 1,\n  \"name\": \"" + strings.ReplaceAll(name, `"`, `\"`) + "\"\n}"})
	b.do("selecting session job-1", chromedp.SendKeys("#session", "job-1"), chromedp.KeyEvent(kb.Enter))
	b.waitFor("the path as text", rowsJS, [][]string{{"GET", "/<b>bold</b>?q=%3Ci%3E", "404", "no operation", "", "40400"}})
	b.waitFor("no markup from the data", `[document.querySelectorAll('img, b, i, main script').length, document.title]`, []any{0, "plantmock dashboard"})
}

// TestDashboardReload: after a reload the page shows the new document's
// operations and title; a failed reload and resources that no longer fit
// stay on screen until a reload clears them.
func TestDashboardReload(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t")
	b := newBrowser(t)
	b.open(ts.URL)
	const reloadJS = `[document.getElementById('reload').hidden, document.getElementById('reload').className,
		[...document.querySelectorAll('#reload p, #reload pre, #reload li')].map(e => e.textContent.replace(/\d\d:\d\d:\d\d\.\d\d\d/, 'TIME'))]`
	b.waitFor("the operations", operationsJS, [][]string{{"POST /plants", "1", "0"}})
	b.waitFor("no reload yet", reloadJS, []any{true, "reload", []string{}})

	if _, err := s.Reload(given(Content{Spec: []byte(replicaSpec)})); err != nil {
		t.Fatal(err)
	}
	b.waitFor("the new operations", operationsJS, [][]string{
		{"GET /plants never called", "0", "0"},
		{"POST /plants", "1", "0"},
		{"GET /plants/{id} never called", "0", "0"},
	})
	b.waitFor("the new title", `document.getElementById('spec').textContent`, "Replicated Plants 1.0.0")
	b.waitFor("the reload", reloadJS, []any{false, "reload", []string{"Reloaded at TIME (1 since start)."}})

	s.Reload(func() (Content, error) {
		return Content{}, errors.New("scenarios/busy.yaml:3: rule 1: status 418 is not declared for POST /plants")
	})
	b.waitFor("the failed reload", reloadJS, []any{false, "reload failed", []string{
		"The last reload failed; the mock still serves the previous version:",
		"scenarios/busy.yaml:3: rule 1: status 418 is not declared for POST /plants",
	}})

	stricter := strings.Replace(replicaSpec, "required: [id, name]\n      properties: {id: {type: integer}, name: {type: string}}",
		"required: [id, name, tag]\n      properties: {id: {type: integer}, name: {type: string}, tag: {type: string}}", 1)
	if _, err := s.Reload(given(Content{Spec: []byte(stricter)})); err != nil {
		t.Fatal(err)
	}
	b.waitFor("the misfit", reloadJS, []any{false, "reload", []string{
		"Reloaded at TIME (2 since start).",
		"Stored resources that do not fit the document served now:",
		"/plants: id 1: tag: required property is missing",
	}})
}

// TestDashboardNoDuplicates: an entry that the page reads from the
// journal and then receives from the stream shows once. The mock records
// an entry in the journal a moment before it sends it to the streams;
// here Observe, called in that moment, holds it until the page has read
// the journal.
func TestDashboardNoDuplicates(t *testing.T) {
	hold := make(chan struct{})
	_, ts := newTestServer(t, Options{Observe: func(e journal.Entry) {
		if e.Path == "/plants/7" {
			<-hold
		}
	}})
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release) // before the server closes, which waits for the request
	// An admin call makes session s2, which then journals requests to no
	// operation (which alone would not make it).
	do(t, ts, "GET", "/__admin/requests", "", SessionHeader, "s2")
	b := newBrowser(t)
	b.open(ts.URL)
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		req, _ := http.NewRequest("GET", ts.URL+"/plants/7", nil)
		req.Header.Set(SessionHeader, "s2")
		if resp, err := ts.Client().Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	// Once the page reads session s2's journal, the entry is in it.
	b.do("selecting session s2", chromedp.SendKeys("#session", "s2"), chromedp.KeyEvent(kb.Enter))
	b.waitFor("the entry, from the journal", rowsJS, [][]string{{"GET", "/plants/7", "404", "no operation", "", "40400"}})
	release() // now the stream brings it too
	<-answered
	do(t, ts, "GET", "/plants/8", "", SessionHeader, "s2")
	b.waitFor("each entry once", rowsJS, [][]string{
		{"GET", "/plants/8", "404", "no operation", "", "40400"},
		{"GET", "/plants/7", "404", "no operation", "", "40400"},
	})
}

// TestDashboardCredentials: the dashboard shows credentials masked, as
// the journal keeps them: the Authorization scheme and last 4
// characters, API keys in headers and the query, cookies.
func TestDashboardCredentials(t *testing.T) {
	_, ts := newTestServer(t, Options{Spec: []byte(credentialsSpec)})
	b := newBrowser(t)
	b.open(ts.URL)
	st, body := do(t, ts, "GET", "/things?api_key=query-key-0001&limit=2", "", credentialHeaders...)
	expect(t, "GET /things", st, body, 200, `{"ok":true}`)
	b.waitFor("the call", rowsJS, [][]string{{"GET", "/things?api_key=****0001&limit=2", "200", "GET /things", "", ""}})
	b.do("opening it", chromedp.Click(`#rows > li:first-child > .summary`))
	b.waitFor("its headers masked", `[...document.querySelectorAll('#rows .detail pre')].map(p => p.textContent).filter(t => t.includes('Authorization'))`, []string{
		"Accept-Encoding: gzip\nAuthorization: Bearer ****wxyz\nCookie: sid=****0003; theme=****\nProxy-Authorization: Basic ****ZA==\nUser-Agent: Go-http-client/1.1\nX-Api-Key: ****0002",
	})
	b.waitFor("no credential anywhere on the page", `['abcdefghijwxyz', 'query-key-0001', 'header-key-0002', 'cookie-key-0003', 'dXNlcjpwYXNzd29yZA'].filter(s => document.documentElement.outerHTML.includes(s))`, []string{})
}

// TestDashboardDocuments: with several documents, the page lists every
// document's requests, each marked with its document, and the switcher
// shows one document: its requests, operations and store.
func TestDashboardDocuments(t *testing.T) {
	_, ts := newTestServer(t, Options{Documents: []Document{{Spec: example(t, "tasks.yaml"), Base: "/tasks"}, {Spec: example(t, "webhooks.yaml"), Base: "/hooks"}}})
	b := newBrowser(t)
	b.open(ts.URL)
	b.waitFor("the switcher", `[...document.querySelectorAll('#document option')].map(o => o.value + '=' + o.textContent)`,
		[]string{"=All documents", "tasks=tasks (/tasks)", "hooks=hooks (/hooks)"})
	b.waitFor("the title", `document.getElementById('spec').textContent`, "Task Board 2.1.0, Plants with webhooks 1.0.0")

	do(t, ts, "POST", "/tasks/notes", `{"text":"water"}`, "X-API-Key", "k")
	do(t, ts, "POST", "/hooks/plants", `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t")
	b.waitFor("both documents' requests", rowsJS, [][]string{
		{"POST", "/hooks/plants", "200", "hooks · POST /plants", "", ""},
		{"POST", "/tasks/notes", "201", "tasks · POST /notes", "", ""},
	})
	b.waitFor("the store of both", storeJS, []string{"/hooks/plants (1)", "{\n  \"id\": 1,\n  \"name\": \"Fern\"\n}", "/tasks/notes (1)", "{\n  \"noteId\": 1,\n  \"text\": \"water\"\n}"})

	if _, err := b.eval(`(() => { const s = document.getElementById('document'); s.value = 'tasks'; return s.dispatchEvent(new Event('change')) })()`); err != nil {
		t.Fatalf("selecting the tasks document: %v", err)
	}
	b.waitFor("the tasks document's requests", rowsJS, [][]string{{"POST", "/tasks/notes", "201", "tasks · POST /notes", "", ""}})
	b.waitFor("the tasks document's title", `document.getElementById('spec').textContent`, "Task Board 2.1.0")
	b.waitFor("the tasks document's store", storeJS, []string{"/tasks/notes (1)", "{\n  \"noteId\": 1,\n  \"text\": \"water\"\n}"})
	b.waitFor("the tasks document's operations", `[...document.querySelectorAll('#operations tr')].filter(r => r.cells[1].textContent !== '0').map(r => [...r.cells].map(c => c.textContent))`,
		[][]string{{"POST /tasks/notes", "1", "0"}})
	do(t, ts, "POST", "/hooks/plants", `{"id":2,"name":"Ivy"}`, "Authorization", "Bearer t")
	do(t, ts, "GET", "/tasks/notes/1", "", "X-API-Key", "k")
	b.waitFor("a new request of tasks, and none of hooks", rowsJS, [][]string{
		{"GET", "/tasks/notes/1", "200", "tasks · GET /notes/{noteId}", "", ""},
		{"POST", "/tasks/notes", "201", "tasks · POST /notes", "", ""},
	})
	b.waitFor("the count", shownJS, "2 of 4 requests")
}

// TestDashboardDocumentScenarios: with several documents, the page
// labels each scenario with its document, and choosing one makes it
// active in that document alone.
func TestDashboardDocumentScenarios(t *testing.T) {
	_, ts := newTestServer(t, Options{Documents: []Document{{Spec: []byte(plantmock.OpenAPI), Base: "/ps1"}, {Spec: []byte(plantmock.OpenAPI), Base: "/ps2"}}})
	b := newBrowser(t)
	b.open(ts.URL)
	b.waitFor("store-busy of each", `[...document.querySelectorAll('#scenarios label')].map(l => l.textContent).filter(l => l.endsWith('store-busy'))`,
		[]string{"ps1 · store-busy", "ps2 · store-busy"})
	b.waitFor("none active", activeJS, "Active: ps1: none, ps2: none")
	b.do("choosing ps1's store-busy", chromedp.Click(`#scenarios input[value="store-busy"][data-document="ps1"]`))
	b.waitFor("store-busy active in ps1", activeJS, "Active: ps1: store-busy, ps2: none")
	for _, c := range []struct {
		path string
		want int
	}{{"/ps1/plants", 400}, {"/ps2/plants", 200}} {
		if st, _ := do(t, ts, "POST", c.path, `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t"); st != c.want {
			t.Errorf("POST %s: %d, want %d", c.path, st, c.want)
		}
	}
}
