package pipeline

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http/httputil"
	"net/url"

	"github.com/plantmock/plantmock/mock/internal/answer"
)

// NewUpstream checks Options.Proxy and builds the forwarder.
func (s *Engine) NewUpstream(po ProxyOptions, sv *Served) error {
	if po.URL == "" {
		if po.Record != "" {
			return &ProxyError{Err: errors.New("record needs proxy: it records what the real service answers")}
		}
		return nil
	}
	u, err := url.Parse(po.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &ProxyError{Err: &OptionError{Name: "proxy", Err: fmt.Errorf("%q is not an http:// or https:// URL", Clip(po.URL, 100))}}
	}
	up := &upstream{target: u, timeout: po.Timeout}
	if len(po.Only) > 0 && len(po.MockOnly) > 0 {
		return &ProxyError{Err: &OptionError{Name: "mock-only", Err: errors.New("not with proxy-only: give one or the other")}}
	}
	named := func(flag string, names []string) (map[string]bool, error) {
		ops := map[string]bool{}
		for _, n := range names {
			op := sv.operation(n)
			if op == nil {
				return nil, &ProxyError{Err: &OptionError{Name: flag, Err: fmt.Errorf("operation %q is not in the document (write it as METHOD /path/{template})", Clip(n, 100))}}
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
		return &ProxyError{Err: &OptionError{Name: "proxy-invalid", Err: fmt.Errorf("must be forward or refuse, not %q", Clip(po.Invalid, 20))}}
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

// SetPrefer reads Options.Prefer into PreferDefault; its error is an
// OptionError naming the flag.
func (s *Engine) SetPrefer(text string) error {
	d, err := answer.ParsePreferDefault(text)
	if err != nil {
		return &OptionError{Name: "prefer", Err: err}
	}
	s.PreferDefault = d
	return nil
}
