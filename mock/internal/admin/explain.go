package admin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// explainRoutes adds the calls that tell about the document's
// operations and requests without sending any.
func (a *api) explainRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /__admin/operations", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"operations": a.mockOf(r).OperationExamples()})
	})
	mux.HandleFunc("POST /__admin/explain", a.explain)
	mux.HandleFunc("GET /__admin/document", func(w http.ResponseWriter, r *http.Request) {
		raw := a.mockOf(r).Raw()
		if raw == nil {
			writeError(w, http.StatusBadRequest, problem.CodeParameter, "the mock serves several documents: name one with document=NAME (GET /__admin/documents lists them)")
			return
		}
		ct := "application/yaml"
		if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) > 0 && t[0] == '{' {
			ct = "application/json"
		}
		w.Header().Set("Content-Type", ct)
		w.Write(raw)
	})
}

// explain answers how the mock would answer the request the body
// describes: {"method", "path", "headers", "body"}. The request is not
// answered: nothing is stored or journaled.
func (a *api) explain(w http.ResponseWriter, r *http.Request) {
	v, ok := readJSON(w, r)
	if !ok {
		return
	}
	req, msg := explained(r, v)
	if msg != "" {
		writeError(w, http.StatusBadRequest, problem.CodeSchema, msg)
		return
	}
	writeJSON(w, a.mockOf(r).Explain(req))
}

// explainedShape is what explain's body must be, for its messages.
const explainedShape = `the body must be {"method": "GET", "path": "/plants?limit=2", "headers": {"Name": "value" or ["values"]}, "body": JSON or "text"} (method and path required)`

// explained makes the request an explain call describes, or says what
// is wrong with the description.
func explained(r *http.Request, v any) (*http.Request, string) {
	obj, _ := v.(map[string]any)
	if obj == nil {
		return nil, explainedShape
	}
	method, _ := obj["method"].(string)
	path, _ := obj["path"].(string)
	if method == "" || !strings.HasPrefix(path, "/") {
		return nil, explainedShape
	}
	h := http.Header{}
	var body []byte
	jsonBody := false // the body was given as JSON: it is sent as application/json unless a header says otherwise
	for k, x := range obj {
		switch k {
		case "method", "path":
		case "headers":
			hs, ok := x.(map[string]any)
			if !ok {
				return nil, explainedShape
			}
			for name, val := range hs {
				switch val := val.(type) {
				case string:
					h.Add(name, val)
				case []any:
					for _, s := range val {
						s, ok := s.(string)
						if !ok {
							return nil, fmt.Sprintf("headers.%s: each value must be a string", cliptext.To(name, 60))
						}
						h.Add(name, s)
					}
				default:
					return nil, fmt.Sprintf("headers.%s: a string or an array of strings", cliptext.To(name, 60))
				}
			}
		case "body":
			if s, ok := x.(string); ok {
				body = []byte(s)
				break
			}
			body, _ = json.Marshal(x)
			jsonBody = true
		default:
			return nil, fmt.Sprintf("unknown key %q; %s", cliptext.To(k, 60), explainedShape)
		}
	}
	if jsonBody && h.Get("Content-Type") == "" {
		h.Set("Content-Type", "application/json")
	}
	req, err := http.NewRequestWithContext(r.Context(), method, "http://"+r.Host+path, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Sprintf("%s %s is not a request: %v", cliptext.To(method, 20), cliptext.To(path, 100), err)
	}
	if body == nil {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	req.Header, req.RequestURI, req.RemoteAddr = h, path, r.RemoteAddr
	return req, ""
}
