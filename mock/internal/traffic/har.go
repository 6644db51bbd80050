package traffic

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// harLog is the part of an HTTP Archive's log (HAR 1.2) that is read.
type harLog struct {
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
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// readHAR reads the exchanges of an HTTP Archive's log, as browsers'
// developer tools and most proxies export it: requests and answers
// whole, headers and all. An entry whose response status is 0 (HAR's
// for no answer) has its request judged alone.
func readHAR(name string, raw json.RawMessage) ([]Exchange, error) {
	var l harLog
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("%s: an HTTP Archive (HAR) whose log cannot be read: %v", name, err)
	}
	out := make([]Exchange, 0, len(l.Entries))
	for i, he := range l.Entries {
		source := fmt.Sprintf("%s: entry %d", name, i+1)
		req := he.Request
		header := http.Header{}
		for _, h := range req.Headers {
			if !strings.HasPrefix(h.Name, ":") { // HTTP/2 pseudo-headers
				header.Add(h.Name, h.Value)
			}
		}
		var body string
		if req.PostData != nil {
			body = req.PostData.Text
			if header.Get("Content-Type") == "" && req.PostData.MimeType != "" {
				header.Set("Content-Type", req.PostData.MimeType)
			}
		}
		r, err := newRequest(source, req.Method, req.URL, header, []byte(body))
		if err != nil {
			return nil, err
		}
		x := Exchange{Source: source, Request: r, Status: he.Response.Status}
		if x.Status != 0 {
			resp := he.Response
			x.AnswerHeader = http.Header{}
			for _, h := range resp.Headers {
				x.AnswerHeader.Add(h.Name, h.Value)
			}
			if x.AnswerHeader.Get("Content-Type") == "" && resp.Content.MimeType != "" {
				x.AnswerHeader.Set("Content-Type", resp.Content.MimeType)
			}
			x.Answer, x.AnswerKnown = []byte(resp.Content.Text), true
			if resp.Content.Encoding == "base64" {
				if x.Answer, err = base64.StdEncoding.DecodeString(resp.Content.Text); err != nil {
					return nil, fmt.Errorf("%s: the response body is not base64: %v", source, err)
				}
			}
		}
		out = append(out, x)
	}
	return out, nil
}
