package mock

import (
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// TestAnswerLength: every answer goes with its Content-Length, never
// chunked: those net/http sizes itself (a body it holds whole when the
// handler returns), those flushed before the handler returns because
// webhooks or callbacks follow, and those longer than net/http holds.
func TestAnswerLength(t *testing.T) {
	sub := newSubscriber(t, always(200))
	hooks := map[string]session.Subscriber{"/plant/webhook": {URL: sub.URL}}
	rule := mustScenario(t, `name: hook
rules:
  - when: {operation: POST /plants}
    respond:
      status: 200
      body: {name: "{{.body.name}}"}
      webhooks: [/plant/webhook]
`)
	long := strings.Repeat("x", pipeline.HeldBody+1)
	bigSpec := fmt.Sprintf(`openapi: 3.0.3
info: {title: big, version: "1"}
paths:
  /big:
    get:
      responses:
        "200":
          description: a long string
          content:
            application/json:
              schema: {type: string}
              example: %q
`, long)

	_, plain := newTestServer(t, Options{})
	_, created := newTestServer(t, Options{Spec: webhookSpec(t), Webhooks: WebhookOptions{Subscribers: hooks}})
	_, scripted := newTestServer(t, Options{Spec: webhookSpec(t), Scenarios: []*scenario.Scenario{rule}, Scenario: "hook", Webhooks: WebhookOptions{Subscribers: hooks}})
	_, called := newTestServer(t, Options{Spec: callbackSpec(t)})
	_, big := newTestServer(t, Options{Spec: []byte(bigSpec)})

	bearer := []string{"Authorization", "Bearer abc"}
	for _, tt := range []struct {
		name       string
		ts         *httptest.Server
		method     string
		path, body string
		header     []string
		status     int
		want       string
		hooks      int // the requests the subscriber gets after it
	}{
		{"small answer", plain, "POST", "/plants", `{"id":1,"name":"Monstera"}`, bearer, 200, `{"name":"Monstera"}`, 0},
		{"refusal", plain, "POST", "/plants", `{"id":1,"name":"Monstera"}`, nil, 401,
			`{"error":40100,"message":"missing credentials: send \"Authorization: Bearer <token>\""}`, 0},
		{"create a webhook follows", created, "POST", "/plants", `{"id":2,"name":"fern"}`, bearer, 200, `{"name":"fern"}`, 1},
		{"scripted answer a webhook follows", scripted, "POST", "/plants", `{"id":3,"name":"ivy"}`, bearer, 200, `{"name":"ivy"}`, 1},
		{"create a callback follows", called, "POST", "/plants", fmt.Sprintf(`{"id":4,"name":"fern","callbackUrl":%q}`, sub.URL+"/cb"), []string{"X-Audit-Url", sub.URL + "/audit"}, 201, `{"id":4,"name":"fern"}`, 2},
		{"longer than net/http holds", big, "GET", "/big", "", nil, 200, strconv.Quote(long), 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.body != "" {
				h["Content-Type"] = "application/json"
			}
			_, resp, got := send(t, tt.ts, call{method: tt.method, path: tt.path, body: tt.body, header: with(h, tt.header...)})
			if resp.StatusCode != tt.status || string(got) != tt.want {
				t.Errorf("answer %d %s, want %d %s", resp.StatusCode, got, tt.status, tt.want)
			}
			if cl := resp.Header.Get("Content-Length"); cl != strconv.Itoa(len(tt.want)) || resp.ContentLength != int64(len(tt.want)) || resp.TransferEncoding != nil {
				t.Errorf("Content-Length %q (%d), Transfer-Encoding %v; want %d, none", cl, resp.ContentLength, resp.TransferEncoding, len(tt.want))
			}
			for range tt.hooks {
				sub.next(t)
			}
		})
	}
}
