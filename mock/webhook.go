package mock

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

// WebhookError is New's error for Options.Webhooks.Subscribers or Allow it
// cannot use; its message starts with the flag's name.
type WebhookError struct{ Err error }

func (e *WebhookError) Error() string { return e.Err.Error() }
func (e *WebhookError) Unwrap() error { return e.Err }

// hookSet is what the document says the mock sends, worked out at start:
// its webhooks by name, the webhooks each create sends, the subscribers
// given by Options.Webhooks.Subscribers, and which hosts callbacks may reach.
type hookSet struct {
	byName   map[string][]*openapi.Hook
	onCreate map[*plan][]*openapi.Hook
	defaults map[string]session.Subscriber
	allow    deliver.AllowList
	// callbacks is true when an operation declares callbacks.
	callbacks bool
}

// newHookSet checks the webhooks' subscribers of c against the document and finds the
// webhooks creates send: those whose body schema is the create's body
// schema or its collection's item schema (the same schema, by reference).
func (sv *served) newHookSet(c Content) error {
	hs := &sv.hooks
	hs.byName = map[string][]*openapi.Hook{}
	for _, h := range sv.doc.Webhooks {
		hs.byName[h.Name] = append(hs.byName[h.Name], h)
	}
	hs.defaults = map[string]session.Subscriber{}
	for name, sub := range c.Webhooks {
		if hs.byName[name] == nil {
			return &WebhookError{&OptionError{Name: "webhook", Err: fmt.Errorf("%q is not a webhook of the document (declared: %s)", clip(name, 60), sv.doc.WebhookNames())}}
		}
		if err := checkSubscriberURL(sub.URL); err != nil {
			return &WebhookError{&OptionError{Name: "webhook", Err: fmt.Errorf("%s: %v", clip(name, 60), err)}}
		}
		hs.defaults[name] = sub
	}
	urls := make([]string, 0, len(hs.defaults))
	for _, sub := range hs.defaults {
		urls = append(urls, sub.URL)
	}
	allow, err := deliver.NewAllowList(c.WebhookAllow, urls)
	if err != nil {
		return &WebhookError{&OptionError{Name: "webhook-allow", Err: err}}
	}
	hs.allow = allow
	for _, op := range sv.doc.Operations {
		hs.callbacks = hs.callbacks || len(op.Callbacks) > 0
	}
	hs.onCreate = map[*plan][]*openapi.Hook{}
	for _, pl := range sv.plans {
		if pl.do != create || pl.col == nil {
			continue
		}
		var body *openapi.Schema
		if m := pl.op.Body.JSON(); pl.op.Body != nil && m != nil {
			body = m.Schema
		}
		for _, h := range sv.doc.Webhooks {
			if sc := scenario.HookSchema(h); sc != nil && (sc == body || sc == pl.col.schema) {
				hs.onCreate[pl] = append(hs.onCreate[pl], h)
			}
		}
	}
	return nil
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
func (s *Server) subscriber(ctx context.Context, ss *session.Session, name string) (session.Subscriber, bool, error) {
	subs, err := ss.Subscribers(ctx)
	if err != nil {
		return session.Subscriber{}, false, err
	}
	sub, set := subs[name]
	if !set {
		sub = s.served().hooks.defaults[name]
	}
	return sub, sub.URL != "", nil
}

// webhookBody builds the body of a webhook or callback: the value given
// (a created resource) projected onto the hook's schema when that fits
// it, else one generated from the schema. It returns nil for a hook
// without a JSON body.
func webhookBody(h *openapi.Hook, v any, f func() *gofakeit.Faker) any {
	sc := scenario.HookSchema(h)
	if sc == nil {
		return nil
	}
	if v != nil {
		if p := project(v, sc); len(sc.Validate(p)) == 0 {
			return p
		}
	}
	return gen.Value(sc, f())
}

// sendsAfter reports whether anything is sent after an answer of status
// to x: the webhooks of a create, those of the scenario rule that
// answered, or, after a 2xx, the operation's callbacks. afterAnswer then
// flushes the answer before the handler returns.
func (x *exchange) sendsAfter(status int) bool {
	if x.plan == nil || x.problem != nil || x.proxied {
		return false
	}
	return x.created != nil && len(x.sv.hooks.onCreate[x.plan]) > 0 ||
		x.rule != nil && len(x.rule.Webhooks) > 0 ||
		status >= 200 && status <= 299 && len(x.plan.op.Callbacks) > 0
}

// flushes reports whether an answer of status to x is flushed before
// the handler returns: when something is sent after it (sendsAfter), or
// when its journal entry is written out of the process (exchange.remote)
// and a create has not written it already. Such an answer carries its
// Content-Length (setLength).
func (x *exchange) flushes(status int) bool {
	return x.remote && x.journaled == 0 || x.sendsAfter(status)
}

// afterAnswer sends what an answered request triggers (see sendsAfter).
// It listens after the journal, which numbers the request's entry (the
// trigger of what it sends), for answers the mock made itself.
func (s *Server) afterAnswer(a *answered) {
	if !a.after {
		return
	}
	seq := a.e.Seq
	var hooks []*openapi.Hook
	if a.created != nil {
		hooks = a.sv.hooks.onCreate[a.plan]
	}
	var calls []scenario.RuleWebhook
	if a.rule != nil {
		calls = a.rule.Webhooks
	}
	var cbs []*openapi.Hook
	if a.status >= 200 && a.status <= 299 {
		cbs = a.plan.op.Callbacks
	}
	ctx := context.WithoutCancel(a.ctx)
	for _, h := range hooks {
		s.sendWebhook(ctx, a.sess, h, webhookBody(h, a.created, a.fake), seq, 0)
	}
	for _, c := range calls {
		var data map[string]any
		for _, h := range c.Hooks {
			body := webhookBody(h, a.created, a.fake)
			if c.HasBody {
				if data == nil {
					data = scenario.TemplateData(a.body, a.req.Header, a.token, a.seq)
				}
				v, err := scenario.RenderBody(c.Body, data, a.fake)
				if err != nil {
					s.log.Error("webhook body template failed", "rule", a.rule.Name, "webhook", h.Name, "error", err.Error())
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
func (s *Server) sendWebhook(ctx context.Context, ss *session.Session, h *openapi.Hook, body any, trigger uint64, delay time.Duration) {
	sub, ok, err := s.subscriber(ctx, ss, h.Name)
	if err != nil {
		s.log.Error("webhook not sent: the subscribers could not be read", "webhook", h.Name, "error", err.Error())
		return
	}
	if !ok {
		return
	}
	s.sendTo(&delivery{sess: ss, hook: h, url: sub.URL, token: sub.Token, body: body, trigger: trigger, delay: delay, via: localAddr(ctx)})
}

// sendTo queues a webhook's delivery to its subscriber if the allow list
// lets it go there (a reload may have narrowed the list since the
// subscriber was set); otherwise the log and the journal say why.
func (s *Server) sendTo(dv *delivery) {
	if err := s.served().hooks.allow.Check("webhook", dv.url); err != nil {
		s.log.Warn("webhook refused", "webhook", dv.hook.Name, "url", clip(s.shownURL(s.served().secrets, dv.url), 200), "reason", err.Error())
		s.note(dv, nil, err.Error())
		return
	}
	s.deliver(dv)
}

// checkSubscriber returns why the admin API or Subscribe may not set a
// subscriber at raw, or nil.
func (s *Server) checkSubscriber(raw string) error {
	if err := checkSubscriberURL(raw); err != nil {
		return err
	}
	return s.served().hooks.allow.Check("webhook", raw)
}

// sendCallback sends one of an operation's callbacks, to the URL its
// expression gives, if the allow list lets it.
func (s *Server) sendCallback(ctx context.Context, a *answered, h *openapi.Hook, trigger uint64) {
	sv := a.sv
	dv := &delivery{sess: a.sess, hook: h, trigger: trigger, via: localAddr(ctx)}
	target, err := expandURL(h.URL, a)
	if err == nil {
		err = sv.hooks.allow.Check("callback", target)
	}
	dv.url = target
	if target == "" {
		dv.url = h.URL
	}
	if err != nil {
		s.log.Warn("callback refused", "callback", h.Name, "operation", a.plan.op.Name, "url", clip(s.shownURL(sv.secrets, dv.url), 200), "reason", err.Error())
		s.note(dv, nil, err.Error())
		return
	}
	dv.body = webhookBody(h, a.created, a.fake)
	s.deliver(dv)
}

// any reports whether the document declares webhooks or callbacks.
func (hs *hookSet) any() bool { return len(hs.byName) > 0 || hs.callbacks }

// encodeHookBody returns a body's bytes and content type.
func encodeHookBody(h *openapi.Hook, body any) ([]byte, string) {
	if body == nil || h.Op.Body == nil {
		return nil, ""
	}
	return jsonx.Marshal(body), media.TypeOf(h.Op.Body.JSON())
}

// Subscribe sets the default session's subscriber of the webhook called
// name, as PUT /__admin/webhooks/NAME does; a Subscriber without a URL
// leaves the webhook without one. The URL must fit Options.Webhooks.Allow,
// as a callback's does.
func (s *Server) Subscribe(name string, sub session.Subscriber) error {
	if s.served().hooks.byName[name] == nil {
		return fmt.Errorf("webhook %q is not declared by the document (declared: %s)", clip(name, 60), s.served().doc.WebhookNames())
	}
	if sub.URL != "" {
		if err := s.checkSubscriber(sub.URL); err != nil {
			return err
		}
	}
	return s.sessions.Def.Subscribe(context.Background(), name, sub)
}
