package admin

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// journalRoutes adds the calls on the session's journal.
func (a *api) journalRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /__admin/requests", a.withSession(requests))
	mux.HandleFunc("DELETE /__admin/requests", a.withSession(func(w http.ResponseWriter, r *http.Request, ss Session) {
		noContent(w, ss.ResetJournal(r.Context()))
	}))
	mux.HandleFunc("POST /__admin/requests/count", a.withSession(a.find(true)))
	mux.HandleFunc("POST /__admin/requests/find", a.withSession(a.find(false)))
}

// storeRoutes adds the calls on the session's resources.
func (a *api) storeRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /__admin/store", a.withSession(resources))
	mux.HandleFunc("DELETE /__admin/store", a.withSession(func(w http.ResponseWriter, r *http.Request, ss Session) {
		noContent(w, ss.ResetResources(r.Context()))
	}))
	mux.HandleFunc("PUT /__admin/store/{collection...}", a.withSession(seed))
	// Without this, ServeMux would answer other methods on /__admin/store
	// with a redirect to /__admin/store/, for the pattern above.
	mux.HandleFunc("/__admin/store", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, DELETE")
		writeError(w, http.StatusMethodNotAllowed, problem.CodeMethod, fmt.Sprintf("/__admin/store takes GET and DELETE, not %s; PUT goes to /__admin/store/COLLECTION", cliptext.To(r.Method, 20)))
	})
}

// requests answers the session's journal, its newest ?limit=N entries.
func requests(w http.ResponseWriter, r *http.Request, ss Session) {
	es, err := ss.Entries(r.Context())
	if err != nil {
		failed(w, err)
		return
	}
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, problem.CodeParameter, fmt.Sprintf("limit=%s is not a count", cliptext.To(l, 20)))
			return
		}
		if n < len(es) {
			es = es[len(es)-n:]
		}
	}
	writeJSON(w, map[string]any{"requests": nonNil(es)})
}

func nonNil(es []journal.Entry) []journal.Entry {
	if es == nil {
		return []journal.Entry{}
	}
	return es
}

// readMatch reads the matcher of /requests/count and /requests/find,
// answering the error itself.
func readMatch(w http.ResponseWriter, r *http.Request) (journal.Match, bool) {
	var m journal.Match
	v, ok := readJSON(w, r)
	if !ok {
		return m, false
	}
	obj, _ := v.(map[string]any)
	if obj == nil {
		writeError(w, http.StatusBadRequest, problem.CodeSchema, "the matcher must be a JSON object")
		return m, false
	}
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
		case "document":
			m.Document, ok = x.(string)
		default:
			ok = false
		}
		if !ok {
			writeError(w, http.StatusBadRequest, problem.CodeSchema, fmt.Sprintf("matcher key %q is unknown or of the wrong type; use operation (string), status (integer), body (JSON), direction (inbound or outbound), document (string)", k))
			return m, false
		}
	}
	return m, true
}

// find answers /requests/count (count) and /requests/find.
func (a *api) find(count bool) func(http.ResponseWriter, *http.Request, Session) {
	return func(w http.ResponseWriter, r *http.Request, ss Session) {
		m, ok := readMatch(w, r)
		if !ok {
			return
		}
		sel, err := a.mockOf(r).Match(m)
		if err != nil {
			writeError(w, http.StatusBadRequest, problem.CodeSchema, err.Error())
			return
		}
		es, err := ss.Entries(r.Context())
		if err != nil {
			failed(w, err)
			return
		}
		es = journal.Find(es, sel)
		if count {
			writeJSON(w, map[string]int{"count": len(es)})
			return
		}
		writeJSON(w, map[string]any{"requests": nonNil(es)})
	}
}

// resources answers what the store holds for the session, by collection.
func resources(w http.ResponseWriter, r *http.Request, ss Session) {
	dump, err := ss.Resources(r.Context())
	if err != nil {
		failed(w, err)
		return
	}
	cols := make(map[string][]json.RawMessage, len(dump))
	for _, c := range dump {
		out := make([]json.RawMessage, len(c.Docs))
		for i, d := range c.Docs {
			out[i] = d
		}
		cols[c.Name] = out
	}
	writeJSON(w, map[string]any{"collections": cols})
}

// seed makes a collection of the session hold the resources given.
func seed(w http.ResponseWriter, r *http.Request, ss Session) {
	col := "/" + strings.Trim(r.PathValue("collection"), "/")
	v, ok := readJSON(w, r)
	if !ok {
		return
	}
	n, p := ss.Seed(r.Context(), col, v)
	if p != nil {
		status := http.StatusBadRequest
		switch {
		case p.Code == problem.CodeNoRoute:
			status = http.StatusNotFound
		case p.Status >= 500:
			status = p.Status
		}
		writeError(w, status, p.Code, p.Text())
		return
	}
	writeJSON(w, map[string]any{"collection": col, "count": n})
}

// scenarios lists the loaded scenarios as they were given, by name, and
// the session's active one; of a mock of several documents, without
// ?document=, each document's active one too.
func (a *api) scenarios(w http.ResponseWriter, r *http.Request, ss Session) {
	name, ok, err := ss.Active(r.Context())
	if err != nil {
		failed(w, err)
		return
	}
	m := a.mockOf(r)
	out := map[string]any{"active": nameOrNull(name, ok), "scenarios": m.Scenarios()}
	if docs := m.Documents(); len(docs) > 1 {
		each := map[string]any{}
		for _, d := range docs {
			dm, _ := m.Document(d.Name)
			ds, p := dm.Session(r.Context(), r.Header.Get(SessionHeader))
			if p != nil {
				failed(w, p)
				return
			}
			name, ok, err := ds.Active(r.Context())
			if err != nil {
				failed(w, err)
				return
			}
			each[d.Name] = nameOrNull(name, ok)
		}
		out["documents"] = each
	}
	writeJSON(w, out)
}

// nameOrNull is a scenario's name as the admin API gives it: null for
// none.
func nameOrNull(name string, ok bool) any {
	if ok {
		return name
	}
	return nil
}

// activate makes the scenario {"name": ...} names the session's active
// one, or none for {"name": null}.
func (a *api) activate(w http.ResponseWriter, r *http.Request, ss Session) {
	v, ok := readJSON(w, r)
	if !ok {
		return
	}
	obj, _ := v.(map[string]any)
	name, present := obj["name"]
	if obj == nil || !present || len(obj) != 1 {
		writeError(w, http.StatusBadRequest, problem.CodeSchema, `the body must be {"name": "<scenario>"} or {"name": null}`)
		return
	}
	var n *string
	switch v := name.(type) {
	case nil:
	case string:
		n = &v
	default:
		writeError(w, http.StatusBadRequest, problem.CodeSchema, "name must be a string or null")
		return
	}
	if err := ss.Activate(r.Context(), n); err != nil {
		var p *problem.Problem
		if errors.As(err, &p) {
			writeError(w, http.StatusBadRequest, p.Code, p.Message)
			return
		}
		failed(w, err)
		return
	}
	writeJSON(w, map[string]any{"active": name})
}
