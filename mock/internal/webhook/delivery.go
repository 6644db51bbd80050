package webhook

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"time"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// Delivery is one webhook or callback to send, and what its journal
// entries say of it.
type Delivery struct {
	Doc     Doc // the document it is of
	Sess    Session
	Hook    *openapi.Hook
	Url     string
	Token   string
	Body    any // nil: no body
	trigger uint64
	Via     net.Addr // the listener the request that sent it came in on; nil when unknown
	delay   time.Duration
}

// deliver queues a delivery whose URL the allow list let through, if
// its body fits the schema the document declares for it; otherwise the
// log and the journal say why.
func (s *Sender) deliver(dv *Delivery) {
	if vs := scenario.HookViolations(dv.Hook, dv.Body); len(vs) > 0 {
		msg := "not sent: the body breaks the schema the document declares for it"
		s.c.Log.Error("webhook "+msg, "webhook", dv.Hook.Op.Name, "violations", journal.Quote(vs, len(vs)))
		s.note(dv, vs, msg)
		return
	}
	body, ct := encodeHookBody(dv.Hook, dv.Body)
	header := declaredHeaders(dv.Hook.Op)
	if ct != "" {
		if header == nil {
			header = http.Header{}
		}
		header.Set("Content-Type", ct)
	}
	d := deliver.Delivery{Op: dv.Hook.Op, URL: dv.Url, Token: dv.Token, Body: body, Header: header, Via: dv.Via, Delay: dv.delay}
	err := s.Deliveries.Send(d, func(a deliver.Attempt) { s.attempted(dv, body, a) })
	switch err := err.(type) {
	case nil:
	case *deliver.QueueFullError:
		s.c.Log.Error("webhook queue full: delivery dropped", "webhook", dv.Hook.Op.Name, "url", s.shown(dv),
			"queue", err.Queue, "trigger", dv.trigger)
	default:
		s.c.Log.Warn("webhook not sent: the mock is shutting down", "webhook", dv.Hook.Op.Name, "url", s.shown(dv))
	}
}

// attempted records one attempt of a delivery of body.
func (s *Sender) attempted(dv *Delivery, body []byte, a deliver.Attempt) {
	op := dv.Hook.Op
	e := journal.Entry{
		Time: a.Time, Duration: a.Duration, Direction: "outbound", Method: op.Method, Path: a.Path, Query: a.Query,
		URL: dv.Url, Header: a.Header, Body: body, Operation: op.Name,
		Session: dv.Sess.Name, Trigger: dv.trigger, Attempt: a.N,
		Status: a.Status, Response: a.Response, Error: a.Error, Notes: a.Notes,
		Violations: journal.Violations(a.Violations, "response"),
	}
	s.recordOutbound(dv, e)
	if a.GaveUp {
		s.c.Log.Warn("webhook delivery failed: no retries left", "webhook", op.Name, "url", s.shown(dv), "attempts", a.N)
	}
}

// note records a delivery that was not sent.
func (s *Sender) note(dv *Delivery, vs []journal.Violation, why string) {
	s.recordOutbound(dv, journal.Entry{
		Time: time.Now(), Direction: "outbound", Method: dv.Hook.Op.Method, URL: dv.Url, Operation: dv.Hook.Op.Name,
		Session: dv.Sess.Name, Trigger: dv.trigger, Error: why, Violations: vs,
	})
}

// recordOutbound tells the emitter's listeners of an attempt of a
// delivery, its entry in the journal of the delivery's session and
// naming its document (see listen).
func (s *Sender) recordOutbound(dv *Delivery, e journal.Entry) {
	e.Document = dv.Doc.Name
	if e.Path == "" {
		if u, err := url.Parse(e.URL); err == nil {
			e.Path = u.Path
		}
	}
	if !s.c.ClearCreds {
		dv.Doc.Secrets.Mask(&e)
	}
	journal.ClipEntry(&e, len(e.Body), len(e.Response), len(e.Violations))
	s.h.Attempted(&journal.Attempt{E: e, Journal: dv.Sess.Journal})
}

// CloseDeliveries waits until ctx ends for what answers trigger to be
// queued (AfterAnswer), then stops taking deliveries and waits for those
// under way until ctx ends, logging how many it gave up.
func (s *Sender) CloseDeliveries(ctx context.Context) {
	queued := make(chan struct{})
	go func() {
		s.sending.Wait()
		close(queued)
	}()
	select {
	case <-queued:
	case <-ctx.Done():
	}
	if n := s.Deliveries.Close(ctx); n > 0 {
		s.c.Log.Warn("shutdown: webhook deliveries dropped", "dropped", n)
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
		h.Set(p.Name, answer.SchemaHeaderValue(p.Schema))
	}
	return h
}

// shown is dv's URL as the log shows it (see ShownURL), clipped.
func (s *Sender) shown(dv *Delivery) string {
	return cliptext.To(s.ShownURL(dv.Doc.Secrets, dv.Url), 200)
}
