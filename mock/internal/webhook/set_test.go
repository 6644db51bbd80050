package webhook

import (
	"fmt"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// TestNewSet: what a document sends, the subscribers and allow list
// checked against it, and when an answer sends anything.
func TestNewSet(t *testing.T) {
	doc, plans := loaded(t, "webhooks.yaml")
	create := planOf(t, plans, "POST /plants")
	hs, err := NewSet(doc, plans, map[string]session.Subscriber{"/plant/webhook": {URL: "http://127.0.0.1:9/in"}}, []string{"hooks.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(hs.ByName["/plant/webhook"]); n != 1 || len(hs.ByName) != 1 {
		t.Errorf("ByName: %v, want /plant/webhook's one operation", hs.ByName)
	}
	if hooks := hs.OnCreate["POST /plants"]; len(hooks) != 1 || hooks[0].Name != "/plant/webhook" {
		t.Errorf("OnCreate: %v, want the create to send /plant/webhook", hs.OnCreate)
	}
	if sub := hs.Defaults["/plant/webhook"]; sub.URL != "http://127.0.0.1:9/in" {
		t.Errorf("Defaults: %v", hs.Defaults)
	}
	if !hs.Any() {
		t.Error("Any: false for a document with a webhook")
	}
	if err := hs.Allow.Check("webhook", "http://hooks.example.com/x"); err != nil {
		t.Errorf("an allowed host: %v", err)
	}
	if err := hs.Allow.Check("callback", "http://other.example.com/x"); err == nil || err.Error() != "host other.example.com is not in the callback allow list (--webhook-allow)" {
		t.Errorf("a host not allowed: %v", err)
	}
	rule := &scenario.Script{Webhooks: []scenario.RuleWebhook{{}}}
	for _, c := range []struct {
		created bool
		rule    *scenario.Script
		status  int
		want    bool
	}{
		{true, nil, 200, true},
		{true, nil, 400, true}, // a create's webhooks follow what it stored
		{false, nil, 200, false},
		{false, rule, 503, true},
		{false, &scenario.Script{}, 200, false},
	} {
		if got := hs.SendsAfter(create, c.created, c.rule, c.status); got != c.want {
			t.Errorf("SendsAfter(created %v, rule %v, %d) = %v, want %v", c.created, c.rule != nil, c.status, got, c.want)
		}
	}

	// Callbacks follow a 2xx alone.
	cdoc, cplans := loaded(t, "callbacks.yaml")
	chs, err := NewSet(cdoc, cplans, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ccreate := planOf(t, cplans, "POST /plants")
	if !chs.Any() || len(chs.ByName) != 0 || !chs.SendsAfter(ccreate, false, nil, 201) || chs.SendsAfter(ccreate, false, nil, 400) {
		t.Errorf("callbacks: Any %v, SendsAfter 201 %v, 400 %v; want true, true, false", chs.Any(), chs.SendsAfter(ccreate, false, nil, 201), chs.SendsAfter(ccreate, false, nil, 400))
	}
}

// TestNewSetRefuses: subscribers and allow lists the document or the
// syntax does not admit, each named by its flag.
func TestNewSetRefuses(t *testing.T) {
	doc, plans := loaded(t, "webhooks.yaml")
	for _, c := range []struct {
		subs  map[string]session.Subscriber
		allow []string
		want  string
	}{
		{map[string]session.Subscriber{"/nope": {URL: "http://127.0.0.1/"}}, nil, `webhook: "/nope" is not a webhook of the document (declared: /plant/webhook)`},
		{map[string]session.Subscriber{"/plant/webhook": {URL: "ftp://127.0.0.1/"}}, nil, `webhook: /plant/webhook: "ftp://127.0.0.1/" is not an absolute http or https URL`},
		{map[string]session.Subscriber{"/plant/webhook": {URL: "/relative"}}, nil, `webhook: /plant/webhook: "/relative" is not an absolute http or https URL`},
	} {
		_, err := NewSet(doc, plans, c.subs, c.allow)
		if err == nil || err.Error() != c.want {
			t.Errorf("NewSet(%v, %v): %v\nwant %s", c.subs, c.allow, err, c.want)
		}
	}
	_, err := NewSet(doc, plans, nil, []string{"http://a b"})
	if got := fmt.Sprint(err); len(got) < 15 || got[:15] != "webhook-allow: " {
		t.Errorf("a bad allow entry: %v, want an error naming webhook-allow", err)
	}
}
