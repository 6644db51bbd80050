package pipeline

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http/httputil"
	"net/url"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// NewUpstream checks Options.Proxy and builds the forwarder.
func (s *Engine) NewUpstream(po ProxyOptions, sv *Served) error {
	if po.URL == "" {
		if po.Record != "" {
			return &ProxyError{errors.New("record needs proxy: it records what the real service answers")}
		}
		return nil
	}
	u, err := url.Parse(po.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &ProxyError{&OptionError{Name: "proxy", Err: fmt.Errorf("%q is not an http:// or https:// URL", Clip(po.URL, 100))}}
	}
	up := &upstream{target: u, timeout: po.Timeout}
	if len(po.Only) > 0 && len(po.MockOnly) > 0 {
		return &ProxyError{&OptionError{Name: "mock-only", Err: errors.New("not with proxy-only: give one or the other")}}
	}
	named := func(flag string, names []string) (map[string]bool, error) {
		ops := map[string]bool{}
		for _, n := range names {
			op := sv.operation(n)
			if op == nil {
				return nil, &ProxyError{&OptionError{Name: flag, Err: fmt.Errorf("operation %q is not in the document (write it as METHOD /path/{template})", Clip(n, 100))}}
			}
			ops[op.Name] = true
		}
		return ops, nil
	}
	if len(po.Only) > 0 {
		if up.only, err = named("proxy-only", po.Only); err != nil {
			return err
		}
	}
	if len(po.MockOnly) > 0 {
		if up.mocked, err = named("mock-only", po.MockOnly); err != nil {
			return err
		}
	}
	switch po.Invalid {
	case "", "forward":
	case "refuse":
		up.refuse = true
	default:
		return &ProxyError{&OptionError{Name: "proxy-invalid", Err: fmt.Errorf("must be forward or refuse, not %q", Clip(po.Invalid, 20))}}
	}
	up.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.SetXForwarded()
		},
		Transport:      s.timed(s.upstreamTransport()),
		ModifyResponse: s.checkUpstream,
		ErrorHandler:   s.upstreamFailed,
		ErrorLog:       slog.NewLogLogger(s.Log.Handler(), slog.LevelWarn),
	}
	s.upstream = up
	return nil
}

// NewHookSet checks the webhooks' subscribers of c against the document and finds the
// webhooks creates send: those whose body schema is the create's body
// schema or its collection's item schema (the same schema, by reference).
func (sv *Served) NewHookSet(subs map[string]session.Subscriber, allow []string) error {
	hs := &sv.Hooks
	hs.ByName = map[string][]*openapi.Hook{}
	for _, h := range sv.Doc.Webhooks {
		hs.ByName[h.Name] = append(hs.ByName[h.Name], h)
	}
	hs.Defaults = map[string]session.Subscriber{}
	for name, sub := range subs {
		if hs.ByName[name] == nil {
			return &WebhookError{&OptionError{Name: "webhook", Err: fmt.Errorf("%q is not a webhook of the document (declared: %s)", Clip(name, 60), sv.Doc.WebhookNames())}}
		}
		if err := CheckSubscriberURL(sub.URL); err != nil {
			return &WebhookError{&OptionError{Name: "webhook", Err: fmt.Errorf("%s: %v", Clip(name, 60), err)}}
		}
		hs.Defaults[name] = sub
	}
	urls := make([]string, 0, len(hs.Defaults))
	for _, sub := range hs.Defaults {
		urls = append(urls, sub.URL)
	}
	list, err := deliver.NewAllowList(allow, urls)
	if err != nil {
		return &WebhookError{&OptionError{Name: "webhook-allow", Err: err}}
	}
	hs.Allow = list
	for _, op := range sv.Doc.Operations {
		hs.callbacks = hs.callbacks || len(op.Callbacks) > 0
	}
	hs.OnCreate = map[*answer.Plan][]*openapi.Hook{}
	for _, pl := range sv.Plans {
		if pl.Do != answer.Create || pl.Col == nil {
			continue
		}
		var body *openapi.Schema
		if m := pl.Op.Body.JSON(); pl.Op.Body != nil && m != nil {
			body = m.Schema
		}
		for _, h := range sv.Doc.Webhooks {
			if sc := scenario.HookSchema(h); sc != nil && (sc == body || sc == pl.Col.Schema) {
				hs.OnCreate[pl] = append(hs.OnCreate[pl], h)
			}
		}
	}
	return nil
}
