package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"text/template"
	"time"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// ScenarioHeader selects a scenario for one request, overriding the active
// one.
const ScenarioHeader = "X-Mock-Scenario"

// selectScript returns the scenario for a request: the one its
// X-Mock-Scenario header names, else the active one.
func (s *Server) selectScript(r *http.Request, sess *session) (*script, *problem) {
	name := r.Header.Get(ScenarioHeader)
	if name == "" {
		return sess.active.Load(), nil
	}
	sp := s.scripts[name]
	if sp == nil {
		return nil, invalid(CodeScenario, classRequest, "%s names no loaded scenario: %q; known: %s", ScenarioHeader, clip(name, 60), s.scriptNames())
	}
	return sp, nil
}

// match returns the first rule of sp that answers the request, with its
// 1-based count of answers, or nil.
func (sp *script) match(sess *session, op *openapi.Operation, r *http.Request, body any, token string) (*scriptRule, int64) {
	for _, rule := range sp.rules {
		if rule.ops != nil && !rule.ops[op] {
			continue
		}
		ok := true
		for i := range rule.headers {
			if h := &rule.headers[i]; !h.m.match(r.Header.Get(h.name)) || len(r.Header.Values(h.name)) == 0 {
				ok = false
				break
			}
		}
		if !ok || rule.token != nil && (token == "" || !rule.token.match(token)) || rule.hasBody && !matchPattern(rule.body, body) {
			continue
		}
		c := &sess.counts[rule.id]
		if m := c.matched.Add(1); rule.every > 1 && m%rule.every != 0 {
			continue
		}
		n := c.answered.Add(1)
		if rule.times > 0 && n > rule.times {
			continue
		}
		return rule, n
	}
	return nil, 0
}

// requestToken returns the bearer token of a request, else the value of
// the operation's first API key that is present.
func requestToken(op *openapi.Operation, r *http.Request) string {
	if scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimLeft(tok, " ")
	}
	for _, alt := range op.Security {
		for _, sch := range alt {
			if sch.Type != "apiKey" {
				continue
			}
			if v := apiKeyValue(r, sch); v != "" {
				return v
			}
		}
	}
	return ""
}

// answer answers a request with a scripted rule.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, sess *session, pl *plan, rule *scriptRule, seq int64, vals []string, body any, token string) {
	if rule.delay > 0 {
		t := time.NewTimer(rule.delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	status := rule.statusFor(pl)
	faker := gen.Faker(s.seed, s.seq.Add(1))
	data := map[string]any{"body": body, "headers": firstValues(r.Header), "token": token, "seq": seq}
	h := w.Header()
	for _, rh := range rule.respHeaders {
		v, err := rh.t.render(data, faker)
		if err != nil {
			s.writeProblem(w, pl, s.scriptFailure(rule, "header "+rh.name, err))
			return
		}
		h.Set(rh.name, fmt.Sprint(v))
	}
	if rule.fault != "" {
		s.fault(w, r, rule.fault, status, faker)
		return
	}
	resp := pl.op.Response(status)
	var media *openapi.Media
	if resp != nil {
		media = resp.JSON()
	}
	switch {
	case rule.hasRespBody:
		v, err := renderTree(rule.respBody, data, faker)
		if err != nil {
			s.writeProblem(w, pl, s.scriptFailure(rule, "body", err))
			return
		}
		if !rule.offContract {
			if err := checkAnswer(pl.op, status, v); err != nil {
				s.writeProblem(w, pl, s.scriptFailure(rule, "the rendered answer breaks the contract", err))
				return
			}
		}
		writeJSON(w, status, contentTypeOf(media), jsonx.Marshal(v))
	case status == pl.success:
		s.respond(w, r, sess, pl, vals, body)
	case media != nil && media.Schema != nil:
		v, p := generate(media.Schema, faker)
		if p != nil {
			s.writeProblem(w, pl, p)
			return
		}
		writeJSON(w, status, contentTypeOf(media), jsonx.Marshal(v))
	default:
		w.WriteHeader(status)
	}
}

// scriptFailure reports a rule that could not be answered as scripted.
func (s *Server) scriptFailure(rule *scriptRule, what string, err error) *problem {
	return internal("%s: %s: %v", rule.name, what, err)
}

func writeJSON(w http.ResponseWriter, status int, ct string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Length", itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

func firstValues(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		if len(v) > 0 {
			out[k] = v[0]
		}
	}
	return out
}

// fault breaks the answer as the rule says. Faults that take the
// connection over record the exchange before the client can see it end.
func (s *Server) fault(w http.ResponseWriter, r *http.Request, f Fault, status int, faker *gofakeit.Faker) {
	if f == FaultMalformedBody {
		writeJSON(w, status, "application/json", []byte(`{"name":"Monstera","tag":`))
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler) // HTTP/2: the stream is reset
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if rec, ok := w.(*recorder); ok {
		s.record(rec, r)
	}
	switch f {
	case FaultConnectionReset:
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.SetLinger(0) // close sends RST
		}
	case FaultRandomDataThenClose:
		junk := make([]byte, 64)
		for i := range junk {
			junk[i] = byte(faker.Uint8())
		}
		junk[0] = 0xff // never the start of a status line
		conn.Write(junk)
	}
	conn.Close()
}

// render executes a value template for one request.
func (vt *valueTemplate) render(data map[string]any, faker *gofakeit.Faker) (any, error) {
	t, err := vt.t.Clone()
	if err != nil {
		return nil, err
	}
	t.Funcs(template.FuncMap{"fake": func(name string) (string, error) {
		info := gofakeit.GetFuncLookup(strings.ToLower(name))
		if info == nil {
			return "", fmt.Errorf("gofakeit has no function %q", name)
		}
		v, err := info.Generate(faker.Rand, &gofakeit.MapParams{}, info)
		if err != nil {
			return "", err
		}
		return fmt.Sprint(v), nil
	}})
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return nil, err
	}
	out := buf.String()
	if vt.typed {
		switch {
		case out == "true":
			return true, nil
		case out == "false":
			return false, nil
		case out == "null":
			return nil, nil
		case isJSONNumber(out):
			return json.Number(out), nil
		}
	}
	return out, nil
}

// renderTree renders every template of an answer body.
func renderTree(v any, data map[string]any, faker *gofakeit.Faker) (any, error) {
	switch x := v.(type) {
	case *valueTemplate:
		return x.render(data, faker)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := renderTree(e, data, faker)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := renderTree(e, data, faker)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// isJSONNumber reports whether s is a JSON number literal.
func isJSONNumber(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	if s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	var v any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&v); err != nil || d.More() {
		return false
	}
	n, ok := v.(json.Number)
	return ok && string(n) == s
}
