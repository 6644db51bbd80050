package verify

import (
	"fmt"
	"maps"
	"mime"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// The strengths of a problem found: Fail where the document requires
// what the service did not do, Advice where the rule broken is an
// annotation, a SHOULD, or a choice the document leaves to the service.
// Advice never fails a run.
const (
	Fail   = "fail"
	Advice = "advice"
)

// Why a problem is advice, by the rule it breaks (see docs/verify.md,
// "Fail or advice").
const (
	whyFormat          = "format is an annotation in JSON Schema unless the document's dialect asserts it (the format-assertion vocabulary); give --assert-formats to hold the service to formats"
	whyWriteOnly       = "a writeOnly property SHOULD NOT be sent in a response (OpenAPI Schema Object): a SHOULD, not a MUST"
	whyReadOnly        = "the request carries the readOnly property %s, which a client SHOULD NOT send: a service may refuse it"
	whyDeprecatedOp    = "the operation is deprecated: a service may already refuse it"
	whyDeprecatedInput = "the request carries the deprecated %s: a service may already refuse it"
	whyReference       = "the body's %s names an item made up here, which no operation was asked to make first: a service may refuse a reference to an item that does not exist"
	whyUndeclaredType  = "neither OpenAPI nor RFC 9110 obliges a service to refuse a body in a media type the operation does not declare: the document lists the media types a client may send, not those the service must refuse, and 415 (RFC 9110 section 15.5.16) is for a media type the service does not support, which one that reads this body does"
)

// weigh sets the strength of each problem of an answer to a request
// of op (s is the request and its answer), why where it is advice (a
// problem whose judge gave a why already is advice), and
// the line of the document where its rule is (else the operation).
func (r *runner) weigh(op *openapi.Operation, s *sent, fs []*Failure) {
	for _, f := range fs {
		f.Strength = Fail
		if f.Schema != "" {
			f.Line = r.places.line(f.Schema)
		}
		if f.Line == 0 {
			f.Line = r.places.line(opPointer(op))
		}
		if f.Why != "" {
			f.Strength = Advice // the judge said why
		} else if why := r.advice(op, s, f); why != "" {
			f.Strength, f.Why = Advice, why
		}
	}
}

// advice says why f is advice, "" when it is a failure.
func (r *runner) advice(op *openapi.Operation, s *sent, f *Failure) string {
	switch {
	case f.Rule == "writeOnly":
		return whyWriteOnly
	case strings.HasSuffix(f.Schema, "/format") && !r.assertFormats:
		return whyFormat
	case f.Rule == "accepted invalid input" && s != nil && mediaType(s.req) == undeclaredType:
		return whyUndeclaredType
	}
	code := statusOf(s)
	refused := f.Rule == "valid input refused" || f.Rule == "state" && code >= 400
	if r.deprecatedOp(op) && (refused || f.Rule == "status" && code >= 400 && code < 500) {
		return whyDeprecatedOp
	}
	if !refused || s == nil {
		return ""
	}
	ro, dep := r.carried(op, s)
	switch {
	case ro != "":
		return fmt.Sprintf(whyReadOnly, ro)
	case dep != "":
		return fmt.Sprintf(whyDeprecatedInput, dep)
	}
	if ref := r.madeUpReference(s); ref != "" {
		return fmt.Sprintf(whyReference, ref)
	}
	return ""
}

// madeUpReference returns a top-level property of s's JSON body that
// names another item (see sequence.fields) by an identifier no
// sequence made, "" for none.
func (r *runner) madeUpReference(s *sent) string {
	obj, ok := decode(s.body).(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range slices.Sorted(maps.Keys(r.refs)) {
		if v, has := obj[k]; has && !r.made[fmt.Sprint(v)] {
			return k
		}
	}
	return ""
}

// opPointer is where op is in the document.
func opPointer(op *openapi.Operation) string {
	return "#/paths/" + openapi.PointerToken(op.Path) + "/" + strings.ToLower(op.Method)
}

// deprecatedOp reports whether the document marks op deprecated.
func (r *runner) deprecatedOp(op *openapi.Operation) bool {
	return r.places.flag(opPointer(op), "deprecated")
}

// carried returns a readOnly property the request of s carries in its
// body, in any media type exercise.ReadBody reads (JSON, a form,
// multipart, XML), by its path in the body, and a deprecated parameter
// or body property it carries ("parameter query.sort", "property
// tags[0].old"); "" for none.
func (r *runner) carried(op *openapi.Operation, s *sent) (readOnly, deprecated string) {
	for _, k := range r.deprecatedParams(op) {
		in, name, _ := strings.Cut(k, ".")
		if in == "path" || valueAt(s.req, in, name) != "" {
			deprecated = "parameter " + k
			break
		}
	}
	if op.Body == nil || len(s.body) == 0 {
		return readOnly, deprecated
	}
	ct := s.req.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	m := op.Body.Media(mt)
	if m == nil || m.Schema == nil {
		return readOnly, deprecated
	}
	body, ok := exercise.ReadBody(m, s.body, ct)
	if !ok {
		return readOnly, deprecated
	}
	var walk func(v any, sc *openapi.Schema, at string, depth int)
	walk = func(v any, sc *openapi.Schema, at string, depth int) {
		if sc == nil || depth > 16 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			names := make([]string, 0, len(x))
			for k := range x {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				ps := sc.Property(k)
				if ps == nil {
					continue
				}
				here := strings.TrimPrefix(at+"."+k, ".")
				if ps.ReadOnly && readOnly == "" {
					readOnly = here
				}
				if deprecated == "" && r.places.flag(ps.Where(), "deprecated") {
					deprecated = "property " + here
				}
				walk(x[k], ps, here, depth+1)
			}
		case []any:
			for i, e := range x {
				walk(e, sc.Items, fmt.Sprintf("%s[%d]", at, i), depth+1)
			}
		}
	}
	walk(body, m.Schema, "", 0)
	return readOnly, deprecated
}

// deprecatedParams are the parameters of op the document marks
// deprecated, as "in.name".
func (r *runner) deprecatedParams(op *openapi.Operation) []string {
	var out []string
	for _, at := range []string{opPointer(op) + "/parameters", strings.TrimSuffix(opPointer(op), "/"+strings.ToLower(op.Method)) + "/parameters"} {
		list, ok := r.places.walk(at, true)
		if !ok {
			continue
		}
		for i := range list.Content {
			ptr := fmt.Sprintf("%s/%d", at, i)
			n, _ := r.places.walk(ptr, true)
			n = r.places.deref(n)
			name, in := get(n, "name"), get(n, "in")
			if name != nil && in != nil && r.places.flag(ptr, "deprecated") {
				out = append(out, in.Value+"."+name.Value)
			}
		}
	}
	return out
}

// mediaType is the media type of req's Content-Type, "" for none.
func mediaType(req *http.Request) string {
	if ct := req.Header.Get("Content-Type"); ct != "" {
		return bareType(ct)
	}
	return ""
}

// statusOf is the status of s's answer, 0 for none.
func statusOf(s *sent) int {
	if s == nil || s.resp == nil {
		return 0
	}
	return s.resp.StatusCode
}
