package pipeline

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/journal"
)

// har is the part of an HTTP Archive (HAR 1.2) CheckTraffic reads.
type har struct {
	Log struct {
		Entries []struct {
			Request struct {
				Method   string      `json:"method"`
				URL      string      `json:"url"`
				Headers  []harHeader `json:"headers"`
				PostData *struct {
					MimeType string `json:"mimeType"`
					Text     string `json:"text"`
				} `json:"postData"`
			} `json:"request"`
			Response struct {
				Status  int         `json:"status"`
				Headers []harHeader `json:"headers"`
				Content struct {
					MimeType string `json:"mimeType"`
					Text     string `json:"text"`
					Encoding string `json:"encoding"`
				} `json:"content"`
			} `json:"response"`
		} `json:"entries"`
	} `json:"log"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// CheckTraffic judges recorded traffic, an HTTP Archive (see
// Server.CheckTraffic), and adds its exchanges to the contract report.
func (s *Engine) CheckTraffic(data []byte) error {
	var h har
	if err := json.Unmarshal(data, &h); err != nil {
		return fmt.Errorf("not an HTTP Archive (HAR): %v", err)
	}
	for i, he := range h.Log.Entries {
		req := he.Request
		var body string
		if req.PostData != nil {
			body = req.PostData.Text
		}
		r, err := http.NewRequest(req.Method, req.URL, strings.NewReader(body))
		if err != nil {
			return fmt.Errorf("entry %d: %v", i+1, err)
		}
		for _, hh := range req.Headers {
			if !strings.HasPrefix(hh.Name, ":") { // HTTP/2 pseudo-headers
				r.Header.Add(hh.Name, hh.Value)
			}
		}
		if req.PostData != nil && r.Header.Get("Content-Type") == "" && req.PostData.MimeType != "" {
			r.Header.Set("Content-Type", req.PostData.MimeType)
		}
		resp := he.Response
		m := s.Mounted()
		x := &exchange{Turn: answer.Turn{Client: r, R: r, Sess: s.Sessions.Def}, Sv: m.Docs[0], W: recorder{ResponseWriter: nowhere{}}}
		if m.table != nil {
			s.mount(x, m) // the document the request went to
		}
		var vs []journal.Violation
		if p := s.check(x); p != nil && p.Code.Contract() {
			vs = requestViolations(p)
		}
		if x.Plan != nil {
			header := http.Header{}
			for _, hh := range resp.Headers {
				header.Add(hh.Name, hh.Value)
			}
			if header.Get("Content-Type") == "" && resp.Content.MimeType != "" {
				header.Set("Content-Type", resp.Content.MimeType)
			}
			b := []byte(resp.Content.Text)
			if resp.Content.Encoding == "base64" {
				if b, err = base64.StdEncoding.DecodeString(resp.Content.Text); err != nil {
					return fmt.Errorf("entry %d: the response body is not base64: %v", i+1, err)
				}
			}
			vs = append(vs, answerViolations(x.Plan, resp.Status, header, b)...)
		}
		e := journal.Entry{Method: r.Method, Path: r.URL.Path, Status: resp.Status, Violations: vs}
		if !x.unmounted {
			e.Document = x.Sv.Name
		}
		var seen *atomic.Int64
		if x.Plan != nil {
			e.Operation, seen = x.Plan.Op.Name, &x.Plan.Seen
		}
		s.Contract.Add(&e, seen, vs)
	}
	return nil
}

// nowhere is a ResponseWriter that keeps nothing: checks that write
// headers while judging recorded traffic write them here.
type nowhere struct{}

func (nowhere) Header() http.Header         { return http.Header{} }
func (nowhere) Write(b []byte) (int, error) { return len(b), nil }
func (nowhere) WriteHeader(int)             {}
