package mock

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// respond answers a valid request according to the operation's behaviour.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, sess *session, pl *plan, vals []string, body any) {
	var p *problem
	st := &sess.store
	switch pl.do {
	case create:
		p = s.create(w, st, pl, vals, body)
	case list:
		p = s.list(w, r, st, pl, vals)
	case read, remove:
		p = s.readOrRemove(w, st, pl, vals)
	case replace:
		p = s.replace(w, st, pl, vals, body)
	case merge:
		p = s.merge(w, st, pl, vals, body)
	default:
		p = s.canned(w, pl, nil)
	}
	if p != nil {
		s.writeProblem(w, pl, p)
	}
}

// colKey returns the concrete path of the collection a request addresses:
// the template with the parameter values filled in, without the item's
// identifier.
func colKey(pl *plan, vals []string) string {
	if !strings.Contains(pl.col.path, "{") {
		return pl.col.path
	}
	var b strings.Builder
	i := 0
	for _, seg := range strings.Split(pl.col.path, "/")[1:] {
		b.WriteByte('/')
		if strings.HasPrefix(seg, "{") && i < len(vals) {
			b.WriteString(url.PathEscape(vals[i]))
			i++
			continue
		}
		b.WriteString(seg)
	}
	return b.String()
}

// key returns the store key of an identifier value: integers in canonical
// form, strings as they are.
func key(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		return string(x)
	}
	return string(jsonx.Marshal(v))
}

// pathKey returns the store key for the identifier in the request path.
func pathKey(pl *plan, vals []string) string {
	id := vals[len(vals)-1]
	if pl.col.idSchema.Is("integer") {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
	}
	return id
}

// typedID returns a store key as a JSON value of the identifier's type.
func typedID(pl *plan, k string) any {
	if pl.col.idSchema.Is("integer") {
		return json.Number(k)
	}
	return k
}

func describeID(pl *plan, k string) string {
	name := pl.col.idProp
	if name == "" {
		name = "id"
	}
	return name + " " + string(jsonx.Marshal(typedID(pl, k)))
}

func notFound(pl *plan, col, k string) *problem {
	return invalid(CodeNotFound, classNotFound, "no resource with %s in %s", describeID(pl, k), col)
}

func (s *Server) create(w http.ResponseWriter, st *store.Store, pl *plan, vals []string, body any) *problem {
	obj, _ := body.(map[string]any)
	if obj == nil {
		return invalid(CodeSchema, classSchema, "request body must be a JSON object")
	}
	col := colKey(pl, vals)
	if s.resources.Load() >= s.maxResources {
		return s.full()
	}
	applyDefaults(obj, pl.col.schema)
	if pl.col.idProp != "" {
		if id, ok := obj[pl.col.idProp]; ok {
			k := key(id)
			if !st.Create(col, k, jsonx.Append(make([]byte, 0, 64), obj)) {
				return invalid(CodeDuplicate, classConflict, "%s already exists in %s", describeID(pl, k), col)
			}
			s.resources.Add(1)
			return s.writeResource(w, pl, pl.success, obj)
		}
	}
	// No identifier given: assign the next free number.
	for {
		k := strconv.FormatUint(s.ids.Add(1), 10)
		if pl.col.idProp != "" {
			obj[pl.col.idProp] = typedID(pl, k)
		}
		if st.Create(col, k, jsonx.Marshal(obj)) {
			s.resources.Add(1)
			return s.writeResource(w, pl, pl.success, obj)
		}
	}
}

func (s *Server) list(w http.ResponseWriter, r *http.Request, st *store.Store, pl *plan, vals []string) *problem {
	limit := -1
	if pl.limit {
		if l := r.URL.Query().Get("limit"); l != "" {
			if n, err := strconv.Atoi(l); err == nil && n >= 0 {
				limit = n
			}
		}
	}
	docs := st.List(colKey(pl, vals), limit)
	items := make([]any, 0, len(docs))
	for _, d := range docs {
		v, err := jsonx.Decode(d)
		if err != nil {
			return internal("stored resource is not JSON: %v", err)
		}
		items = append(items, v)
	}
	return s.writeResource(w, pl, pl.success, items)
}

