package record

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// recordFiles is what a recording's snapshots have built from the
// exchanges taken so far, and which files are behind it. Only snapshot
// reads and writes it, under Recording.snap.
type recordFiles struct {
	ops       map[string]*recordedOp    // by scenario name
	seed      map[string]map[string]any // collection path -> identifier -> resource
	seedOrder map[string][]string       // identifiers by first sight
	dirty     map[string]bool           // scenarios with exchanges not yet written
	seedDirty bool                      // resources seen since the seed data was last written
}

// recordedOp is the exchanges of one operation, as they will be replayed.
type recordedOp struct {
	op   string // the operation's name, "POST /plants"
	recs []recorded
}

// recorded is one exchange of an operation, as it will be replayed.
type recorded struct {
	params   map[string]string // the path parameters
	body     any               // the request's JSON body, redacted properties left out; nil for none
	header   http.Header       // the request's headers, credentials and noise left out
	status   int
	respHead map[string]string
	respBody any   // nil when the answer was not JSON
	items    []any // the items of an answer that was a stream; nil for others
	done     bool  // that stream ended with the end marker, data: [DONE]
	off      bool
}

func newRecordFiles() recordFiles {
	return recordFiles{ops: map[string]*recordedOp{}, seed: map[string]map[string]any{},
		seedOrder: map[string][]string{}, dirty: map[string]bool{}}
}

// Snapshot writes the recording's files: the scenario of each operation
// with exchanges taken since the last snapshot, and the seed data when it
// changed or the folder has none (as "{}" when no answer held a resource,
// so that --seed-data always has a file to read, while the seed data of
// an earlier recording in the folder is not emptied by one that saw no
// resource). It returns the names of the
// files written, sorted. Requests go on meanwhile: it takes the exchanges
// under r.mu, then decodes and writes without it. A file that could not
// be written is tried again by the next snapshot.
func (r *Recording) Snapshot() ([]string, error) {
	r.snap.Lock()
	defer r.snap.Unlock()
	r.Mu.Lock()
	taken := r.taken
	r.taken = nil
	r.Mu.Unlock()
	f := &r.files
	for i := range taken {
		r.build(&taken[i])
	}
	names := make([]string, 0, len(f.dirty))
	for name := range f.dirty {
		names = append(names, name)
	}
	sort.Strings(names)
	var written []string
	var errs []error
	for _, name := range names {
		b, err := f.scenario(name)
		if err == nil {
			err = WriteFile(r.dir, name+".yaml", b)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		delete(f.dirty, name)
		written = append(written, name+".yaml")
	}
	if _, err := os.Lstat(filepath.Join(r.dir, SeedDataFile)); f.seedDirty || errors.Is(err, fs.ErrNotExist) {
		b, err := f.seedData()
		if err == nil {
			err = WriteFile(r.dir, SeedDataFile, b)
		}
		if err != nil {
			errs = append(errs, err)
		} else {
			f.seedDirty = false
			written = append(written, SeedDataFile)
		}
	}
	sort.Strings(written)
	return written, errors.Join(errs...)
}

// build decodes a taken exchange into its operation's rules and the seed
// data. r.snap is held.
func (r *Recording) build(t *taken) {
	f := &r.files
	rec := recorded{params: t.params, header: t.header, status: t.status, respHead: t.respHead, off: t.off}
	if len(t.body) > 0 {
		if v, err := jsonx.Decode(t.body); err == nil {
			rec.body = r.drop(v)
		}
	}
	if t.items != nil {
		if items, done, err := t.items.ReadItems(t.respBody, t.itemsCT); err == nil {
			v, changed := r.mask(items)
			rec.items, _ = v.([]any)
			rec.done = done
			rec.off = rec.off || changed
		}
	} else if t.respBody != nil {
		if v, err := jsonx.Decode(t.respBody); err == nil {
			var changed bool
			rec.respBody, changed = r.mask(v)
			rec.off = rec.off || changed
			if t.col != "" {
				r.keepResources(t.col, t.idProp, v)
			}
		}
	}
	op := f.ops[t.name]
	if op == nil {
		op = &recordedOp{op: t.op}
		f.ops[t.name] = op
	}
	op.recs = append(op.recs, rec)
	f.dirty[t.name] = true
}

// drop leaves out the redacted properties of a request body, so that the
// rest still matches on replay.
func (r *Recording) drop(v any) any {
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
func (r *Recording) mask(v any) (any, bool) {
	changed := false
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if r.redact[k] {
				out[k], changed = redactedText, true
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
// r.snap is held.
func (r *Recording) keepResources(col, idProp string, v any) {
	f := &r.files
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	for _, it := range items {
		obj, ok := it.(map[string]any)
		if !ok || obj[idProp] == nil {
			continue
		}
		masked, _ := r.mask(obj)
		id := string(jsonx.Marshal(obj[idProp]))
		if f.seed[col] == nil {
			f.seed[col] = map[string]any{}
		}
		old, seen := f.seed[col][id]
		if !seen {
			f.seedOrder[col] = append(f.seedOrder[col], id)
		}
		if !seen || !reflect.DeepEqual(old, masked) {
			f.seed[col][id] = masked
			f.seedDirty = true
		}
	}
}

// scenario returns the scenario file of an operation: a rule per
// distinct request, in the order first seen (requests with more body
// properties first, so that a smaller recorded body does not answer for
// them); a request recorded with several answers gets them in turn, the
// last one from then on.
func (f *recordFiles) scenario(name string) ([]byte, error) {
	op := f.ops[name]
	recs := op.recs
	// The request headers that tell requests apart: those whose values
	// differ between the recorded requests, or that only some have.
	varying, first, seen := map[string]bool{}, map[string]string{}, map[string]int{}
	for _, rec := range recs {
		for name, vs := range rec.header {
			v := strings.Join(vs, ",")
			if was, ok := first[name]; !ok {
				first[name] = v
			} else if was != v {
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
		when scenario.When
		recs []recorded
		keys int
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, rec := range recs {
		w := scenario.When{Operation: op.op, Params: rec.params, Body: rec.body}
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
	sc := scenario.Scenario{Name: name, Description: "answers of the real service to " + op.op + ", recorded by plantmock --record"}
	for _, g := range groups {
		for i, rec := range g.recs {
			rl := scenario.Rule{When: g.when, Respond: scenario.Respond{Status: rec.status, Body: rec.respBody}, OffContract: rec.off}
			if rec.items != nil {
				rl.Respond.Stream = &scenario.Stream{Items: rec.items, Done: rec.done}
			}
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
	return append(b, '\n'), err
}

// seedData returns the seed data file: the resources seen, by collection.
func (f *recordFiles) seedData() ([]byte, error) {
	out := map[string][]any{}
	for col, ids := range f.seedOrder {
		for _, id := range ids {
			out[col] = append(out[col], f.seed[col][id])
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	return append(b, '\n'), err
}
