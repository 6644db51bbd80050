package mock

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/media"
)

// Redacted replaces the values of recorded body properties named in
// Options.RecordRedact.
const Redacted = "REDACTED"

// SeedDataFile is the file a recording keeps the real service's
// resources in, in the form of --seed-data.
const SeedDataFile = "seed-data.json"

// recording writes what a proxy forwards as the mock's own inputs: a
// scenario file per operation, whose rules answer as the real service
// did, and seed data of the resources it returned. Files are rewritten
// after every exchange, so that a stopped mock loses nothing recorded.
type recording struct {
	dir    string
	redact map[string]bool // canonical header names and body property names

	mu        sync.Mutex // guards the rest
	ops       map[*plan][]recorded
	seed      map[string]map[string]any // collection path -> identifier -> resource
	seedOrder map[string][]string       // identifiers by first sight
}

// recorded is one exchange of an operation, as it will be replayed.
type recorded struct {
	params   map[string]string // the path parameters
	body     any               // the request's JSON body, redacted properties left out; nil for none
	header   http.Header       // the request's headers, credentials and noise left out
	status   int
	respHead map[string]string
	respBody any // nil when the answer was not JSON
	off      bool
}

// Headers never written: credentials, cookies, and what each exchange
// has anew.
var unrecorded = map[string]bool{
	"Authorization": true, "Proxy-Authorization": true, "Cookie": true, "Set-Cookie": true,
	"Content-Length": true, "Content-Type": true, "Date": true, "Connection": true, "Keep-Alive": true,
	"Transfer-Encoding": true, "Te": true, "Trailer": true, "Upgrade": true, "User-Agent": true,
	"Accept-Encoding": true, "X-Forwarded-For": true, "X-Forwarded-Host": true, "X-Forwarded-Proto": true,
	ViolationsHeader: true,
}

func newRecording(dir string, redact []string) (*recording, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, &ProxyError{fmt.Errorf("record: %v", err)}
	}
	r := &recording{dir: dir, redact: map[string]bool{}, ops: map[*plan][]recorded{},
		seed: map[string]map[string]any{}, seedOrder: map[string][]string{}}
	for _, n := range redact {
		r.redact[n] = true
		r.redact[http.CanonicalHeaderKey(n)] = true
	}
	return r, nil
}

// keeps reports whether a header is written.
func (r *recording) keeps(name, token string, values []string) bool {
	name = http.CanonicalHeaderKey(name)
	if unrecorded[name] || r.redact[name] || strings.HasPrefix(name, "X-Mock-") {
		return false
	}
	for _, v := range values {
		if token != "" && strings.Contains(v, token) {
			return false // an API key in a header of its own
		}
	}
	return true
}

// add records a proxied exchange the real service answered, and writes
// the operation's scenario and the seed data again.
func (r *recording) add(x *exchange, e *Entry) error {
	pl := x.plan
	rec := recorded{header: http.Header{}, status: x.w.status, respHead: map[string]string{}}
	if names := pl.route.Params; len(names) > 0 && len(names) == len(x.vals) {
		rec.params = map[string]string{}
		for i, n := range names {
			rec.params[n] = x.vals[i]
		}
	}
	for _, v := range e.Violations {
		rec.off = rec.off || v.Direction == "response"
	}
	if len(x.raw) > 0 {
		if v, err := jsonx.Decode(x.raw); err == nil {
			rec.body = r.drop(v)
		}
	}
	for name, vs := range x.client.Header {
		if r.keeps(name, x.cred.token, vs) {
			rec.header[name] = vs
		}
	}
	for name, vs := range x.w.Header() {
		if r.keeps(name, x.cred.token, vs) {
			rec.respHead[name] = strings.Join(vs, ", ")
		}
	}
	if media.KindOf(x.w.Header().Get("Content-Type")) == media.JSON {
		if v, err := jsonx.Decode(x.w.body); err == nil {
			var changed bool
			rec.respBody, changed = r.mask(v)
			rec.off = rec.off || changed
			r.keepResources(pl, x, rec.status, v)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops[pl] = append(r.ops[pl], rec)
	if err := r.writeScenario(pl); err != nil {
		return err
	}
	return r.writeSeed()
}

// drop leaves out the redacted properties of a request body, so that the
// rest still matches on replay.
func (r *recording) drop(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if !r.redact[k] {
				out[k] = r.drop(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = r.drop(x)
		}
		return out
	}
	return v
}

// mask replaces the values of redacted properties of an answer, and says
// whether it did.
func (r *recording) mask(v any) (any, bool) {
	changed := false
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if r.redact[k] {
				out[k], changed = Redacted, true
				continue
			}
			var c bool
			out[k], c = r.mask(x)
			changed = changed || c
		}
		return out, changed
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			var c bool
			out[i], c = r.mask(x)
			changed = changed || c
		}
		return out, changed
	}
	return v, false
}

