package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"sort"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// judgePositive judges the answer to c, a valid request: exercise.Judge's
// rules (no 5xx, status, Content-Type, body and headers as declared),
// no writeOnly property returned, and no 400 or 422, the statuses that
// say a request is invalid, where the operation declares a status for
// success (other refusals, a 404 for an identifier that does not exist
// or a 409, may be right; and an operation that declares only refusals
// can answer nothing else), nor for a create that carries an identifier
// an earlier create of the run took (see taken). A 5xx is one failure, not also an
// undeclared status.
func (r *runner) judgePositive(c *exercise.Call) func(*sent) []*Failure {
	return func(s *sent) []*Failure {
		out := r.judged(c.Op, s)
		if code := s.resp.StatusCode; (code == http.StatusBadRequest || code == http.StatusUnprocessableEntity) && succeeds(c.Op) && !r.taken.again(c) {
			out = append(out, &Failure{Rule: "valid input refused", Text: fmt.Sprintf("status %d to a request the document calls valid: %s", code, oneLine(string(s.answer), 200))})
		}
		return append(out, leaks(c.Op, c, s)...)
	}
}

// leaks lists the writeOnly properties an answer of op returns: those
// its own schema declares writeOnly, and those the schema of c's body
// does, sent (by op's request, or the create before it) and answered
// with the same value.
func leaks(op *openapi.Operation, c *exercise.Call, s *sent) []*Failure {
	code := s.resp.StatusCode
	resp := op.Response(code)
	if code < 200 || code > 299 || resp == nil {
		return nil
	}
	mt, _, _ := mime.ParseMediaType(s.resp.Header.Get("Content-Type"))
	if !openapi.IsJSON(mt) {
		return nil
	}
	got, ok := decode(s.answer).(map[string]any)
	if !ok {
		return nil
	}
	found := map[string]string{} // name -> schema pointer
	if m := resp.JSON(); m != nil && m.Schema != nil && m.Schema.HasWriteOnly() {
		for _, p := range m.Schema.Properties {
			if _, has := got[p.Name]; has && p.Schema != nil && p.Schema.WriteOnly {
				found[p.Name] = p.Schema.Where() + "/writeOnly"
			}
		}
		if len(found) == 0 && !reflect.DeepEqual(m.Schema.WithoutWriteOnly(got), any(got)) {
			found[""] = m.Schema.Where()
		}
	}
	if sentObj, ok := c.Body.(map[string]any); ok && c.Media != nil && c.Media.Schema != nil {
		for _, p := range c.Media.Schema.Properties {
			v, has := got[p.Name]
			if has && p.Schema != nil && p.Schema.WriteOnly && same(v, sentObj[p.Name]) {
				if _, dup := found[p.Name]; !dup {
					found[p.Name] = p.Schema.Where() + "/writeOnly"
				}
			}
		}
	}
	names := make([]string, 0, len(found))
	for n := range found {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []*Failure
	for _, n := range names {
		text := fmt.Sprintf("status %d: the answer returns the writeOnly property %s", code, n)
		if n == "" {
			text = fmt.Sprintf("status %d: the answer returns a writeOnly property", code)
		}
		out = append(out, &Failure{Rule: "writeOnly", Text: text, Schema: found[n]})
	}
	return out
}

// judgeNegative judges the answer to an invalid request: it must be a
// 4xx; where the operation declares 400, 422, 4XX or default, a declared
// one, in its declared shape. why is what is wrong with the request, and
// where the rule it breaks is. A 401 or 403 to a request without
// credentials, or with malformed ones (credentials true), need not be
// declared.
func (r *runner) judgeNegative(op *openapi.Operation, why openapi.Violation, credentials bool) func(*sent) []*Failure {
	return func(s *sent) []*Failure {
		code := s.resp.StatusCode
		switch {
		case code >= 500:
			return []*Failure{{Rule: "5xx", Text: fmt.Sprintf("a 5xx answer to an invalid request (%s): %d %s", why, code, oneLine(string(s.answer), 200)), Schema: why.Schema}}
		case code < 400:
			return []*Failure{{Rule: "accepted invalid input", Text: fmt.Sprintf("status %d: the request was not refused, but %s", code, why), Schema: why.Schema}}
		}
		if op.Response(code) == nil {
			if credentials && (code == http.StatusUnauthorized || code == http.StatusForbidden) || !refuses(op) {
				return nil
			}
			return []*Failure{{Rule: "error status", Text: fmt.Sprintf("status %d is not declared; %s declares %s for refusals", code, op.Name, refusals(op))}}
		}
		var out []*Failure
		for _, p := range r.keepable(exercise.Judge(r.doc, op, s.resp, s.answer)) {
			rule := "error shape"
			if p.Kind == "header" {
				rule = p.Kind
			}
			out = append(out, &Failure{Rule: rule, Text: p.Text, Schema: p.Schema})
		}
		return out
	}
}

// keepable returns probs but those that break a rule no answer can keep
// (openapi.Document.Impossible): the document's problem, not the
// service's. Each such rule met is listed once in the report's
// Impossible instead.
func (r *runner) keepable(probs []exercise.Problem) []exercise.Problem {
	return slices.DeleteFunc(probs, func(p exercise.Problem) bool {
		why, ok := r.doc.Impossible[p.Schema]
		if ok && !slices.Contains(r.rep.impossible, p.Schema) {
			r.rep.impossible = append(r.rep.impossible, p.Schema)
			r.rep.Impossible = append(r.rep.Impossible, p.Schema+": "+why+", so no answer can keep it: answers are not judged by it")
		}
		return ok
	})
}

// succeeds reports whether op declares a status under 400, exactly or
// by range: an answer a valid request can get other than a refusal.
func succeeds(op *openapi.Operation) bool {
	return slices.ContainsFunc(op.Responses, func(r *openapi.Response) bool {
		return r.Code > 0 && r.Code < 400 || len(r.Status) == 3 && r.Status[0] >= '1' && r.Status[0] <= '3' && (r.Status[1:] == "XX" || r.Status[1:] == "xx")
	})
}

// refuses reports whether op declares a status for refusing a request:
// 400, 422, 4XX or default.
func refuses(op *openapi.Operation) bool { return refusals(op) != "" }

// refusals lists the statuses op declares for refusing a request.
func refusals(op *openapi.Operation) string {
	var out []string
	for _, r := range op.Responses {
		if r.Code == 400 || r.Code == 422 || r.Status == "4XX" || r.Status == "4xx" {
			out = append(out, r.Status)
		}
	}
	if op.Default != nil {
		out = append(out, "default")
	}
	if len(out) == 0 {
		return ""
	}
	return fmt.Sprint(out)
}

// decode reads a JSON value with numbers as json.Number; nil when the
// bytes are not JSON.
func decode(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// same reports whether two JSON values are equal, numbers by value.
func same(a, b any) bool {
	return reflect.DeepEqual(normal(a), normal(b))
}

// normal turns a JSON value's numbers into float64s, for comparing.
func normal(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return x.String()
		}
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normal(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normal(e)
		}
		return out
	case int:
		return float64(x)
	case int64:
		return float64(x)
	}
	return v
}
