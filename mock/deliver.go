package mock

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// delivery is one webhook or callback to send, and what its journal
// entries say of it.
type delivery struct {
	sess    *session.Session
	hook    *openapi.Hook
	url     string
	token   string
	body    any // nil: no body
	trigger uint64
	via     net.Addr // the listener the request that sent it came in on; nil when unknown
	delay   time.Duration
}

// newSender returns what sends the Server's webhooks and callbacks, as
// opts say. Every connection is checked at connect time, on the address
// it is made to: never one of the mock's listeners, and loopback,
// link-local and metadata addresses only as the allow list in force
// says, whatever name led there.
func (s *Server) newSender(opts Options) *deliver.Sender {
	return deliver.New(s.senderConfig(opts))
}

// senderConfig is newSender's configuration.
func (s *Server) senderConfig(opts Options) deliver.Config {
	retries := opts.Webhooks.Retries
	switch {
	case retries == 0:
		retries = DefaultWebhookRetries
	case retries < 0:
		retries = 0
	}
	return deliver.Config{
		Timeout: opts.Webhooks.Timeout, Retries: retries, Backoff: opts.Webhooks.Backoff, Queue: opts.Webhooks.Queue,
		UserAgent: "plantmock/" + Version,
		Refuse: func(ctx context.Context, ap netip.AddrPort) error {
			if err := s.listeners.check(ap, arrivedOn(ctx)); err != nil {
				return err
			}
			return s.served().hooks.allow.Address(ap)
		},
	}
}

// deliver queues a delivery whose URL the allow list let through, if
// its body fits the schema the document declares for it; otherwise the
// log and the journal say why.
func (s *Server) deliver(dv *delivery) {
	if vs := scenario.HookViolations(dv.hook, dv.body); len(vs) > 0 {
		msg := "not sent: the body breaks the schema the document declares for it"
		s.log.Error("webhook "+msg, "webhook", dv.hook.Op.Name, "violations", journal.Quote(vs, len(vs)))
		s.note(dv, vs, msg)
		return
	}
	body, ct := encodeHookBody(dv.hook, dv.body)
	header := declaredHeaders(dv.hook.Op)
	if ct != "" {
		if header == nil {
			header = http.Header{}
		}
		header.Set("Content-Type", ct)
	}
	d := deliver.Delivery{Op: dv.hook.Op, URL: dv.url, Token: dv.token, Body: body, Header: header, Via: dv.via, Delay: dv.delay}
	err := s.deliveries.Send(d, func(a deliver.Attempt) { s.attempted(dv, body, a) })
	switch err := err.(type) {
	case nil:
	case *deliver.QueueFullError:
		s.log.Error("webhook queue full: delivery dropped", "webhook", dv.hook.Op.Name, "url", clip(s.shownURL(s.served().secrets, dv.url), 200),
			"queue", err.Queue, "trigger", dv.trigger)
	default:
		s.log.Warn("webhook not sent: the mock is shutting down", "webhook", dv.hook.Op.Name, "url", clip(s.shownURL(s.served().secrets, dv.url), 200))
	}
}

// attempted records one attempt of a delivery of body.
func (s *Server) attempted(dv *delivery, body []byte, a deliver.Attempt) {
	op := dv.hook.Op
	e := journal.Entry{
		Time: a.Time, Duration: a.Duration, Direction: "outbound", Method: op.Method, Path: a.Path, Query: a.Query,
		URL: dv.url, Header: a.Header, Body: body, Operation: op.Name,
		Session: dv.sess.Name, Trigger: dv.trigger, Attempt: a.N,
		Status: a.Status, Response: a.Response, Error: a.Error, Notes: a.Notes,
		Violations: journal.Violations(a.Violations, "response"),
	}
	s.recordOutbound(dv.sess, e)
	if a.GaveUp {
		s.log.Warn("webhook delivery failed: no retries left", "webhook", op.Name, "url", clip(s.shownURL(s.served().secrets, dv.url), 200), "attempts", a.N)
	}
}

// note records a delivery that was not sent.
func (s *Server) note(dv *delivery, vs []journal.Violation, why string) {
	s.recordOutbound(dv.sess, journal.Entry{
		Time: time.Now(), Direction: "outbound", Method: dv.hook.Op.Method, URL: dv.url, Operation: dv.hook.Op.Name,
		Session: dv.sess.Name, Trigger: dv.trigger, Error: why, Violations: vs,
	})
}

// recordOutbound tells the emitter's listeners of an attempt of a
// delivery of the session's (see listen).
func (s *Server) recordOutbound(sess *session.Session, e journal.Entry) {
	if e.Path == "" {
		if u, err := url.Parse(e.URL); err == nil {
			e.Path = u.Path
		}
	}
	if !s.clearCreds {
		s.served().secrets.Mask(&e)
	}
	journal.ClipEntry(&e, len(e.Body), len(e.Response), len(e.Violations))
	s.emitter.emitAttempt(&attempt{e: e, sess: sess})
}

// closeDeliveries stops taking deliveries and waits for those under way
// until ctx ends, logging how many it gave up.
func (s *Server) closeDeliveries(ctx context.Context) {
	if n := s.deliveries.Close(ctx); n > 0 {
		s.log.Warn("shutdown: webhook deliveries dropped", "dropped", n)
	}
}

// declaredHeaders returns a value for each header parameter the hook
// requires (a signature, an event name), made from its schema as the
// required headers of answers are.
func declaredHeaders(op *openapi.Operation) http.Header {
	var h http.Header
	for _, p := range op.Params {
		if p.In != "header" || !p.Required || p.Schema == nil {
			continue
		}
		if h == nil {
			h = http.Header{}
		}
		h.Set(p.Name, schemaHeaderValue(p.Schema))
	}
	return h
}
