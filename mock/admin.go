package mock

import (
	"crypto/subtle"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// AdminPrefix is where the admin API lives.
const AdminPrefix = "/__admin/"

// healthPath is the admin API's health call. The mock's handler answers it
// even when the rest of the admin API is off (Options.Admin.Disabled), so that
// container health checks work whatever the flags.
const healthPath = AdminPrefix + "health"

// Version is plantmock's version, reported by the admin health call and
// by plantmock version. A release build sets it to the release's version
// with the linker (-X, .goreleaser.yaml), the only thing that changes it.
var Version = "0.1.0"

// adminOpenAPI is the admin API's OpenAPI document.
//
//go:embed admin.yaml
var adminOpenAPI string

// maxAdminBody bounds admin request bodies (seed data included).
const maxAdminBody = 16 << 20

// Admin returns the admin API handler: JSON calls under /__admin/ that
// inspect and drive the mock, described by the OpenAPI document it serves
// at GET /__admin/openapi.yaml. The mock serves it itself unless
// Options.Admin.Disabled is set; serve it on another listener then.
func (s *Server) Admin() http.Handler { return s.admin }

// adminHandler builds the admin API: one route per call, behind the
// admin token when there is one.
func (s *Server) adminHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+healthPath, func(w http.ResponseWriter, r *http.Request) { s.adminHealth(w, r, true) })
	mux.HandleFunc("GET /__admin/openapi.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		io.WriteString(w, adminOpenAPI)
	})
	mux.HandleFunc("GET /__admin/requests", s.withSession(s.adminRequests))
	mux.HandleFunc("DELETE /__admin/requests", s.withSession(func(w http.ResponseWriter, r *http.Request, ss *session) {
		if err := ss.state.ResetJournal(r.Context()); err != nil {
			adminFailed(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	mux.HandleFunc("POST /__admin/requests/count", s.withSession(s.adminFind(true)))
	mux.HandleFunc("POST /__admin/requests/find", s.withSession(s.adminFind(false)))
	mux.HandleFunc("GET /__admin/contract", s.adminContract)
	mux.HandleFunc("GET /__admin/store", s.withSession(s.adminStore))
	mux.HandleFunc("DELETE /__admin/store", s.withSession(func(w http.ResponseWriter, r *http.Request, ss *session) {
		if err := s.store.Reset(r.Context(), ss.name); err != nil {
			adminFailed(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	mux.HandleFunc("PUT /__admin/store/{collection...}", s.withSession(s.adminSeed))
	// Without this, ServeMux would answer other methods on /__admin/store
	// with a redirect to /__admin/store/, for the pattern above.
	mux.HandleFunc("/__admin/store", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, DELETE")
		adminError(w, http.StatusMethodNotAllowed, problem.CodeMethod, fmt.Sprintf("/__admin/store takes GET and DELETE, not %s; PUT goes to /__admin/store/COLLECTION", clip(r.Method, 20)))
	})
	mux.HandleFunc("GET /__admin/scenarios", s.withSession(s.adminScenarios))
	mux.HandleFunc("PUT /__admin/scenario", s.withSession(s.adminActivate))
	mux.HandleFunc("POST /__admin/reset", s.withSession(func(w http.ResponseWriter, r *http.Request, ss *session) {
		if err := s.sessions.reset(r.Context(), ss); err != nil {
			adminFailed(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	noCall := func(w http.ResponseWriter, r *http.Request) {
		adminError(w, http.StatusNotFound, problem.CodeNoRoute, fmt.Sprintf("no admin call %s %s; see %sopenapi.yaml", clip(r.Method, 20), clip(r.URL.Path, 100), AdminPrefix))
	}
	s.webhookRoutes(mux)
	s.recordRoutes(mux)
	mux.HandleFunc("GET /__admin/events", s.adminEvents)
	mux.HandleFunc("GET /__admin/reload", func(w http.ResponseWriter, r *http.Request) { adminJSON(w, s.reloadStatus()) })
	s.dashboardRoutes(mux)
	mux.HandleFunc(AdminPrefix, noCall)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.guard.admit(w, r) {
			return
		}
		if s.adminToken != "" && !dashboardOpen(r) {
			scheme, token := wire.Authorization(r.Header.Get("Authorization"))
			if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(token), []byte(s.adminToken)) != 1 {
				if r.Method == http.MethodGet && r.URL.EscapedPath() == healthPath {
					// Health checks (plantmock health, the container's) may
					// not have the token: they get the status alone.
					s.adminHealth(w, r, false)
					return
				}
				w.Header().Set("WWW-Authenticate", `Bearer realm="plantmock-admin"`)
				adminError(w, http.StatusUnauthorized, problem.CodeTokenRejected, "the admin API needs \"Authorization: Bearer <admin token>\"")
				return
			}
		}
		if p := r.URL.EscapedPath(); path.Clean(p) != p && path.Clean(p)+"/" != p {
			noCall(w, r) // ServeMux would redirect to the clean path; an API answers
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// withSession resolves the X-Mock-Session of an admin call. An admin call
// makes a session it names that is not alive: admin calls are how a
// session is set up before its first request (a scenario activated,
// resources stored, a webhook subscribed), and are behind the admin
// API's own checks.
func (s *Server) withSession(h func(http.ResponseWriter, *http.Request, *session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ss, p := s.sessions.get(r.Context(), r.Header.Get(SessionHeader), true)
		if p != nil {
			status := http.StatusBadRequest
			if p.Class == problem.ClassUnavailable {
				status = http.StatusServiceUnavailable
			}
			adminError(w, status, p.Code, p.Message)
			return
		}
		h(w, r, ss)
	}
}

// adminFailed answers an admin call whose state could not be read or
// changed: 503 when the shared store did not answer, else 500.
func adminFailed(w http.ResponseWriter, err error) {
	if errors.Is(err, store.ErrUnavailable) {
		adminError(w, http.StatusServiceUnavailable, problem.CodeUnavailable, "the mock's shared store did not answer in time: "+err.Error())
		return
	}
	adminError(w, http.StatusInternalServerError, problem.CodeInternal, "the store failed: "+err.Error())
}

func adminError(w http.ResponseWriter, status int, code problem.Code, msg string) {
	writeJSON(w, status, "application/json", problem.DefaultShape.Render(nil, status, code, msg), false)
}

func adminJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		adminError(w, http.StatusInternalServerError, problem.CodeInternal, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, "application/json", b, false)
}

// readAdminJSON decodes an admin call's body, answering the error itself.
func readAdminJSON(w http.ResponseWriter, r *http.Request) (any, bool) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxAdminBody))
	if err != nil {
		adminError(w, http.StatusBadRequest, problem.CodeBodyTooLarge, fmt.Sprintf("admin body over %d bytes or unreadable: %v", maxAdminBody, err))
		return nil, false
	}
	v, err := jsonx.Decode(raw)
	if err != nil {
		adminError(w, http.StatusBadRequest, problem.CodeBodyNotJSON, err.Error())
		return nil, false
	}
	return v, true
}

// adminHealth answers the health call: the status, and with full (the
// admin token given, or none needed) the version, the document and the
// store, and why the mock is unhealthy.
func (s *Server) adminHealth(w http.ResponseWriter, r *http.Request, full bool) {
	h := map[string]string{"status": "ok"}
	if full {
		h["version"], h["spec"], h["store"] = Version, s.Title(), s.sessions.backend.Kind()
	}
	if err := s.healthy(r.Context()); err != nil {
		h["status"] = "unhealthy"
		if full {
			h["reason"] = err.Error()
		}
		b, _ := json.Marshal(h)
		writeJSON(w, http.StatusServiceUnavailable, "application/json", b, false)
		return
	}
	adminJSON(w, h)
}

func (s *Server) adminRequests(w http.ResponseWriter, r *http.Request, ss *session) {
	es, err := ss.state.Entries(r.Context())
	if err != nil {
		adminFailed(w, err)
		return
	}
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			adminError(w, http.StatusBadRequest, problem.CodeParameter, fmt.Sprintf("limit=%s is not a count", clip(l, 20)))
			return
		}
		if n < len(es) {
			es = es[len(es)-n:]
		}
	}
	adminJSON(w, map[string]any{"requests": nonNil(es)})
}

func nonNil(es []journal.Entry) []journal.Entry {
	if es == nil {
		return []journal.Entry{}
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
		if obj == nil {
			adminError(w, http.StatusBadRequest, problem.CodeSchema, "the matcher must be a JSON object")
			return
		}
		var m journal.Match
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
			case "direction":
				m.Direction, ok = x.(string)
			default:
				ok = false
			}
			if !ok {
				adminError(w, http.StatusBadRequest, problem.CodeSchema, fmt.Sprintf("matcher key %q is unknown or of the wrong type; use operation (string), status (integer), body (JSON), direction (inbound or outbound)", k))
				return
			}
		}
		sel, err := s.compileMatch(m)
		if err != nil {
			adminError(w, http.StatusBadRequest, problem.CodeSchema, err.Error())
			return
		}
		es, err := ss.state.Entries(r.Context())
		if err != nil {
			adminFailed(w, err)
			return
		}
		es = journal.Find(es, sel)
		if count {
			adminJSON(w, map[string]int{"count": len(es)})
			return
		}
		adminJSON(w, map[string]any{"requests": nonNil(es)})
	}
}

// adminContract answers the contract report: JSON, or text with
// ?format=text.
func (s *Server) adminContract(w http.ResponseWriter, r *http.Request) {
	rep := s.Contract()
	switch f := r.URL.Query().Get("format"); f {
	case "", "json":
		adminJSON(w, rep)
	case "text":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, rep.Text())
	default:
		adminError(w, http.StatusBadRequest, problem.CodeParameter, fmt.Sprintf("format=%s: json or text", clip(f, 20)))
	}
}

func (s *Server) adminStore(w http.ResponseWriter, r *http.Request, ss *session) {
	dump, err := s.store.Dump(r.Context(), ss.name)
	if err != nil {
		adminFailed(w, err)
		return
	}
	dump = resources(dump)
	cols := make(map[string][]json.RawMessage, len(dump))
	for _, c := range dump {
		out := make([]json.RawMessage, len(c.Docs))
		for i, d := range c.Docs {
			out[i] = d
		}
		cols[c.Name] = out
	}
	adminJSON(w, map[string]any{"collections": cols})
}

func (s *Server) adminSeed(w http.ResponseWriter, r *http.Request, ss *session) {
	col := "/" + strings.Trim(r.PathValue("collection"), "/")
	v, ok := readAdminJSON(w, r)
	if !ok {
		return
	}
	n, p := s.seedCollection(r.Context(), s.served(), ss, col, v)
	if p != nil {
		status := http.StatusBadRequest
		switch {
		case p.Code == problem.CodeNoRoute:
			status = http.StatusNotFound
		case p.Status >= 500:
			status = p.Status
		}
		adminError(w, status, p.Code, p.Text())
		return
	}
	adminJSON(w, map[string]any{"collection": col, "count": n})
}

// adminScenarios lists the loaded scenarios as they were given, by name,
// and the session's active one.
func (s *Server) adminScenarios(w http.ResponseWriter, r *http.Request, ss *session) {
	set := s.served().scenarios
	names := make([]string, 0, len(set.ByName))
	for n := range set.ByName {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]*scenario.Scenario, len(names))
	for i, n := range names {
		out[i] = set.ByName[n].Def
	}
	active, err := s.sessions.active(r.Context(), ss, set)
	if err != nil {
		adminFailed(w, err)
		return
	}
	adminJSON(w, map[string]any{"active": scenarioName(active), "scenarios": out})
}

// scenarioName is the name of sc as the admin API gives it: null for none.
func scenarioName(sc *scenario.Compiled) any {
	if sc != nil {
		return sc.Name
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
		adminError(w, http.StatusBadRequest, problem.CodeSchema, `the body must be {"name": "<scenario>"} or {"name": null}`)
		return
	}
	var sc *scenario.Compiled
	switch n := name.(type) {
	case nil:
	case string:
		if sc = s.served().scenarios.ByName[n]; sc == nil {
			adminError(w, http.StatusBadRequest, problem.CodeScenario, fmt.Sprintf("no scenario is named %q; known: %s", clip(n, 60), s.served().scenarios.Names()))
			return
		}
	default:
		adminError(w, http.StatusBadRequest, problem.CodeSchema, "name must be a string or null")
		return
	}
	if err := ss.activate(r.Context(), sc); err != nil {
		adminFailed(w, err)
		return
	}
	adminJSON(w, map[string]any{"active": scenarioName(sc)})
}
