package pipeline

import (
	"fmt"
	"net/url"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// hookSet is what the document says the mock sends, worked out at start:
// its webhooks by name, the webhooks each create sends, the subscribers
// given by Options.Webhooks.Subscribers, and which hosts callbacks may reach.
type hookSet struct {
	ByName   map[string][]*openapi.Hook
	OnCreate map[*answer.Plan][]*openapi.Hook
	Defaults map[string]session.Subscriber
	Allow    deliver.AllowList
	// callbacks is true when an operation declares callbacks.
	callbacks bool
}

// CheckSubscriberURL accepts absolute http and https URLs.
func CheckSubscriberURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http or https URL", Clip(raw, 100))
	}
	return nil
}

// sendsAfter reports whether anything is sent after an answer of status
// to x: the webhooks of a create, those of the scenario rule that
// answered, or, after a 2xx, the operation's callbacks. afterAnswer then
// flushes the answer before the handler returns.
func (x *exchange) sendsAfter(status int) bool {
	if x.Plan == nil || x.problem != nil || x.proxied {
		return false
	}
	return x.Created != nil && len(x.Sv.Hooks.OnCreate[x.Plan]) > 0 ||
		x.rule != nil && len(x.rule.Webhooks) > 0 ||
		status >= 200 && status <= 299 && len(x.Plan.Op.Callbacks) > 0
}

// flushes reports whether an answer of status to x is flushed before
// the handler returns: when something is sent after it (sendsAfter), or
// when its journal entry is written out of the process (exchange.remote)
// and a create has not written it already. Such an answer carries its
// Content-Length (setLength).
func (x *exchange) flushes(status int) bool { return x.flushesIf(x.sendsAfter(status)) }

// flushesIf is flushes for an answer that sends something after it or
// not (sends, from sendsAfter).
func (x *exchange) flushesIf(sends bool) bool { return sends || x.remote && x.Journaled == 0 }

// any reports whether the document declares webhooks or callbacks.
func (hs *hookSet) any() bool { return len(hs.ByName) > 0 || hs.callbacks }
