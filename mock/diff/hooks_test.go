package diff_test

import (
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/diff"
)

// hooked is a document with a webhook, plantSold (lines 4 to 18), and
// an operation, POST /subscriptions (19 to 36), with a callback, sold
// (25 to 36); each case edits it.
const hooked = `openapi: 3.1.0
info: {title: Hooks, version: "1"}
webhooks:
  plantSold:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [id]
              properties:
                id: {type: string, maxLength: 40}
                kind: {type: string, pattern: "^[a-z]+$"}
      responses:
        "200": {description: received}
        "410": {description: unsubscribed}
paths:
  /subscriptions:
    post:
      responses:
        "201": {description: subscribed}
      callbacks:
        sold:
          '{$request.body#/url}':
            post:
              parameters:
                - {name: X-Signature, in: header, schema: {type: string}}
              requestBody:
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        id: {type: string}
              responses:
                "200": {description: received}
`

// TestHookChanges edits hooked's webhook and callback and holds each
// change to its rule, level, side and places: a hook's provider sends
// the request and its client answers, so each change breaks the other
// party than the same change to an operation. Each case says why in a
// line.
func TestHookChanges(t *testing.T) {
	const (
		wh   = "POST plantSold "
		subs = "POST /subscriptions "
		id   = "/webhooks/plantSold/post/requestBody/content/application~1json/schema/properties/id"
		cb   = "/paths/~1subscriptions/post/callbacks/sold/{$request.body#~1url}/post"
	)
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		{"unchanged", "", "", nil},
		// A client of OLD that waits for it receives it no more.
		{"webhook removed", "webhooks:\n  plantSold:\n", "webhooks:\n  plantGone:\n",
			[]string{
				"POST plantGone webhook-added breaks-providers document old=- new=/webhooks/plantGone/post:6",
				wh + "webhook-removed breaks-clients document old=/webhooks/plantSold/post:6 new=-",
			}},
		// A provider of OLD does not send it; a client of OLD never asked for it.
		{"webhook method added", "    post:\n      requestBody:", "    put:\n      responses: {\"200\": {description: ok}}\n    post:\n      requestBody:",
			[]string{"PUT plantSold webhook-added breaks-providers document old=- new=/webhooks/plantSold/put:6"}},
		// Longer ids reach clients of OLD, which receive the request.
		{"webhook bound loosened", "maxLength: 40", "maxLength: 80",
			[]string{wh + "webhook-request-property-max-length-increased breaks-clients request old=" + id + "/maxLength:13 new=" + id + "/maxLength:13"}},
		// A provider of OLD may send an id NEW forbids.
		{"webhook bound tightened", "maxLength: 40", "maxLength: 20",
			[]string{wh + "webhook-request-property-max-length-decreased breaks-providers request old=" + id + "/maxLength:13 new=" + id + "/maxLength:13"}},
		// Other values, maybe more: a client of OLD may receive what it
		// refuses, as for an operation's answer.
		{"webhook pattern changed", `"^[a-z]+$"`, `"^[a-z0-9]+$"`,
			[]string{wh + "webhook-request-property-pattern-changed breaks-clients request old=/webhooks/plantSold/post/requestBody/content/application~1json/schema/properties/kind/pattern:14 new=/webhooks/plantSold/post/requestBody/content/application~1json/schema/properties/kind/pattern:14"}},
		// A provider of OLD may send requests without a body.
		{"webhook body required", "      requestBody:\n        content:\n          application/json:\n            schema:\n              type: object\n              required",
			"      requestBody:\n        required: true\n        content:\n          application/json:\n            schema:\n              type: object\n              required",
			[]string{wh + "webhook-request-body-became-required breaks-providers request old=/webhooks/plantSold/post/requestBody:7 new=/webhooks/plantSold/post/requestBody:7"}},
		// A client of OLD may still answer 410.
		{"webhook status removed", "        \"410\": {description: unsubscribed}\n", "",
			[]string{wh + "webhook-response-status-removed breaks-clients response old=/webhooks/plantSold/post/responses/410:17 new=-"}},
		// A client of OLD that waits for it receives it no more.
		{"callback removed", "      callbacks:\n        sold:\n", "      callbacks:\n        gone:\n",
			[]string{
				subs + "callback-added breaks-providers document old=- new=/paths/~1subscriptions/post/callbacks/gone/{$request.body#~1url}/post:27",
				subs + "callback-removed breaks-clients document old=" + cb + ":27 new=-",
			}},
		// The provider of NEW sends it elsewhere: a client of OLD waits
		// for it where it was.
		{"callback URL changed", "'{$request.body#/url}'", "'{$request.body#/hook}'",
			[]string{
				subs + "callback-added breaks-providers document old=- new=/paths/~1subscriptions/post/callbacks/sold/{$request.body#~1hook}/post:27",
				subs + "callback-removed breaks-clients document old=" + cb + ":27 new=-",
			}},
		// A provider of OLD may leave it out.
		{"callback property became required", "                      properties:\n", "                      required: [id]\n                      properties:\n",
			[]string{subs + "callback-request-property-became-required breaks-providers request old=" + cb + "/requestBody/content/application~1json/schema:33 new=" + cb + "/requestBody/content/application~1json/schema/required:34"}},
		// A provider of OLD does not send it: a request of it is refused.
		{"callback parameter required", "in: header, schema", "in: header, required: true, schema",
			[]string{subs + "callback-request-parameter-became-required breaks-providers request old=" + cb + "/parameters/0:28 new=" + cb + "/parameters/0:28"}},
		// Its values must be booleans, and several may come: each change
		// a callback's, the other party's.
		{"callback parameter became an array", "in: header, schema: {type: string}", "in: header, schema: {type: array, items: {type: boolean}}",
			[]string{
				subs + "callback-request-parameter-type-changed breaks-clients request old=" + cb + "/parameters/0/schema/type:28 new=" + cb + "/parameters/0/schema/items/type:28",
				subs + "callback-request-parameter-became-array breaks-clients request old=" + cb + "/parameters/0/schema/type:28 new=" + cb + "/parameters/0/schema/type:28",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, compare(t, hooked, edit(t, hooked, tt.old, tt.new)), tt.want)
		})
	}
}

