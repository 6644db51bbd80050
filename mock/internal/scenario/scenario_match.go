package scenario

import (
	"context"
	"net/http"

	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/state"
)

// Request is what a scenario's rules match a request on.
type Request struct {
	Op     *openapi.Operation
	Header http.Header
	Vals   []string // the path parameter values, in template order
	Token  string   // the bearer token or API key, if any
	Body   any      // the decoded JSON body; nil when there is none
}

// hitter counts a rule's matches in a session (state.Session does).
type hitter interface {
	Hit(ctx context.Context, r *state.Rule) (int64, error)
}

// Match returns the first rule of sc that answers req, with its 1-based
// count of answers in the session, and counts the match in sess. An
// error is the session's: its counts could not be read.
func (sc *Compiled) Match(ctx context.Context, req Request, sess hitter) (*Script, int64, error) {
	h := req.Header
	for _, rl := range sc.rules {
		if rl.ops != nil && !rl.ops[req.Op] {
			continue
		}
		ok := true
		for i := range rl.headers {
			if hm := &rl.headers[i]; len(h.Values(hm.name)) == 0 || !hm.m.match(h.Get(hm.name)) {
				ok = false
				break
			}
		}
		for _, pm := range rl.params {
			if pm.i >= len(req.Vals) || !pm.m.match(req.Vals[pm.i]) {
				ok = false
				break
			}
		}
		if !ok || rl.token != nil && (req.Token == "" || !rl.token.match(req.Token)) || rl.hasBody && !MatchPattern(rl.body, req.Body) {
			continue
		}
		n, err := sess.Hit(ctx, &rl.count)
		if err != nil {
			return nil, 0, err
		}
		if n == 0 || rl.times > 0 && n > rl.times {
			continue
		}
		return rl, n, nil
	}
	return nil, 0, nil
}
