package webhook

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestCallbackExpressions: the runtime expressions a callback URL may
// hold, over one exchange.
func TestCallbackExpressions(t *testing.T) {
	u, err := url.Parse("/plants/7?url=http://127.0.0.1:9/q&x=a+b")
	if err != nil {
		t.Fatal(err)
	}
	x := &event.Answered{E: journal.Entry{Method: "POST"}, URL: *u, Host: "mock.test",
		Header: http.Header{"X-Cb": {"http://127.0.0.1:9/h"}}, Status: 201, Answer: http.Header{"Location": {"/plants/7"}},
		Response: []byte(`{"id":7,"links":{"self":"http://127.0.0.1:9/self"}}`),
		Plan:     &answer.Plan{Route: &openapi.Route{Params: []string{"id"}}}, Vals: []string{"7"},
		Body: map[string]any{"callbackUrl": "http://127.0.0.1:9/cb", "n": json.Number("3"), "a/b": "slash", "obj": map[string]any{"k": "v w"}}}
	for _, c := range []struct{ tmpl, want, err string }{
		{"{$request.body#/callbackUrl}", "http://127.0.0.1:9/cb", ""},
		{"$request.body#/callbackUrl", "http://127.0.0.1:9/cb", ""},
		{"{$request.body#/callbackUrl}/events?n={$request.body#/n}", "http://127.0.0.1:9/cb/events?n=3", ""},
		{"{$request.query.url}", "http://127.0.0.1:9/q", ""},
		{"{$request.header.X-Cb}", "http://127.0.0.1:9/h", ""},
		{"http://127.0.0.1:9/plants/{$request.path.id}/{$method}?s={$statusCode}", "http://127.0.0.1:9/plants/7/POST?s=201", ""},
		{"http://127.0.0.1:9/q?v={$request.body#/obj/k}&w={$request.body#/a~1b}", "http://127.0.0.1:9/q?v=v+w&w=slash", ""},
		{"{$response.body#/links/self}", "http://127.0.0.1:9/self", ""},
		{"http://127.0.0.1:9{$response.header.Location}", "http://127.0.0.1:9/plants/7", ""},
		{"http://127.0.0.1:9/audit?of={$url}", "http://127.0.0.1:9/audit?of=http%3A%2F%2Fmock.test%2Fplants%2F7%3Furl%3Dhttp%3A%2F%2F127.0.0.1%3A9%2Fq%26x%3Da%2Bb", ""},
		{"https://hooks.example.com/literal", "https://hooks.example.com/literal", ""},
		{"{$request.body#/missing}", "", "$request.body#/missing is empty in this exchange"},
		{"{$request.cookie.c}", "", `"$request.cookie.c" is not a runtime expression this mock evaluates`},
		{"{$request.body#/callbackUrl", "", `the URL "{$request.body#/callbackUrl" has a { without }`},
	} {
		got, err := ExpandURL(c.tmpl, x)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("%s: %q %v, want %q %q", c.tmpl, got, err, c.want, c.err)
		}
	}
}