// keepResources notes the resources a successful answer of a collection's
// operation holds: the object, or the list's objects, with an identifier.
func (r *recording) keepResources(pl *plan, x *exchange, status int, v any) {
	c := pl.col
	if c == nil || c.idProp == "" || status < 200 || status > 299 {
		return
	}
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	col := c.key(x.vals)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, it := range items {
		obj, ok := it.(map[string]any)
		if !ok || obj[c.idProp] == nil {
			continue
		}
		masked, _ := r.mask(obj)
		id := string(jsonx.Marshal(obj[c.idProp]))
		if r.seed[col] == nil {
			r.seed[col] = map[string]any{}
		}
		if _, seen := r.seed[col][id]; !seen {
			r.seedOrder[col] = append(r.seedOrder[col], id)
		}
		r.seed[col][id] = masked
	}
}

// writeScenario writes the scenario of an operation: a rule per distinct
// request, in the order first seen (requests with more body properties
// first, so that a smaller recorded body does not answer for them); a
// request recorded with several answers gets them in turn, the last one
// from then on. r.mu is held.
func (r *recording) writeScenario(pl *plan) error {
	recs := r.ops[pl]
	// The request headers that tell requests apart: those whose values
	// differ between the recorded requests, or that only some have.
	varying, first, seen := map[string]bool{}, map[string]string{}, map[string]int{}
	for _, rec := range recs {
		for name, vs := range rec.header {
			v := strings.Join(vs, ",")
			if f, ok := first[name]; !ok {
				first[name] = v
			} else if f != v {
				varying[name] = true
			}
			seen[name]++
		}
	}
	for name, n := range seen {
		if n < len(recs) {
			varying[name] = true
		}
	}
	type group struct {
		when When
		recs []recorded
		keys int
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, rec := range recs {
		w := When{Operation: pl.op.Name, Params: rec.params, Body: rec.body}
		for name := range varying {
			if vs := rec.header[name]; len(vs) > 0 {
				if w.Headers == nil {
					w.Headers = map[string]string{}
				}
				w.Headers[name] = vs[0]
			}
		}
		k, _ := json.Marshal([]any{rec.body, w.Headers, w.Params}) // maps sorted by key
		key := string(k)
		g := byKey[key]
		if g == nil {
			g = &group{when: w}
			if obj, ok := rec.body.(map[string]any); ok {
				g.keys = len(obj)
			}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.recs = append(g.recs, rec)
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].keys > groups[j].keys })
	sc := Scenario{Name: recordedName(pl.op.Method, pl.op.Path), Description: "answers of the real service to " + pl.op.Name + ", recorded by plantmock --record"}
	for _, g := range groups {
		for i, rec := range g.recs {
			rl := Rule{When: g.when, Respond: Respond{Status: rec.status, Body: rec.respBody}, OffContract: rec.off}
			if len(rec.respHead) > 0 {
				rl.Respond.Headers = rec.respHead
			}
			if i < len(g.recs)-1 {
				rl.Times = 1
			}
			sc.Rules = append(sc.Rules, rl)
		}
	}
	b, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(r.dir, sc.Name+".yaml", append(b, '\n'))
}

// writeSeed writes the resources seen, by collection. r.mu is held.
func (r *recording) writeSeed() error {
	if len(r.seed) == 0 {
		return nil
	}
	out := map[string][]any{}
	for col, ids := range r.seedOrder {
		for _, id := range ids {
			out[col] = append(out[col], r.seed[col][id])
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(r.dir, SeedDataFile, append(b, '\n'))
}
