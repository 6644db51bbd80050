package pipeline

import (
	"encoding/json"
	"strconv"

	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// refuse answers x with p in the error shape of its operation (of the
// route's first operation for a 405, of the document for a 404), and
// notes p for the journal. It is the one place problems become answers.
func (s *Engine) refuse(x *exchange, p *problem.Problem) {
	x.problem = p
	pl := x.Plan
	if pl == nil && x.route != nil {
		pl = x.Sv.Plans.Any(x.route)
	}
	status := p.Status
	if status == 0 {
		status = pl.Status[p.Class]
	}
	shape := x.Sv.fallbackShape
	if pl != nil {
		shape = pl.ErrorShape(status)
	}
	h := x.W.Header()
	if p.Header[0] != "" {
		h.Set(p.Header[0], p.Header[1])
	}
	if len(p.Challenges) > 0 {
		h["Www-Authenticate"] = p.Challenges
	}
	if pl != nil && pl.ErrHeaders != nil {
		for _, rh := range pl.ErrHeaders[pl.Op.Response(status)] {
			if len(h.Values(rh.Name)) == 0 {
				h.Set(rh.Name, rh.Value(&s.Answerer, &x.Turn))
			}
		}
	}
	if x.Plan != nil {
		if resp := x.Plan.Op.Response(status); resp != nil && resp.JSON() == nil {
			// The document declares this answer without a JSON body: none,
			// or one of another media type.
			if len(resp.Content) == 0 {
				h.Set("Content-Length", "0")
				x.W.WriteHeader(status)
			} else {
				ct, body := foreignError(resp.Content[0], status, p)
				writeJSON(&x.W, status, ct, body, x.flushes(status))
			}
			s.logInternal(status, p)
			return
		}
	}
	writeJSON(&x.W, status, shape.ContentType, shape.Body(status, p), x.flushes(status))
	s.logInternal(status, p)
}

// foreignError writes an error answer in a declared media type that is
// not JSON: the message as text where the schema is a string or there is
// none, else the usual error object written in that type.
func foreignError(m *openapi.Media, status int, p *problem.Problem) (string, []byte) {
	ct := media.ContentType(m.Type, "")
	if m.Schema == nil || m.Schema.Is("string") || media.KindOf(ct) == media.Text {
		return ct, []byte(p.Text())
	}
	v := map[string]any{"error": json.Number(strconv.Itoa(int(p.Code))), "message": p.Text()}
	b, err := media.Encode(ct, v, m.Schema)
	if err != nil {
		return ct, media.Sample(ct, m.Schema)
	}
	return ct, b
}

// logInternal logs an internal error answer.
func (s *Engine) logInternal(status int, p *problem.Problem) {
	if status >= 500 {
		s.Log.Error("answered with an internal error", "status", status, "message", p.Text())
	}
}
