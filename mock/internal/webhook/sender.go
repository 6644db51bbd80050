package webhook

import (
	"context"
	"errors"
	"net/netip"
	"time"

	"github.com/brianvoe/gofakeit/v6"
	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// Subscriber returns the session's subscriber of a webhook: the one set
// through the admin API, else the one of Options.Webhooks.Subscribers; ok is false
// when there is none.
func (s *Sender) Subscriber(ctx context.Context, ss *session.Session, name string) (session.Subscriber, bool, error) {
	subs, err := ss.Subscribers(ctx)
	if err != nil {
		return session.Subscriber{}, false, err
	}
	sub, set := subs[name]
	if !set {
		sub = s.e.Served().Hooks.Defaults[name]
	}
	return sub, sub.URL != "", nil
}

// WebhookBody builds the body of a webhook or callback: the value given
// (a created resource) projected onto the hook's schema when that fits
// it, else one generated from the schema. It returns nil for a hook
// without a JSON body.
func WebhookBody(h *openapi.Hook, v any, f func() *gofakeit.Faker) any {
	sc := scenario.HookSchema(h)
	if sc == nil {
		return nil
	}
	if v != nil {
		if p := answer.Project(v, sc); len(sc.Validate(p)) == 0 {
			return p
		}
	}
	return gen.Value(sc, f())
}

// AfterAnswer sends what an answered request triggers (see sendsAfter).
// It listens after the journal, which numbers the request's entry (the
// trigger of what it sends), for answers the mock made itself.
func (s *Sender) AfterAnswer(a *pipeline.Answered) {
	if !a.After {
		return
	}
	seq := a.E.Seq
	var hooks []*openapi.Hook
	if a.Created != nil {
		hooks = a.Sv.Hooks.OnCreate[a.Plan]
	}
	var calls []scenario.RuleWebhook
	if a.Rule != nil {
		calls = a.Rule.Webhooks
	}
	var cbs []*openapi.Hook
	if a.Status >= 200 && a.Status <= 299 {
		cbs = a.Plan.Op.Callbacks
	}
	ctx := context.WithoutCancel(a.Ctx)
	for _, h := range hooks {
		s.sendWebhook(ctx, a.Sv, a.Sess, h, WebhookBody(h, a.Created, a.Fake), seq, 0)
	}
	for _, c := range calls {
		var data map[string]any
		for _, h := range c.Hooks {
			body := WebhookBody(h, a.Created, a.Fake)
			if c.HasBody {
				if data == nil {
					data = scenario.TemplateData(a.Body, a.Req.Header, a.Token, a.Seq)
				}
				v, err := scenario.RenderBody(c.Body, data, a.Fake)
				if err != nil {
					s.e.Log.Error("webhook body template failed", "rule", a.Rule.Name, "webhook", h.Name, "error", err.Error())
					continue
				}
				body = v
			}
			s.sendWebhook(ctx, a.Sv, a.Sess, h, body, seq, c.Delay)
		}
	}
	for _, h := range cbs {
		s.sendCallback(ctx, a, h, seq)
	}
}

// sendWebhook sends a webhook to the session's subscriber, if it has one.
func (s *Sender) sendWebhook(ctx context.Context, sv *pipeline.Served, ss *session.Session, h *openapi.Hook, body any, trigger uint64, delay time.Duration) {
	sub, ok, err := s.Subscriber(ctx, ss, h.Name)
	if err != nil {
		s.e.Log.Error("webhook not sent: the subscribers could not be read", "webhook", h.Name, "error", err.Error())
		return
	}
	if !ok {
		return
	}
	s.SendTo(&Delivery{Sv: sv, Sess: ss, Hook: h, Url: sub.URL, Token: sub.Token, Body: body, trigger: trigger, delay: delay, Via: deliver.LocalAddr(ctx)})
}

// SendTo queues a webhook's delivery to its subscriber if the allow list
// lets it go there (a reload may have narrowed the list since the
// subscriber was set); otherwise the log and the journal say why.
func (s *Sender) SendTo(dv *Delivery) {
	if err := s.e.Served().Hooks.Allow.Check("webhook", dv.Url); err != nil {
		s.e.Log.Warn("webhook refused", "webhook", dv.Hook.Name, "url", pipeline.Clip(s.e.ShownURL(s.served(dv).Secrets, dv.Url), 200), "reason", err.Error())
		s.note(dv, nil, err.Error())
		return
	}
	s.deliver(dv)
}

// CheckSubscriber returns why the admin API or Subscribe may not set a
// subscriber at raw, or nil.
func (s *Sender) CheckSubscriber(raw string) error {
	if err := pipeline.CheckSubscriberURL(raw); err != nil {
		return err
	}
	return s.e.Served().Hooks.Allow.Check("webhook", raw)
}

// sendCallback sends one of an operation's callbacks, to the URL its
// expression gives, if the allow list lets it.
func (s *Sender) sendCallback(ctx context.Context, a *pipeline.Answered, h *openapi.Hook, trigger uint64) {
	sv := a.Sv
	dv := &Delivery{Sv: sv, Sess: a.Sess, Hook: h, trigger: trigger, Via: deliver.LocalAddr(ctx)}
	target, err := ExpandURL(h.URL, a)
	if err == nil {
		err = sv.Hooks.Allow.Check("callback", target)
	}
	dv.Url = target
	if target == "" {
		dv.Url = h.URL
	}
	if err != nil {
		s.e.Log.Warn("callback refused", "callback", h.Name, "operation", a.Plan.Op.Name, "url", pipeline.Clip(s.e.ShownURL(sv.Secrets, dv.Url), 200), "reason", err.Error())
		s.note(dv, nil, err.Error())
		return
	}
	dv.Body = WebhookBody(h, a.Created, a.Fake)
	s.deliver(dv)
}

// encodeHookBody returns a body's bytes and content type.
func encodeHookBody(h *openapi.Hook, body any) ([]byte, string) {
	if body == nil || h.Op.Body == nil {
		return nil, ""
	}
	return jsonx.Marshal(body), media.TypeOf(h.Op.Body.JSON())
}

// NewSender returns what sends the Server's webhooks and callbacks, as
// opts say. Every connection is checked at connect time, on the address
// it is made to: never one of the mock's listeners, and loopback,
// link-local and metadata addresses only as the allow list in force
// says, whatever name led there.
// NewSender returns the sender of e's webhooks and callbacks, as wo
// configures it (its retries given, not defaulted), that tells them it
// is version.
func NewSender(e *pipeline.Engine, wo pipeline.WebhookOptions, version string) *Sender {
	s := &Sender{e: e}
	s.Deliveries = deliver.New(s.SenderConfig(wo, version))
	return s
}

// SenderConfig is newSender's configuration.
func (s *Sender) SenderConfig(wo pipeline.WebhookOptions, version string) deliver.Config {
	return deliver.Config{
		Timeout: wo.Timeout, Retries: max(wo.Retries, 0), Backoff: wo.Backoff, Queue: wo.Queue,
		UserAgent: "plantmock/" + version,
		Refuse: func(ctx context.Context, ap netip.AddrPort) error {
			if err := s.e.Listeners.Check(ap, deliver.ArrivedOn(ctx)); err != nil {
				return err
			}
			return s.e.Served().Hooks.Allow.Address(ap)
		},
	}
}

// Sender sends the webhooks and callbacks of the engine's answers, and
// those the admin API asks for, and tells the engine's listeners of
// each attempt.
type Sender struct {
	e          *pipeline.Engine
	Deliveries *deliver.Sender // the deliveries under way
}

// ErrNoSubscriber is Send's error for a webhook without a subscriber in
// the session.
var ErrNoSubscriber = errors.New("the webhook has no subscriber in this session")

// Send queues a webhook to the session's subscriber, as the admin API
// asks: with body, or a body generated from each of the webhook's
// operations when it is nil. It returns how many deliveries it queued
// and the subscriber's URL as the admin API shows it. No subscriber is
// ErrNoSubscriber, a body that breaks the webhook's schema a problem;
// ctx is the admin call's, whose address the deliveries never go to.
func (s *Sender) Send(ctx context.Context, ss *session.Session, name string, body any) (int, string, error) {
	sv := s.e.Mounted().Declaring(name)
	hooks := sv.Hooks.ByName[name]
	sub, ok, err := s.Subscriber(ctx, ss, name)
	if err != nil {
		return 0, "", err
	}
	if !ok {
		return 0, "", ErrNoSubscriber
	}
	faker := func() *gofakeit.Faker { return gen.Faker(s.e.Seed, s.e.Seq.Add(1)) }
	bodies := make([]any, len(hooks))
	for i, h := range hooks {
		bodies[i] = body
		if body == nil {
			bodies[i] = WebhookBody(h, nil, faker)
		}
		if vs := scenario.HookViolations(h, bodies[i]); len(vs) > 0 {
			return 0, "", problem.Invalid(problem.CodeSchema, problem.ClassRequest, "the body breaks the schema of %s: %s", h.Op.Name, journal.Quote(vs, len(vs)))
		}
	}
	for i, h := range hooks {
		s.SendTo(&Delivery{Sv: sv, Sess: ss, Hook: h, Url: sub.URL, Token: sub.Token, Body: bodies[i], Via: deliver.LocalAddr(ctx)})
	}
	return len(hooks), s.e.ShownURL(sv.Secrets, sub.URL), nil
}
