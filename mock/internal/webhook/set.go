package webhook

import (
	"fmt"
	"net/url"
	"time"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/option"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// Options say where the document's webhooks (OpenAPI 3.1) go and
// how webhooks and callbacks are sent. The zero value subscribes nothing,
// lets callbacks reach loopback alone and sends with the defaults.
type Options struct {
	// Subscribers subscribe URLs to the document's webhooks, by name, in
	// every session (default: none); a session changes its own through
	// the admin API. A webhook is sent after a create that stores what
	// its body schema describes, when a scenario rule names it, and when
	// the admin API sends it.
	Subscribers map[string]session.Subscriber

	// Allow lists the hosts callbacks may be sent to (host, host:port,
	// *.domain, "loopback" or "*"): a callback URL taken from a request
	// or the document goes nowhere else. Empty (the default) means
	// loopback; the hosts of Subscribers are always in it. It is checked
	// again on the addresses a name resolves to, when a webhook or
	// callback connects: loopback addresses need "loopback" (or the
	// address), link-local and cloud metadata addresses need the address
	// itself, whatever name or "*" led there. No webhook or callback ever
	// connects to the addresses Serve and ServeAdmin serve on.
	Allow []string

	// Timeout bounds each attempt of a webhook or callback; 0 means
	// DefaultWebhookTimeout. An attempt that cannot connect, times out
	// or gets a 5xx is retried Retries times (0: DefaultWebhookRetries;
	// negative: never), after a backoff that doubles from Backoff (0:
	// DefaultWebhookBackoff), with jitter. At most Queue deliveries (0:
	// DefaultWebhookQueue) are under way at once; more are dropped with a
	// log line.
	Timeout time.Duration
	Retries int
	Backoff time.Duration
	Queue   int
}

// Set is what a document says the mock sends, worked out as it is
// loaded: its webhooks by name, the webhooks each create sends, the
// subscribers Options.Subscribers gives, and which hosts callbacks may
// reach.
type Set struct {
	ByName map[string][]*openapi.Hook
	// OnCreate holds the webhooks each create operation sends, by the
	// operation's name.
	OnCreate map[string][]*openapi.Hook
	Defaults map[string]session.Subscriber
	Allow    deliver.AllowList
	// callbacks is true when an operation declares callbacks.
	callbacks bool
}

// NewSet checks subs (Options.Subscribers) and allow (Options.Allow)
// against doc, and finds the webhooks the creates of plans send: those
// whose body schema is the create's body schema or its collection's item
// schema (the same schema, by reference). Its error is an
// option.WebhookError naming the flag.
func NewSet(doc *openapi.Document, plans answer.Plans, subs map[string]session.Subscriber, allow []string) (*Set, error) {
	hs := &Set{ByName: map[string][]*openapi.Hook{}, Defaults: map[string]session.Subscriber{}, OnCreate: map[string][]*openapi.Hook{}}
	for _, h := range doc.Webhooks {
		hs.ByName[h.Name] = append(hs.ByName[h.Name], h)
	}
	for name, sub := range subs {
		if hs.ByName[name] == nil {
			return nil, optionError("webhook", fmt.Errorf("%q is not a webhook of the document (declared: %s)", cliptext.To(name, 60), doc.WebhookNames()))
		}
		if err := CheckSubscriberURL(sub.URL); err != nil {
			return nil, optionError("webhook", fmt.Errorf("%s: %v", cliptext.To(name, 60), err))
		}
		hs.Defaults[name] = sub
	}
	urls := make([]string, 0, len(hs.Defaults))
	for _, sub := range hs.Defaults {
		urls = append(urls, sub.URL)
	}
	list, err := deliver.NewAllowList(allow, urls)
	if err != nil {
		return nil, optionError("webhook-allow", err)
	}
	hs.Allow = list
	for _, op := range doc.Operations {
		hs.callbacks = hs.callbacks || len(op.Callbacks) > 0
	}
	for _, pl := range plans {
		if pl.Do != answer.Create || pl.Col == nil {
			continue
		}
		var body *openapi.Schema
		if m := pl.Op.Body.JSON(); pl.Op.Body != nil && m != nil {
			body = m.Schema
		}
		for _, h := range doc.Webhooks {
			if sc := scenario.HookSchema(h); sc != nil && (sc == body || sc == pl.Col.Schema) {
				hs.OnCreate[pl.Op.Name] = append(hs.OnCreate[pl.Op.Name], h)
			}
		}
	}
	return hs, nil
}

// optionError is NewSet's error for flag.
func optionError(flag string, err error) error {
	return &option.WebhookError{Err: &option.Error{Name: flag, Err: err}}
}

// CheckSubscriberURL accepts absolute http and https URLs.
func CheckSubscriberURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http or https URL", cliptext.To(raw, 100))
	}
	return nil
}

// Any reports whether the document declares webhooks or callbacks.
func (hs *Set) Any() bool { return len(hs.ByName) > 0 || hs.callbacks }

// SendsAfter reports whether anything is sent after an answer of status
// the mock made itself (not refused, not proxied) to an operation of
// plan: the webhooks of a create that stored a resource (created), those
// of the scenario rule that answered, or, after a 2xx, the operation's
// callbacks. The pipeline then flushes the answer before its listeners
// are told, and Sender.AfterAnswer sends them.
func (hs *Set) SendsAfter(plan *answer.Plan, created bool, rule *scenario.Script, status int) bool {
	return created && len(hs.OnCreate[plan.Op.Name]) > 0 ||
		rule != nil && len(rule.Webhooks) > 0 ||
		status >= 200 && status <= 299 && len(plan.Op.Callbacks) > 0
}