func (s *Server) readOrRemove(w http.ResponseWriter, st *store.Store, pl *plan, vals []string) *problem {
	col, k := colKey(pl, vals), pathKey(pl, vals)
	var doc []byte
	var ok bool
	if pl.do == remove {
		if doc, ok = st.Delete(col, k); ok {
			s.resources.Add(-1)
		}
	} else {
		doc, ok = st.Get(col, k)
	}
	if !ok {
		return notFound(pl, col, k)
	}
	if pl.successMedia == nil || pl.successMedia.Schema == nil && pl.do == remove {
		return s.writeResource(w, pl, pl.success, nil)
	}
	v, err := jsonx.Decode(doc)
	if err != nil {
		return internal("stored resource is not JSON: %v", err)
	}
	return s.writeResource(w, pl, pl.success, v)
}

func (s *Server) replace(w http.ResponseWriter, st *store.Store, pl *plan, vals []string, body any) *problem {
	obj, _ := body.(map[string]any)
	if obj == nil {
		return invalid(CodeSchema, classSchema, "request body must be a JSON object")
	}
	col, k := colKey(pl, vals), pathKey(pl, vals)
	if p := checkSameID(pl, obj, k); p != nil {
		return p
	}
	found, _ := st.Update(col, k, func([]byte) ([]byte, error) { return jsonx.Marshal(obj), nil })
	if !found {
		return notFound(pl, col, k)
	}
	return s.writeResource(w, pl, pl.success, obj)
}

// checkSameID refuses a body whose identifier differs from the path's and
// fills it in when the body has none.
func checkSameID(pl *plan, obj map[string]any, k string) *problem {
	if pl.col.idProp == "" {
		return nil
	}
	id, ok := obj[pl.col.idProp]
	if !ok {
		obj[pl.col.idProp] = typedID(pl, k)
		return nil
	}
	if key(id) != k {
		return &problem{code: CodeSchema, class: classSchema, message: "request body does not match the path",
			violations: []openapi.Violation{{Path: pl.col.idProp, Reason: fmt.Sprintf("is %s but the path addresses %s", jsonx.Marshal(id), jsonx.Marshal(typedID(pl, k)))}}}
	}
	return nil
}

func (s *Server) merge(w http.ResponseWriter, st *store.Store, pl *plan, vals []string, body any) *problem {
	patch, _ := body.(map[string]any)
	if patch == nil {
		return invalid(CodeSchema, classSchema, "a merge patch must be a JSON object")
	}
	col, k := colKey(pl, vals), pathKey(pl, vals)
	var merged map[string]any
	found, err := st.Update(col, k, func(old []byte) ([]byte, error) {
		v, err := jsonx.Decode(old)
		if err != nil {
			return nil, internal("stored resource is not JSON: %v", err)
		}
		cur, _ := v.(map[string]any)
		if cur == nil {
			return nil, internal("stored resource is not an object")
		}
		merged = mergePatch(cur, patch)
		if p := checkSameID(pl, merged, k); p != nil {
			return nil, p
		}
		if vs := pl.col.schema.Validate(merged); len(vs) > 0 {
			return nil, &problem{code: CodeSchema, class: classSchema, message: "the patched resource does not match the schema", violations: vs}
		}
		return jsonx.Marshal(merged), nil
	})
	if !found {
		return notFound(pl, col, k)
	}
	if err != nil {
		return err.(*problem)
	}
	return s.writeResource(w, pl, pl.success, merged)
}

// applyDefaults sets absent properties that declare a default, as a
// server would on create.
func applyDefaults(obj map[string]any, schema *openapi.Schema) {
	for _, p := range schema.Properties {
		if _, ok := obj[p.Name]; !ok && p.Schema != nil && p.Schema.HasDefault {
			obj[p.Name] = p.Schema.Default
		}
	}
}

// mergePatch applies an RFC 7396 JSON merge patch to target, in place.
func mergePatch(target, patch map[string]any) map[string]any {
	for k, pv := range patch {
		if pv == nil {
			delete(target, k)
			continue
		}
		if pm, ok := pv.(map[string]any); ok {
			tm, _ := target[k].(map[string]any)
			if tm == nil {
				tm = map[string]any{}
			}
			target[k] = mergePatch(tm, pm)
			continue
		}
		target[k] = pv
	}
	return target
}

