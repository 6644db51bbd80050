package traffic

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// journalEntry is the part of an entry of the journal, as GET
// /__admin/requests answers it, that is read.
type journalEntry struct {
	Seq       uint64          `json:"seq"`
	Method    string          `json:"method"`
	Path      string          `json:"path"`
	Query     string          `json:"query"`
	Header    http.Header     `json:"headers"`
	Body      json.RawMessage `json:"body"`
	Status    int             `json:"status"`
	Response  json.RawMessage `json:"response"`
	Code      int             `json:"code"`
	Direction string          `json:"direction"`
	Clipped   *struct {
		Path     int `json:"path"`
		Query    int `json:"query"`
		Headers  int `json:"headers"`
		Body     int `json:"body"`
		Response int `json:"response"`
	} `json:"clipped"`
}

// readJournal reads the exchanges of the journal's entries (the value of
// "requests"). The journal keeps the request whole (its credentials
// masked, which the mock's checks take as credentials sent), but of the
// answer only its status and body: the answer's headers are not judged.
// Left out are the webhooks and callbacks the mock sent (direction
// "outbound"), which no client sent. Of an answer the mock made itself,
// refusing the request (an entry with an error code), only the request
// is judged: the answer was the mock's, not the document's. What the
// journal clipped is not judged: a request whose path, query or headers
// it cut short is left out, a body it cut short is not judged, nor an
// answer's.
func readJournal(name string, raw json.RawMessage) ([]Exchange, error) {
	var es []journalEntry
	if err := json.Unmarshal(raw, &es); err != nil {
		return nil, fmt.Errorf("%s: a journal (GET /__admin/requests) whose requests cannot be read: %v", name, err)
	}
	out := make([]Exchange, 0, len(es))
	for i, e := range es {
		c := e.Clipped
		if e.Direction == "outbound" || c != nil && (c.Path > 0 || c.Query > 0 || c.Headers > 0) {
			continue
		}
		source := fmt.Sprintf("%s: seq %d", name, e.Seq)
		if e.Seq == 0 {
			source = fmt.Sprintf("%s: request %d", name, i+1)
		}
		header := http.Header{}
		for k, vs := range e.Header {
			for _, v := range vs {
				header.Add(k, unmasked(k, v))
			}
		}
		target := (&url.URL{Path: e.Path, RawQuery: e.Query}).String()
		r, err := newRequest(source, e.Method, target, header, journalBody(e.Body, header.Get("Content-Type")))
		if err != nil {
			return nil, err
		}
		x := Exchange{Source: source, Request: r, BodyCut: c != nil && c.Body > 0}
		x.Status, x.AnswerMocked = e.Status, e.Code != 0
		if e.Code == 0 {
			x.Answer, x.AnswerKnown = journalBody(e.Response, ""), c == nil || c.Response == 0
		}
		out = append(out, x)
	}
	return out, nil
}

// unmasked stands in for a credential of an Authorization header the
// journal masked ("Bearer ****wxyz"), which no scheme's syntax allows,
// with one of the same scheme that is well formed: the mock's checks
// without tokens configured take any such as sent. Other values, masked
// API keys and cookies among them, are well formed as they are.
func unmasked(name, v string) string {
	scheme, param, _ := strings.Cut(v, " ")
	if !strings.HasPrefix(param, "****") || !strings.EqualFold(name, "Authorization") && !strings.EqualFold(name, "Proxy-Authorization") {
		return v
	}
	if strings.EqualFold(scheme, "Basic") {
		return scheme + " " + base64.StdEncoding.EncodeToString([]byte("masked:masked"))
	}
	return scheme + " masked"
}

// journalBody is a body as the journal wrote it: JSON as itself, any
// other text as a JSON string. Of a request whose Content-Type is JSON,
// a string is the body as sent; otherwise, as the journal writes every
// body that is not JSON as a string, a string is that body's text.
func journalBody(raw json.RawMessage, contentType string) []byte {
	if len(raw) == 0 || string(raw) == "null" {
		return []byte{}
	}
	if raw[0] != '"' || jsonType(contentType) {
		return raw
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return raw
	}
	return []byte(s)
}

// jsonType reports whether a Content-Type is JSON's or one of its
// kind (application/problem+json).
func jsonType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}
