package webhook

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/brianvoe/gofakeit/v6"
	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// Host is what the sender needs of the mock it sends for.
type Host interface {
	// Document returns the document of that name the mock serves now,
	// the first when none has it.
	Document(name string) Doc
	// Declaring returns the document that declares the webhook called
	// name, the first when none does.
	Declaring(webhook string) Doc
	// Subscribers returns the subscribers set through the admin API in
	// the session of that name ("" for the default one), as
	// session.Session.Subscribers does; none when it is not alive.
	Subscribers(ctx context.Context, session string) (map[string]session.Subscriber, error)
	// Attempted tells the mock's listeners of an attempt of a delivery.
	Attempted(t *journal.Attempt)
	// Faker returns a faker of the mock's sequence, for a body the admin
	// API has generated.
	Faker() *gofakeit.Faker
}

// Doc is what a document says the mock sends, and which credentials are
// masked where its deliveries are shown.
type Doc struct {
	Name    string
	Hooks   *Set
	Secrets *journal.Secrets
}

// Session is the session a delivery is sent for: its name, and its
// journal, which numbers the delivery's attempts.
type Session struct {
	Name    string
	Journal journal.Recorder
}

// Config is what NewSender needs beside its Host.
type Config struct {
	Options           // Retries given, not defaulted
	Version    string // the mock's, in the User-Agent
	Log        *slog.Logger
	Listeners  *deliver.Listeners // the addresses nothing sent may reach
	ClearCreds bool               // credentials are shown clear in the log and journal
}

// Sender sends the webhooks and callbacks of the mock's answers, and
// those the admin API asks for, and tells the mock's listeners of each
// attempt.
type Sender struct {
	h          Host
	c          Config
	dc         deliver.Config
	sending    sync.WaitGroup  // AfterAnswer's goroutines under way
	Deliveries *deliver.Sender // the deliveries under way
}

// NewSender returns the sender of h's webhooks and callbacks, as c
// configures it. Every connection is checked at connect time, on the
// address it is made to: never one of the mock's listeners, and
// loopback, link-local and metadata addresses only as the allow list in
// force says, whatever name led there.
func NewSender(h Host, c Config) *Sender {
	s := &Sender{h: h, c: c}
	s.dc = deliver.Config{
		Timeout: c.Timeout, Retries: max(c.Retries, 0), Backoff: c.Backoff, Queue: c.Queue,
		UserAgent: "plantmock/" + c.Version,
		Refuse: func(ctx context.Context, ap netip.AddrPort) error {
			if err := c.Listeners.Check(ap, deliver.ArrivedOn(ctx)); err != nil {
				return err
			}
			return s.h.Document("").Hooks.Allow.Address(ap)
		},
	}
	s.Deliveries = deliver.New(s.dc)
	return s
}

// DeliverConfig returns the configuration the sender's deliveries were
// made with.
func (s *Sender) DeliverConfig() deliver.Config { return s.dc }

// Subscriber returns the session's subscriber of a webhook: the one set
// through the admin API, else the one of Options.Subscribers; ok is
// false when there is none.
func (s *Sender) Subscriber(ctx context.Context, sess, name string) (session.Subscriber, bool, error) {
	subs, err := s.h.Subscribers(ctx, sess)
	if err != nil {
		return session.Subscriber{}, false, err
	}
	sub, set := subs[name]
	if !set {
		sub = s.h.Document("").Hooks.Defaults[name]
	}
	return sub, sub.URL != "", nil
}

// WebhookBody builds the body of a webhook or callback: the value given
// (a created resource) projected onto the hook's schema when that fits
// it, else one generated from the schema with the faker f gives. It
// returns nil for a hook without a JSON body.
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

// AfterAnswer sends what an answered request triggers (see
// Set.SendsAfter). It listens after the journal, which numbers the
// request's entry (the trigger of what it sends), for answers the mock
// made itself. What waits on the network (reading the session's
// subscribers, journaling a refused delivery) runs on a goroutine of its
// own, on a copy of a: the handler returns without waiting for it, and
// CloseDeliveries waits for it before the deliveries end.
func (s *Sender) AfterAnswer(a *event.Answered) {
	if !a.After {
		return
	}
	c := *a // a is the emitter's, taken back once the listeners return
	s.sending.Add(1)
	go func() {
		defer s.sending.Done()
		s.sendAfter(&c)
	}()
}

// sendAfter sends the webhooks and callbacks a triggers.
func (s *Sender) sendAfter(a *event.Answered) {
	doc := s.h.Document(a.Doc)
	seq, sess, via := a.E.Seq, Session{Name: a.E.Session, Journal: a.Journal}, a.Via
	fake := a.Fake
	faker := func() *gofakeit.Faker { return fake }
	var hooks []*openapi.Hook
	if a.Created != nil {
		hooks = doc.Hooks.OnCreate[a.Plan.Op.Name]
	}
	var calls []scenario.RuleWebhook
	if a.Rule != nil {
		calls = a.Rule.Webhooks
	}
	var cbs []*openapi.Hook
	if a.Status >= 200 && a.Status <= 299 {
		cbs = a.Plan.Op.Callbacks
	}
	ctx := context.Background()
	for _, h := range hooks {
		s.sendWebhook(ctx, doc, sess, h, WebhookBody(h, a.Created, faker), seq, 0, via)
	}
	for _, c := range calls {
		var data map[string]any
		for _, h := range c.Hooks {
			body := WebhookBody(h, a.Created, faker)
			if c.HasBody {
				if data == nil {
					data = scenario.TemplateData(a.Body, a.Header, a.Token, a.Seq)
				}
				v, err := scenario.RenderBody(c.Body, data, faker)
				if err != nil {
					s.c.Log.Error("webhook body template failed", "rule", a.Rule.Name, "webhook", h.Name, "error", err.Error())
					continue
				}
				body = v
			}
			s.sendWebhook(ctx, doc, sess, h, body, seq, c.Delay, via)
		}
	}
	for _, h := range cbs {
		s.sendCallback(a, doc, sess, h, seq)
	}
}