// TestHookReasons holds the reasons of a hook's changes to naming the
// parties the other way round, and a callback by its name, method and
// URL.
func TestHookReasons(t *testing.T) {
	edited := strings.NewReplacer("maxLength: 40", "maxLength: 80", "        \"410\": {description: unsubscribed}\n", "",
		"in: header, schema", "in: header, required: true, schema").Replace(hooked)
	check(t, reasons(t, hooked, edited), []string{
		"callback sold POST {$request.body#/url}: header parameter X-Signature became required: a request without it, which OLD accepted, is refused",
		"request body (application/json) property id: maxLength went from 40 to 80; a client of OLD refuses values NEW allows",
		"NEW no longer declares the response 410: a client of OLD may still send it",
	})
}

// TestIgnoreWebhook accepts a webhook's change by its operation, METHOD
// name, as an ignore file writes it.
func TestIgnoreWebhook(t *testing.T) {
	r, err := diff.Compare([]byte(hooked), []byte(strings.Replace(hooked, "  plantSold:\n", "  plantGone:\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := diff.ParseIgnores([]byte("webhook-removed POST plantSold: nobody subscribed\n"))
	if err != nil {
		t.Fatal(err)
	}
	if unused := r.Ignore(entries); len(unused) != 0 {
		t.Errorf("unused entries %+v", unused)
	}
	var got []string
	for _, c := range r.Changes {
		got = append(got, c.Rule+" ignored="+c.Ignored)
	}
	check(t, got, []string{"webhook-added ignored=", "webhook-removed ignored=nobody subscribed"})
}