// canned answers with the example, or with data generated from the schema
// with faker (nil: the next of the server's sequence).
func (s *Server) canned(w http.ResponseWriter, pl *plan, faker *gofakeit.Faker) *problem {
	if pl.example != nil || pl.successMedia == nil || pl.successMedia.Schema == nil {
		s.writeBody(w, pl, pl.success, pl.example)
		return nil
	}
	if faker == nil {
		faker = gen.Faker(s.seed, s.seq.Add(1))
	}
	v, p := generate(pl.successMedia.Schema, faker)
	if p != nil {
		return p
	}
	s.writeBody(w, pl, pl.success, jsonx.Marshal(v))
	return nil
}

// generate makes up a value that matches schema, trying a few times.
func generate(schema *openapi.Schema, faker *gofakeit.Faker) (any, *problem) {
	var vs []openapi.Violation
	for try := 0; try < 3; try++ {
		v := gen.Value(schema, faker)
		if vs = schema.Validate(v); len(vs) == 0 {
			return v, nil
		}
	}
	return nil, internal("could not generate data that matches the response schema: %s", vs[0])
}

// full is the answer to a create beyond MaxResources.
func (s *Server) full() *problem {
	return invalid(CodeFull, classRequest, "the mock holds the most resources it may (%d, --max-resources); delete some or reset the store", s.maxResources)
}

func internal(format string, args ...any) *problem {
	p := invalid(CodeInternal, classRequest, format, args...)
	p.status = http.StatusInternalServerError
	return p
}

// writeResource answers with v projected onto the success schema: only the
// properties the schema declares are sent.
func (s *Server) writeResource(w http.ResponseWriter, pl *plan, status int, v any) *problem {
	if pl.successMedia == nil {
		s.writeBody(w, pl, status, nil)
		return nil
	}
	schema := pl.successMedia.Schema
	if pl.proven {
		s.writeBody(w, pl, status, appendProjected(make([]byte, 0, 256), v, schema))
		return nil
	}
	out := project(v, schema)
	if vs := schema.Validate(out); len(vs) > 0 {
		return internal("the resource does not fit the declared response schema: %s", vs[0])
	}
	s.writeBody(w, pl, status, jsonx.Append(make([]byte, 0, 256), out))
	return nil
}

// writeBody sends a success answer; a nil body sends none.
func (s *Server) writeBody(w http.ResponseWriter, pl *plan, status int, body []byte) {
	h := w.Header()
	for _, kv := range pl.headers {
		h.Set(kv[0], kv[1])
	}
	if body != nil {
		h["Content-Type"] = pl.successCTh
		h.Set("Content-Length", itoa(len(body)))
	}
	w.WriteHeader(status)
	if body != nil {
		w.Write(body)
	}
}

// appendProjected appends what project(v, schema) would give, as JSON,
// without building it; declared properties come in schema order.
func appendProjected(buf []byte, v any, schema *openapi.Schema) []byte {
	if schema == nil {
		return jsonx.Append(buf, v)
	}
	switch x := v.(type) {
	case map[string]any:
		if len(schema.Properties) == 0 {
			return jsonx.Append(buf, x)
		}
		buf = append(buf, '{')
		first := true
		for _, p := range schema.Properties {
			pv, ok := x[p.Name]
			if !ok || p.Schema != nil && p.Schema.WriteOnly {
				continue
			}
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = jsonx.AppendString(buf, p.Name)
			buf = append(buf, ':')
			buf = appendProjected(buf, pv, p.Schema)
		}
		return append(buf, '}')
	case []any:
		if schema.Items == nil {
			return jsonx.Append(buf, x)
		}
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendProjected(buf, e, schema.Items)
		}
		return append(buf, ']')
	}
	return jsonx.Append(buf, v)
}

// project keeps only what schema declares: the declared properties of
// objects (writeOnly ones left out), recursively through arrays.
func project(v any, schema *openapi.Schema) any {
	if schema == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if len(schema.Properties) == 0 {
			return x
		}
		out := make(map[string]any, len(schema.Properties))
		for _, p := range schema.Properties {
			if pv, ok := x[p.Name]; ok && (p.Schema == nil || !p.Schema.WriteOnly) {
				out[p.Name] = project(pv, p.Schema)
			}
		}
		return out
	case []any:
		if schema.Items == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = project(e, schema.Items)
		}
		return out
	}
	return v
}
