package mock

import (
	"crypto/subtle"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// AdminPrefix is where the admin API lives.
const AdminPrefix = "/__admin/"

// Version is plantmock's version, reported by the admin health call.
const Version = "0.1.0"

// AdminOpenAPI is the admin API's OpenAPI document.
//
//go:embed admin.yaml
var AdminOpenAPI string

// maxAdminBody bounds admin request bodies (seed data included).
const maxAdminBody = 16 << 20

// Admin returns the admin API handler: JSON calls under /__admin/ that
// inspect and drive the mock (see AdminOpenAPI). The mock serves it itself
// unless Options.NoAdmin is set; serve it on another listener then.
func (s *Server) Admin() http.Handler { return s.admin }

func (s *Server) buildAdmin() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /__admin/health", s.adminHealth)
	mux.HandleFunc("GET /__admin/openapi.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		io.WriteString(w, AdminOpenAPI)
	})
	mux.HandleFunc("GET /__admin/requests", s.withSession(s.adminRequests))
	mux.HandleFunc("DELETE /__admin/requests", s.withSession(func(w http.ResponseWriter, r *http.Request, ss *session) {
		if ss.journal != nil {
			ss.journal.reset()
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	mux.HandleFunc("POST /__admin/requests/count", s.withSession(s.adminFind(true)))
	mux.HandleFunc("POST /__admin/requests/find", s.withSession(s.adminFind(false)))
	mux.HandleFunc("GET /__admin/store", s.withSession(s.adminStore))
	mux.HandleFunc("DELETE /__admin/store", s.withSession(func(w http.ResponseWriter, r *http.Request, ss *session) {
		s.resources.Add(-int64(ss.store.Reset()))
		w.WriteHeader(http.StatusNoContent)
	}))
	mux.HandleFunc("PUT /__admin/store/{collection...}", s.withSession(s.adminSeed))
	mux.HandleFunc("GET /__admin/scenarios", s.withSession(s.adminScenarios))
	mux.HandleFunc("PUT /__admin/scenario", s.withSession(s.adminActivate))
	mux.HandleFunc("POST /__admin/reset", s.withSession(func(w http.ResponseWriter, r *http.Request, ss *session) {
		ss.reset(s)
		w.WriteHeader(http.StatusNoContent)
	}))
	mux.HandleFunc("/__admin/", func(w http.ResponseWriter, r *http.Request) {
		adminError(w, http.StatusNotFound, CodeNoRoute, fmt.Sprintf("no admin call %s %s; see %sopenapi.yaml", clip(r.Method, 20), clip(r.URL.Path, 100), AdminPrefix))
	})
	s.admin = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.adminToken != "" {
			scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
			if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimLeft(tok, " ")), []byte(s.adminToken)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="plantmock-admin"`)
				adminError(w, http.StatusUnauthorized, CodeTokenRejected, "the admin API needs \"Authorization: Bearer <admin token>\"")
				return
			}
		}
		if p := r.URL.Path; path.Clean(p) != p && path.Clean(p)+"/" != p {
			// ServeMux would redirect to the clean path; an API answers.
			adminError(w, http.StatusNotFound, CodeNoRoute, fmt.Sprintf("no admin call %s %s; see %sopenapi.yaml", clip(r.Method, 20), clip(p, 100), AdminPrefix))
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// withSession resolves the X-Mock-Session of an admin call.
func (s *Server) withSession(h func(http.ResponseWriter, *http.Request, *session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ss, p := s.session(r)
		if p != nil {
			adminError(w, http.StatusBadRequest, p.code, p.message)
			return
		}
		h(w, r, ss)
	}
}

func adminError(w http.ResponseWriter, status int, code Code, msg string) {
	writeJSON(w, status, "application/json", defaultShape.render(nil, status, code, msg))
}

func adminJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		adminError(w, http.StatusInternalServerError, CodeInternal, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, "application/json", b)
}

// readAdminJSON decodes an admin call's body, answering the error itself.
func readAdminJSON(w http.ResponseWriter, r *http.Request) (any, bool) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxAdminBody))
	if err != nil {
		adminError(w, http.StatusBadRequest, CodeBodyTooLarge, fmt.Sprintf("admin body over %d bytes or unreadable: %v", maxAdminBody, err))
		return nil, false
	}
	v, err := jsonx.Decode(raw)
	if err != nil {
		adminError(w, http.StatusBadRequest, CodeBodyNotJSON, err.Error())
		return nil, false
	}
	return v, true
}

func (s *Server) adminHealth(w http.ResponseWriter, r *http.Request) {
	adminJSON(w, map[string]string{"status": "ok", "version": Version, "spec": s.Title()})
}

func (s *Server) adminRequests(w http.ResponseWriter, r *http.Request, ss *session) {
	var es []Entry
	if ss.journal != nil {
		es = ss.journal.entries()
	}
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			adminError(w, http.StatusBadRequest, CodeParameter, fmt.Sprintf("limit=%s is not a count", clip(l, 20)))
			return
		}
		if n < len(es) {
			es = es[len(es)-n:]
		}
	}
	adminJSON(w, map[string]any{"requests": nonNil(es)})
}

func nonNil(es []Entry) []Entry {
	if es == nil {
		return []Entry{}
	}
	return es
}

// adminFind answers /requests/count (count) and /requests/find.
func (s *Server) adminFind(count bool) func(http.ResponseWriter, *http.Request, *session) {
	return func(w http.ResponseWriter, r *http.Request, ss *session) {
		v, ok := readAdminJSON(w, r)
		if !ok {
			return
		}
		obj, _ := v.(map[string]any)
		var m Match
		for k, x := range obj {
			switch k {
			case "operation":
				m.Operation, ok = x.(string)
			case "status":
				n, isNum := x.(json.Number)
				st, err := strconv.Atoi(string(n))
				m.Status, ok = st, isNum && err == nil
			case "body":
				m.Body = x
			default:
				ok = false
			}
			if !ok {
				adminError(w, http.StatusBadRequest, CodeSchema, fmt.Sprintf("matcher key %q is unknown or of the wrong type; use operation (string), status (integer), body (JSON)", k))
				return
			}
		}
		if obj == nil {
			adminError(w, http.StatusBadRequest, CodeSchema, "the matcher must be a JSON object")
			return
		}
		sel, err := m.compile()
		if err != nil {
			adminError(w, http.StatusBadRequest, CodeSchema, err.Error())
			return
		}
		var es []Entry
		if ss.journal != nil {
			for _, e := range ss.journal.entries() {
				if sel(e) {
					es = append(es, e)
				}
			}
		}
		if count {
			adminJSON(w, map[string]int{"count": len(es)})
			return
		}
		adminJSON(w, map[string]any{"requests": nonNil(es)})
	}
}

func (s *Server) adminStore(w http.ResponseWriter, r *http.Request, ss *session) {
	cols := map[string][]json.RawMessage{}
	for _, c := range ss.store.Collections() {
		docs := ss.store.List(c, -1)
		out := make([]json.RawMessage, len(docs))
		for i, d := range docs {
			out[i] = d
		}
		cols[c] = out
	}
	adminJSON(w, map[string]any{"collections": cols})
}

func (s *Server) adminSeed(w http.ResponseWriter, r *http.Request, ss *session) {
	col := "/" + strings.Trim(r.PathValue("collection"), "/")
	v, ok := readAdminJSON(w, r)
	if !ok {
		return
	}
	n, err := s.seedCollection(ss, col, v)
	if err != nil {
		status := http.StatusBadRequest
		if err.code == CodeNoRoute {
			status = http.StatusNotFound
		}
		adminError(w, status, err.code, err.text())
		return
	}
	adminJSON(w, map[string]any{"collection": col, "count": n})
}

// seed makes a collection hold exactly the given resources, each valid
// against the collection's create schema.
func (s *Server) seedCollection(ss *session, col string, v any) (int, *problem) {
	route, vals, _ := s.find(col)
	var pl *plan
	if route != nil {
		if op := route.Operation("POST"); op != nil && s.plans[op].do == create {
			pl = s.plans[op]
		}
	}
	if pl == nil {
		return 0, &problem{code: CodeNoRoute, message: fmt.Sprintf("%s is not a collection the document creates resources in (POST with a JSON object body)", col)}
	}
	items, isArray := v.([]any)
	if !isArray {
		return 0, &problem{code: CodeSchema, message: col + ": seed data must be a JSON array of resources"}
	}
	keys := make([]string, 0, len(items))
	docs := make([][]byte, 0, len(items))
	seen := map[string]int{}
	var vs []openapi.Violation
	for i, it := range items {
		obj, _ := it.(map[string]any)
		before := len(vs)
		for _, x := range pl.col.schema.Validate(it) {
			at := fmt.Sprintf("[%d]", i)
			if x.Path != "" {
				at += "." + x.Path
			}
			vs = append(vs, openapi.Violation{Path: at, Reason: x.Reason})
		}
		if obj == nil || len(vs) > before {
			continue
		}
		applyDefaults(obj, pl.col.schema)
		k := ""
		if pl.col.idProp != "" {
			if id, ok := obj[pl.col.idProp]; ok {
				k = key(id)
			}
		}
		if k == "" {
			k = strconv.FormatUint(s.ids.Add(1), 10)
			if pl.col.idProp != "" {
				obj[pl.col.idProp] = typedID(pl, k)
			}
		}
		if j, dup := seen[k]; dup {
			vs = append(vs, openapi.Violation{Path: fmt.Sprintf("[%d]", i), Reason: fmt.Sprintf("%s repeats item %d", describeID(pl, k), j)})
			continue
		}
		seen[k] = i
		keys = append(keys, k)
		docs = append(docs, jsonx.Marshal(obj))
	}
	if len(vs) > 0 {
		return 0, &problem{code: CodeSchema, message: col + ": seed data does not match the create schema", violations: vs}
	}
	if s.resources.Load()+int64(len(keys)) > s.maxResources {
		return 0, s.full()
	}
	s.resources.Add(int64(len(keys) - ss.store.Replace(colKey(pl, vals), keys, docs)))
	return len(keys), nil
}

// SeedData loads JSON seed data ({"/plants": [...], ...}) into the default
// session, validating each resource like a create.
func (s *Server) SeedData(data []byte) error {
	v, err := jsonx.Decode(data)
	if err != nil {
		return fmt.Errorf("seed data: %v", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("seed data must be a JSON object of collection paths to arrays of resources")
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, col := range names {
		if _, p := s.seedCollection(s.defaultSession, "/"+strings.Trim(col, "/"), obj[col]); p != nil {
			return fmt.Errorf("seed data: %s", p.text())
		}
	}
	return nil
}

type scenarioView struct {
	Name        string     `json:"name"`
	Description string     `json:"description,omitempty"`
	File        string     `json:"file,omitempty"`
	Rules       []ruleView `json:"rules"`
}

type ruleView struct {
	When        When        `json:"when"`
	Times       int         `json:"times,omitempty"`
	Every       int         `json:"every,omitempty"`
	Respond     respondView `json:"respond"`
	OffContract bool        `json:"off_contract,omitempty"`
}

type respondView struct {
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    any               `json:"body,omitempty"`
	Delay   string            `json:"delay,omitempty"`
	Fault   Fault             `json:"fault,omitempty"`
}

func (s *Server) adminScenarios(w http.ResponseWriter, r *http.Request, ss *session) {
	names := make([]string, 0, len(s.defs))
	for n := range s.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	out := []scenarioView{}
	for _, n := range names {
		sc := s.defs[n]
		v := scenarioView{Name: sc.Name, Description: sc.Description, File: sc.File, Rules: []ruleView{}}
		for _, rl := range sc.Rules {
			rv := ruleView{When: rl.When, Times: rl.Times, Every: rl.Every, OffContract: rl.OffContract,
				Respond: respondView{Status: rl.Respond.Status, Headers: rl.Respond.Headers, Body: rl.Respond.Body, Fault: rl.Respond.Fault}}
			if rl.Respond.Delay > 0 {
				rv.Respond.Delay = rl.Respond.Delay.String()
			}
			v.Rules = append(v.Rules, rv)
		}
		out = append(out, v)
	}
	adminJSON(w, map[string]any{"active": activeName(ss), "scenarios": out})
}

func activeName(ss *session) any {
	if sp := ss.active.Load(); sp != nil {
		return sp.name
	}
	return nil
}

func (s *Server) adminActivate(w http.ResponseWriter, r *http.Request, ss *session) {
	v, ok := readAdminJSON(w, r)
	if !ok {
		return
	}
	obj, _ := v.(map[string]any)
	name, present := obj["name"]
	if obj == nil || !present || len(obj) != 1 {
		adminError(w, http.StatusBadRequest, CodeSchema, `the body must be {"name": "<scenario>"} or {"name": null}`)
		return
	}
	switch n := name.(type) {
	case nil:
		ss.active.Store(nil)
	case string:
		sp := s.scripts[n]
		if sp == nil {
			adminError(w, http.StatusBadRequest, CodeScenario, fmt.Sprintf("no scenario is named %q; known: %s", clip(n, 60), s.scriptNames()))
			return
		}
		ss.active.Store(sp)
	default:
		adminError(w, http.StatusBadRequest, CodeSchema, "name must be a string or null")
		return
	}
	adminJSON(w, map[string]any{"active": activeName(ss)})
}

// MarshalJSON writes bodies as JSON when they are JSON, else as strings.
func (e Entry) MarshalJSON() ([]byte, error) {
	type plain Entry
	return json.Marshal(struct {
		plain
		Body     any `json:"body,omitempty"`
		Response any `json:"response,omitempty"`
	}{plain(e), bodyValue(e.Body), bodyValue(e.Response)})
}

func bodyValue(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	if json.Valid(b) {
		return json.RawMessage(b)
	}
	return string(b)
}
