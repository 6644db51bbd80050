package traffic

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// recordedRule is the part of a rule of a recorded scenario that is
// read: a rule is one exchange the proxy forwarded (see the package
// record).
type recordedRule struct {
	When struct {
		Operation string            `json:"operation"`
		Params    map[string]string `json:"params"`
		Headers   map[string]string `json:"headers"`
		Body      json.RawMessage   `json:"body"`
	} `json:"when"`
	Respond struct {
		Status int             `json:"status"`
		Body   json.RawMessage `json:"body"`
	} `json:"respond"`
}

// readScenario reads the exchanges of a scenario file a recording of
// --record wrote (top is its JSON object), a rule each. A recording
// keeps of a request its operation, its path parameters, its JSON body
// (redacted properties left out) and the headers that told it apart
// from the operation's other requests; not its query, its credentials
// nor its other headers: so of a recorded request only the route and
// the body are judged. Of an answer it keeps the status and a JSON body,
// not its headers (nor its Content-Type): so those are judged, the
// body as JSON, and an answer that was not JSON by its status alone.
func readScenario(name string, top map[string]json.RawMessage) ([]Exchange, error) {
	var rules []recordedRule
	if err := json.Unmarshal(top["rules"], &rules); err != nil {
		return nil, fmt.Errorf("%s: a scenario file whose rules cannot be read: %v", name, err)
	}
	out := make([]Exchange, 0, len(rules))
	for i, rl := range rules {
		source := fmt.Sprintf("%s: rule %d", name, i+1)
		method, path, ok := strings.Cut(rl.When.Operation, " ")
		if !ok || rl.Respond.Status == 0 {
			return nil, fmt.Errorf("%s: not a rule a recording of --record wrote: it needs when.operation (\"POST /plants\") and respond.status", source)
		}
		for k, v := range rl.When.Params {
			path = strings.ReplaceAll(path, "{"+k+"}", url.PathEscape(v))
		}
		header := http.Header{}
		for k, v := range rl.When.Headers {
			header.Set(k, v)
		}
		var body []byte
		if b := rl.When.Body; len(b) > 0 && string(b) != "null" {
			body = b
			header.Set("Content-Type", "application/json") // a recording keeps JSON bodies alone
		}
		r, err := newRequest(source, method, path, header, body)
		if err != nil {
			return nil, err
		}
		x := Exchange{Source: source, Request: r, Partial: true, Status: rl.Respond.Status}
		if b := rl.Respond.Body; len(b) > 0 && string(b) != "null" {
			x.Answer, x.AnswerKnown = b, true
		}
		out = append(out, x)
	}
	return out, nil
}
