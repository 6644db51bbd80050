package pipeline

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// hookSet is what the document says the mock sends, worked out at start:
// its webhooks by name, the webhooks each create sends, the subscribers
// given by Options.Webhooks.Subscribers, and which hosts callbacks may reach.
type hookSet struct {
	ByName   map[string][]*openapi.Hook
	onCreate map[*Plan][]*openapi.Hook
	defaults map[string]session.Subscriber
	allow    deliver.AllowList
	// callbacks is true when an operation declares callbacks.
	callbacks bool
}

// checkSubscriberURL accepts absolute http and https URLs.
func checkSubscriberURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http or https URL", clip(raw, 100))
	}
	return nil
}

// subscriber returns the session's subscriber of a webhook: the one set
// through the admin API, else the one of Options.Webhooks.Subscribers; ok is false
// when there is none.
func (s *Engine) Subscriber(ctx context.Context, ss *session.Session, name string) (session.Subscriber, bool, error) {
	subs, err := ss.Subscribers(ctx)
	if err != nil {
		return session.Subscriber{}, false, err
	}
	sub, set := subs[name]
	if !set {
		sub = s.Served().Hooks.defaults[name]
	}
	return sub, sub.URL != "", nil
}

// webhookBody builds the body of a webhook or callback: the value given
// (a created resource) projected onto the hook's schema when that fits
// it, else one generated from the schema. It returns nil for a hook
// without a JSON body.
func WebhookBody(h *openapi.Hook, v any, f func() *gofakeit.Faker) any {
	sc := scenario.HookSchema(h)
	if sc == nil {
		return nil
	}
	if v != nil {
		if p := Project(v, sc); len(sc.Validate(p)) == 0 {
			return p
		}
	}
	return gen.Value(sc, f())
}

// sendsAfter reports whether anything is sent after an answer of status
// to x: the webhooks of a create, those of the scenario rule that
// answered, or, after a 2xx, the operation's callbacks. afterAnswer then
// flushes the answer before the handler returns.
func (x *Exchange) sendsAfter(status int) bool {
	if x.Plan == nil || x.problem != nil || x.proxied {
		return false
	}
	return x.created != nil && len(x.Sv.Hooks.onCreate[x.Plan]) > 0 ||
		x.rule != nil && len(x.rule.Webhooks) > 0 ||
		status >= 200 && status <= 299 && len(x.Plan.Op.Callbacks) > 0
}

// flushes reports whether an answer of status to x is flushed before
// the handler returns: when something is sent after it (sendsAfter), or
// when its journal entry is written out of the process (exchange.remote)
// and a create has not written it already. Such an answer carries its
// Content-Length (setLength).
func (x *Exchange) flushes(status int) bool {
	return x.remote && x.journaled == 0 || x.sendsAfter(status)
}

// afterAnswer sends what an answered request triggers (see sendsAfter).
// It listens after the journal, which numbers the request's entry (the
// trigger of what it sends), for answers the mock made itself.
func (s *Engine) afterAnswer(a *Answered) {
	if !a.after {
		return
	}
	seq := a.E.Seq
	var hooks []*openapi.Hook
	if a.created != nil {
		hooks = a.sv.Hooks.onCreate[a.Plan]
	}
	var calls []scenario.RuleWebhook
	if a.rule != nil {
		calls = a.rule.Webhooks
	}
	var cbs []*openapi.Hook
	if a.Status >= 200 && a.Status <= 299 {
		cbs = a.Plan.Op.Callbacks
	}
	ctx := context.WithoutCancel(a.ctx)
	for _, h := range hooks {
		s.sendWebhook(ctx, a.sess, h, WebhookBody(h, a.created, a.fake), seq, 0)
	}
	for _, c := range calls {
		var data map[string]any
		for _, h := range c.Hooks {
			body := WebhookBody(h, a.created, a.fake)
			if c.HasBody {
				if data == nil {
					data = scenario.TemplateData(a.Body, a.Req.Header, a.Token, a.seq)
				}
				v, err := scenario.RenderBody(c.Body, data, a.fake)
				if err != nil {
					s.Log.Error("webhook body template failed", "rule", a.rule.Name, "webhook", h.Name, "error", err.Error())
					continue
				}
				body = v
			}
			s.sendWebhook(ctx, a.sess, h, body, seq, c.Delay)
		}
	}
	for _, h := range cbs {
		s.sendCallback(ctx, a, h, seq)
	}
}

// sendWebhook sends a webhook to the session's subscriber, if it has one.
func (s *Engine) sendWebhook(ctx context.Context, ss *session.Session, h *openapi.Hook, body any, trigger uint64, delay time.Duration) {
	sub, ok, err := s.Subscriber(ctx, ss, h.Name)
	if err != nil {
		s.Log.Error("webhook not sent: the subscribers could not be read", "webhook", h.Name, "error", err.Error())
		return
	}
	if !ok {
		return
	}
	s.SendTo(&Delivery{Sess: ss, Hook: h, Url: sub.URL, Token: sub.Token, Body: body, trigger: trigger, delay: delay, Via: LocalAddr(ctx)})
}

// sendTo queues a webhook's delivery to its subscriber if the allow list
// lets it go there (a reload may have narrowed the list since the
// subscriber was set); otherwise the log and the journal say why.
func (s *Engine) SendTo(dv *Delivery) {
	if err := s.Served().Hooks.allow.Check("webhook", dv.Url); err != nil {
		s.Log.Warn("webhook refused", "webhook", dv.Hook.Name, "url", clip(s.ShownURL(s.Served().Secrets, dv.Url), 200), "reason", err.Error())
		s.note(dv, nil, err.Error())
		return
	}
	s.deliver(dv)
}

// checkSubscriber returns why the admin API or Subscribe may not set a
// subscriber at raw, or nil.
func (s *Engine) CheckSubscriber(raw string) error {
	if err := checkSubscriberURL(raw); err != nil {
		return err
	}
	return s.Served().Hooks.allow.Check("webhook", raw)
}

// sendCallback sends one of an operation's callbacks, to the URL its
// expression gives, if the allow list lets it.
func (s *Engine) sendCallback(ctx context.Context, a *Answered, h *openapi.Hook, trigger uint64) {
	sv := a.sv
	dv := &Delivery{Sess: a.sess, Hook: h, trigger: trigger, Via: LocalAddr(ctx)}
	target, err := ExpandURL(h.URL, a)
	if err == nil {
		err = sv.Hooks.allow.Check("callback", target)
	}
	dv.Url = target
	if target == "" {
		dv.Url = h.URL
	}
	if err != nil {
		s.Log.Warn("callback refused", "callback", h.Name, "operation", a.Plan.Op.Name, "url", clip(s.ShownURL(sv.Secrets, dv.Url), 200), "reason", err.Error())
		s.note(dv, nil, err.Error())
		return
	}
	dv.Body = WebhookBody(h, a.created, a.fake)
	s.deliver(dv)
}

// any reports whether the document declares webhooks or callbacks.
func (hs *hookSet) any() bool { return len(hs.ByName) > 0 || hs.callbacks }

// encodeHookBody returns a body's bytes and content type.
func encodeHookBody(h *openapi.Hook, body any) ([]byte, string) {
	if body == nil || h.Op.Body == nil {
		return nil, ""
	}
	return jsonx.Marshal(body), media.TypeOf(h.Op.Body.JSON())
}