// sendWebhook sends a webhook to the session's subscriber, if it has one.
func (s *Sender) sendWebhook(ctx context.Context, doc Doc, sess Session, h *openapi.Hook, body any, trigger uint64, delay time.Duration, via net.Addr) {
	sub, ok, err := s.Subscriber(ctx, sess.Name, h.Name)
	if err != nil {
		s.c.Log.Error("webhook not sent: the subscribers could not be read", "webhook", h.Name, "error", err.Error())
		return
	}
	if !ok {
		return
	}
	s.SendTo(&Delivery{Doc: doc, Sess: sess, Hook: h, Url: sub.URL, Token: sub.Token, Body: body, trigger: trigger, delay: delay, Via: via})
}

// SendTo queues a webhook's delivery to its subscriber if the allow list
// lets it go there (a reload may have narrowed the list since the
// subscriber was set); otherwise the log and the journal say why.
func (s *Sender) SendTo(dv *Delivery) {
	if err := s.h.Document("").Hooks.Allow.Check("webhook", dv.Url); err != nil {
		s.c.Log.Warn("webhook refused", "webhook", dv.Hook.Name, "url", s.shown(dv), "reason", err.Error())
		s.note(dv, nil, err.Error())
		return
	}
	s.deliver(dv)
}

// CheckSubscriber returns why the admin API or Subscribe may not set a
// subscriber at raw, or nil.
func (s *Sender) CheckSubscriber(raw string) error {
	if err := CheckSubscriberURL(raw); err != nil {
		return err
	}
	return s.h.Document("").Hooks.Allow.Check("webhook", raw)
}

// sendCallback sends one of an operation's callbacks, to the URL its
// expression gives, if the allow list lets it.
func (s *Sender) sendCallback(a *event.Answered, doc Doc, sess Session, h *openapi.Hook, trigger uint64) {
	dv := &Delivery{Doc: doc, Sess: sess, Hook: h, trigger: trigger, Via: a.Via}
	target, err := ExpandURL(h.URL, a)
	if err == nil {
		err = doc.Hooks.Allow.Check("callback", target)
	}
	dv.Url = target
	if target == "" {
		dv.Url = h.URL
	}
	if err != nil {
		s.c.Log.Warn("callback refused", "callback", h.Name, "operation", a.Plan.Op.Name, "url", s.shown(dv), "reason", err.Error())
		s.note(dv, nil, err.Error())
		return
	}
	fake := a.Fake
	dv.Body = WebhookBody(h, a.Created, func() *gofakeit.Faker { return fake })
	s.deliver(dv)
}

// encodeHookBody returns a body's bytes and content type.
func encodeHookBody(h *openapi.Hook, body any) ([]byte, string) {
	if body == nil || h.Op.Body == nil {
		return nil, ""
	}
	return jsonx.Marshal(body), media.TypeOf(h.Op.Body.JSON())
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
func (s *Sender) Send(ctx context.Context, sess Session, name string, body any) (int, string, error) {
	doc := s.h.Declaring(name)
	hooks := doc.Hooks.ByName[name]
	sub, ok, err := s.Subscriber(ctx, sess.Name, name)
	if err != nil {
		return 0, "", err
	}
	if !ok {
		return 0, "", ErrNoSubscriber
	}
	bodies := make([]any, len(hooks))
	for i, h := range hooks {
		bodies[i] = body
		if body == nil {
			bodies[i] = WebhookBody(h, nil, s.h.Faker)
		}
		if vs := scenario.HookViolations(h, bodies[i]); len(vs) > 0 {
			return 0, "", problem.Invalid(problem.CodeSchema, problem.ClassRequest, "the body breaks the schema of %s: %s", h.Op.Name, journal.Quote(vs, len(vs)))
		}
	}
	for i, h := range hooks {
		s.SendTo(&Delivery{Doc: doc, Sess: sess, Hook: h, Url: sub.URL, Token: sub.Token, Body: bodies[i], Via: deliver.LocalAddr(ctx)})
	}
	return len(hooks), s.ShownURL(doc.Secrets, sub.URL), nil
}

// ShownURL is a webhook's or callback's URL as the admin API and the log
// show it: its credentials masked by sec, unless the mock keeps them
// clear.
func (s *Sender) ShownURL(sec *journal.Secrets, u string) string {
	if s.c.ClearCreds {
		return u
	}
	return sec.MaskURL(u)
}
