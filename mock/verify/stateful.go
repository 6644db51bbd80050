package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// sequenceSeed sets the stateful creates' values apart from the
// positive checks', so that their identifiers differ.
const sequenceSeed = 0x5eed5eed

// sequence is a collection whose items can be created and read: the
// create (POST /things), the read (GET /things/{id}) and, when selected,
// the list (GET /things), the replace (PUT /things/{id}), the merge
// (PATCH /things/{id}) and the delete (DELETE /things/{id}).
type sequence struct {
	create, read                 *openapi.Operation
	list, replace, merge, remove *openapi.Operation
	param                        *openapi.Param // the read's identifier
	// upsert is set where the create is the item's PUT with an
	// identifier the client chooses (PUT /genres/{genreId}): the item's
	// identifier is the path's value, and the create is not repeated.
	upsert bool
	// parents are the sequences that make the items the create's path
	// names (/genres/{genreId} for POST /genres/{genreId}/books), by
	// the create's path parameter, nil where none makes them.
	parents map[string]*sequence
	// fields are the sequences that make the items the create's body
	// names by a property called as their identifier parameter
	// (genreId in the body of POST /books, where GET /genres/{genreId}
	// reads genres), by property.
	fields map[string]*sequence
}

// sequences finds the collections of ops whose items can be created
// and read. Every step is an operation that declares a success (see
// canStep): one that declares only refusals (a create with only 405)
// cannot be held to succeeding.
func sequences(doc *openapi.Document, ops []*openapi.Operation) []sequence {
	var out []sequence
	for _, c := range ops {
		if c.Method != http.MethodPost || c.Body == nil || c.Body.JSON() == nil || !canStep(c) {
			continue
		}
		seq := sequence{create: c}
		for _, o := range ops {
			if o.Method == http.MethodGet && o.Path == c.Path {
				seq.list = o
				continue
			}
			dir, last := path.Split(o.Path)
			if strings.TrimSuffix(dir, "/") != strings.TrimSuffix(c.Path, "/") || !strings.HasPrefix(last, "{") || !strings.HasSuffix(last, "}") || !canStep(o) {
				continue
			}
			switch o.Method {
			case http.MethodGet:
				seq.read = o
				seq.param = pathParam(o, last[1:len(last)-1])
			case http.MethodPut:
				seq.replace = o
			case http.MethodPatch:
				seq.merge = o
			case http.MethodDelete:
				seq.remove = o
			}
		}
		if seq.read != nil && seq.param != nil {
			out = append(out, seq)
		}
	}
	return parented(doc, append(out, upserts(ops, out)...))
}

// upserts finds the items ops make by PUT at the item's own path with
// a JSON body, where no POST of the collection makes them (as seqs
// hold): the client chooses the identifier, and the same PUT updates
// the item once it is there.
func upserts(ops []*openapi.Operation, seqs []sequence) []sequence {
	var out []sequence
	for _, put := range ops {
		dir, last := path.Split(put.Path)
		if put.Method != http.MethodPut || put.Body == nil || put.Body.JSON() == nil || !canStep(put) || !strings.HasPrefix(last, "{") || !strings.HasSuffix(last, "}") {
			continue
		}
		collection := strings.TrimSuffix(dir, "/")
		if slices.ContainsFunc(seqs, func(s sequence) bool { return strings.TrimSuffix(s.create.Path, "/") == collection }) {
			continue
		}
		seq := sequence{create: put, replace: put, upsert: true}
		for _, o := range ops {
			switch {
			case o.Path == put.Path && canStep(o) && o.Method == http.MethodGet:
				seq.read = o
				seq.param = pathParam(o, last[1:len(last)-1])
			case o.Path == put.Path && canStep(o) && o.Method == http.MethodPatch:
				seq.merge = o
			case o.Path == put.Path && canStep(o) && o.Method == http.MethodDelete:
				seq.remove = o
			case o.Method == http.MethodGet && strings.TrimSuffix(o.Path, "/") == collection:
				seq.list = o
			}
		}
		if seq.read != nil && seq.param != nil && represents(put, seq.read) {
			out = append(out, seq)
		}
	}
	return out
}

// represents reports whether the PUT put sends or answers the item the
// read answers (one schema, by reference or name): a PUT that replaces
// the item by its representation, as RFC 9110 9.3.4 has it, not one
// whose body is a command about it (GitHub's PUT of a file's contents
// takes a commit message and the content in base64, and answers a
// commit).
func represents(put, read *openapi.Operation) bool {
	item := success(read)
	if item == nil {
		return false
	}
	same := func(s *openapi.Schema) bool { return s != nil && (s.Same(item) || s.Name != "" && s.Name == item.Name) }
	return same(put.Body.JSON().Schema) || same(success(put))
}

// parented sets each sequence's parents, the sequences whose item path
// is a prefix of its create's path (/genres/{genreId} of
// /genres/{genreId}/books), or whose create's answer links to its
// create with a value for a path parameter (a link whose operationId
// is createBook, parameters {genreId: $response.body#/id}); and orders
// them so that parents come first (then by path), so that a nested
// create is made on items that exist.
func parented(doc *openapi.Document, seqs []sequence) []sequence {
	slices.SortStableFunc(seqs, func(a, b sequence) int {
		return len(templateParams(a.create.Path)) - a.upsertDepth() - len(templateParams(b.create.Path)) + b.upsertDepth()
	})
	for i := range seqs {
		names := templateParams(seqs[i].create.Path)
		if seqs[i].upsert {
			names = names[:len(names)-1] // the item's own
		}
		for k, name := range names {
			for j := range seqs {
				p := &seqs[j]
				if j == i || p.read == nil || len(templateParams(p.read.Path)) != k+1 || !strings.HasPrefix(seqs[i].create.Path, p.read.Path) || p.param.Name != templateParams(p.read.Path)[k] {
					continue
				}
				if seqs[i].parents == nil {
					seqs[i].parents = map[string]*sequence{}
				}
				seqs[i].parents[name] = p
				break
			}
			if seqs[i].parents[name] != nil {
				continue
			}
			for j := range seqs {
				if j != i && linksTo(doc, seqs[j].create, seqs[i].create, name) {
					if seqs[i].parents == nil {
						seqs[i].parents = map[string]*sequence{}
					}
					seqs[i].parents[name] = &seqs[j]
					break
				}
			}
		}
	}
	for i := range seqs {
		m := seqs[i].create.Body.JSON()
		if m == nil || m.Schema == nil || seqs[i].upsert {
			continue
		}
		for _, pr := range m.Schema.Properties {
			if pr.Schema == nil || pr.Schema.ReadOnly || !identifierName(pr.Name) || pr.Name == seqs[i].param.Name {
				continue
			}
			for j := range seqs {
				if j != i && seqs[j].param.Name == pr.Name && seqs[j].parents[pr.Name] == nil && seqs[j].fields[pr.Name] == nil {
					if seqs[i].fields == nil {
						seqs[i].fields = map[string]*sequence{}
					}
					seqs[i].fields[pr.Name] = &seqs[j]
					break
				}
			}
		}
	}
	return seqs
}

// identifierName reports whether a property's name says it holds
// another item's identifier: genreId, genre_id, genreID, authorKey.
func identifierName(name string) bool {
	for _, suffix := range []string{"Id", "_id", "ID", "Key", "_key"} {
		if len(name) > len(suffix) && strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// linksTo reports whether a success answer of from links to to with a
// value for its path parameter name.
func linksTo(doc *openapi.Document, from, to *openapi.Operation, name string) bool {
	for _, resp := range from.Responses {
		if resp.Code < 200 || resp.Code > 299 {
			continue
		}
		for _, lk := range resp.Links {
			if doc.LinkTarget(lk) != to {
				continue
			}
			if _, ok := lk.Parameters[name]; ok {
				return true
			}
			if _, ok := lk.Parameters["path."+name]; ok {
				return true
			}
		}
	}
	return false
}

// String names the sequence by its create, and the items it makes
// first: "POST /genres/{genreId}/books, after PUT /genres/{genreId} for
// genreId".
func (s sequence) String() string {
	out := s.create.Name
	names := templateParams(s.create.Path)
	var after []string
	for _, n := range names {
		if p := s.parents[n]; p != nil {
			after = append(after, p.create.Name+" for "+n)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(s.fields)) {
		after = append(after, s.fields[f].create.Name+" for "+f+" (body)")
	}
	if len(after) > 0 {
		out += ", after " + strings.Join(after, ", ")
	}
	return out
}

// upsertDepth is 1 for an upsert, whose create's path names its own
// item too, else 0: the number of its parents' parameters is that of
// its path less this.
func (s sequence) upsertDepth() int {
	if s.upsert {
		return 1
	}
	return 0
}

// canStep reports whether op can be a step of a sequence: it declares a
// success, a 2xx status, 2XX, or default (which stands for every status
// not listed). A redirect is no success here: the step's item is not in
// its answer.
func canStep(op *openapi.Operation) bool {
	code, r := op.Success()
	return r != nil && code >= 200 && code <= 299
}

func pathParam(op *openapi.Operation, name string) *openapi.Param { return param(op, "path", name) }

// stateful runs each sequence of seqs (see sequences): create an item;
// read it back and compare (readOnly and writeOnly properties aside);
// find it in the list; create it again where the client chooses its
// identifier, which must be refused; replace it and merge into it,
// reading it back after each; delete it, and read it again, which must
// be refused with the declared not-found. A step that fails ends its
// sequence, but for the list and the repeated create, which change
// nothing the later steps need.
func (r *runner) stateful(ctx context.Context, seqs []sequence) error {
	if slices.ContainsFunc(seqs, func(s sequence) bool { return len(s.parents) > 0 || len(s.fields) > 0 }) {
		for _, seq := range seqs {
			r.rep.Order = append(r.rep.Order, seq.String())
		}
	}
	for i, seq := range seqs {
		if err := r.sequence(ctx, seq, r.opts.Seed*0x9e3779b97f4a7c15+sequenceSeed+uint64(i)); err != nil {
			return err
		}
	}
	return nil
}

// created is an item a sequence made: the create's call and answer, and
// its identifier.
type created struct {
	call *exercise.Call
	sent *sent
	id   string
	// prop is the property the identifier was read from, of the
	// create's answer or request; "" when a link or Location gave it.
	prop string
}

func (r *runner) sequence(ctx context.Context, seq sequence, seed uint64) error {
	it, err := r.make(ctx, &seq, seed, "create", 0)
	if err != nil || it == nil {
		return err
	}
	c := it.call
	got, err := r.readBack(ctx, seq, it, seed, "read after create", c)
	if err != nil || got == nil || got.err != nil || got.resp.StatusCode > 299 {
		return err
	}
	if err := r.listed(ctx, seq, it, seed); err != nil {
		return err
	}
	if !seq.upsert {
		if err := r.repeated(ctx, seq, it); err != nil {
			return err
		}
	}
	for _, up := range []*openapi.Operation{seq.replace, seq.merge} {
		ok, err := r.updated(ctx, seq, up, it, seed)
		if err != nil || !ok {
			return err
		}
	}
	return r.removed(ctx, seq, it, seed)
}

// maxParents bounds how many generations of parents a create makes
// first.
const maxParents = 8

// make creates an item of seq, its parents first (see parented), as
// the step name says: nil when the create was refused, or its item has
// no identifier (the report says why).
func (r *runner) make(ctx context.Context, seq *sequence, seed uint64, name string, depth int) (*created, error) {
	c, err := r.call(seq.create, seed)
	if err != nil {
		return nil, nil // the positive checks said why
	}
	if _, fixed := r.fixture(seq.param.Name); fixed && seq.upsert {
		// An item of its own, not the set-up's, which the sequence
		// would change and delete.
		if own, err := exercise.Make(seq.create, seed^parentSeed); err == nil {
			c.Values["path."+seq.param.Name] = own.Values["path."+seq.param.Name]
		}
	}
	var madeUp []string // the parents' parameters no parent was made for
	for _, pn := range templateParams(seq.create.Path) {
		parent := seq.parents[pn]
		if parent == nil {
			if v, ok := r.fixture(pn); ok && (!seq.upsert || pn != seq.param.Name) {
				c.Values["path."+pn] = v // an item the set-up made
			} else if !seq.upsert || pn != seq.param.Name {
				madeUp = append(madeUp, pn)
			}
			continue
		}
		if depth >= maxParents {
			return nil, nil
		}
		p, err := r.make(ctx, parent, seed^uint64(depth+1)*parentSeed, "create parent "+pn+" of "+seq.create.Name, depth+1)
		if err != nil || p == nil {
			return nil, err
		}
		within(c, p, pn)
		c.Values["path."+pn], _ = p.idValue(parent.param)
		if v := r.linkValue(parent.create, seq.create, pn, p.sent, p.call); v != "" {
			c.Values["path."+pn] = v // the value the parent's answer links the create with
		}
	}
	if obj, ok := c.Body.(map[string]any); ok {
		for _, field := range slices.Sorted(maps.Keys(seq.fields)) {
			parent := seq.fields[field]
			if depth >= maxParents {
				return nil, nil
			}
			p, err := r.make(ctx, parent, seed^uint64(depth+1)*parentSeed^fieldSeed, "create "+field+" of "+seq.create.Name, depth+1)
			if err != nil || p == nil {
				return nil, err
			}
			v, _ := p.idValue(parent.param)
			obj[field] = v
		}
		if len(seq.fields) > 0 && c.Media != nil && c.Media.Schema != nil && len(c.Media.Schema.ValidateRequest(obj)) > 0 {
			return nil, nil // the identifiers do not fit the body's schema: no create to judge
		}
	}
	req, body, err := r.prepare(c)
	if err != nil {
		return nil, nil
	}
	s, err := r.send(ctx, seq.create, "stateful", name, req, body, func(s *sent) []*Failure {
		out := r.judgePositive(c)(s)
		code := s.resp.StatusCode
		switch {
		case code <= 299 || code >= 500 || code == http.StatusBadRequest || code == http.StatusUnprocessableEntity:
		case code == http.StatusNotFound && seq.upsert && seq.create.Declares(http.StatusNotFound):
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("a valid create by PUT was refused with 404: %s", oneLine(string(s.answer), 200)),
				Why: "the PUT declares 404: it may update only an item that exists (or one deleted stays gone), and make none"})
		case code == http.StatusNotFound && len(madeUp) > 0:
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("a valid create was refused with 404: %s", oneLine(string(s.answer), 200)),
				Why: fmt.Sprintf("its path's %s names an item no operation of the document makes, made up here: a 404 may be right", strings.Join(madeUp, ", "))})
		default:
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("a valid create was refused with %d: %s", code, oneLine(string(s.answer), 200))})
		}
		return out
	})
	if depth == 0 {
		r.taken.take(c, s)
	}
	if err != nil || s == nil || s.err != nil || s.resp.StatusCode > 299 {
		return nil, err
	}
	it := &created{call: c, sent: s}
	switch {
	case seq.upsert:
		it.id = fmt.Sprint(c.Values["path."+seq.param.Name])
	default:
		it.id = r.linked(*seq, s, c)
		if it.id == "" {
			it.id, it.prop = identifier(s, c, seq.param.Name)
		}
	}
	if it.id == "" {
		r.rep.Unmade = append(r.rep.Unmade, fmt.Sprintf("%s: stateful: no identifier of the created item in a link, Location, the answer or the request (%s)", seq.create.Name, seq.param.Name))
		return nil, nil
	}
	r.made[it.id] = true
	return it, nil
}

// parentSeed sets a parent's values apart from its child's, and
// fieldSeed those of an item a body names apart from a path's.
const (
	parentSeed = 0x9a4e47
	fieldSeed  = 0xf1e1d
)

// idValue is the item's identifier as a value of parameter p: a number
// where p takes only numbers, else the string.
func (it *created) idValue(p *openapi.Param) (any, bool) {
	if it.id == "" {
		return nil, false
	}
	if p != nil && p.Schema != nil && (p.Schema.Is("integer") || p.Schema.Is("number")) && !p.Schema.Is("string") {
		return json.Number(it.id), true
	}
	return it.id, true
}

// readBack reads the item it and compares the answer with what c, the
// create or the update before, sent; writeOnly values c sent must not
// come back.
func (r *runner) readBack(ctx context.Context, seq sequence, it *created, seed uint64, name string, c *exercise.Call) (*sent, error) {
	return r.readItem(ctx, seq, it, seed, name, func(rc *exercise.Call) func(*sent) []*Failure {
		return func(s *sent) []*Failure {
			out := r.judgePositive(rc)(s)
			out = append(out, leaks(seq.read, c, s)...)
			return append(out, compare(seq.read, c, s)...)
		}
	})
}

// readItem sends the read of the item it, judged by judge.
func (r *runner) readItem(ctx context.Context, seq sequence, it *created, seed uint64, name string, judge func(*exercise.Call) func(*sent) []*Failure) (*sent, error) {
	rc, err := r.addressed(seq.read, seq.param, it, seed)
	if err != nil {
		r.rep.Unmade = append(r.rep.Unmade, "stateful: "+err.Error())
		return nil, nil
	}
	req, body, err := r.prepare(rc)
	if err != nil {
		r.rep.Unmade = append(r.rep.Unmade, "stateful: "+err.Error())
		return nil, nil
	}
	return r.send(ctx, seq.read, "stateful", name, req, body, judge(rc))
}

// removed deletes the item it, where the sequence has a delete, and
// reads it again, as judgeGone judges.
func (r *runner) removed(ctx context.Context, seq sequence, it *created, seed uint64) error {
	if seq.remove == nil {
		return nil
	}
	dc, err := r.addressed(seq.remove, pathParam(seq.remove, seq.param.Name), it, seed)
	if err != nil {
		r.rep.Unmade = append(r.rep.Unmade, "stateful: "+err.Error())
		return nil
	}
	req, body, err := r.prepare(dc)
	if err != nil {
		return nil
	}
	id := it.id
	s, err := r.send(ctx, seq.remove, "stateful", "delete after create", req, body, func(s *sent) []*Failure {
		out := r.judgePositive(dc)(s)
		if s.resp.StatusCode > 299 {
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("the delete of the item just created (%s) answered %d", id, s.resp.StatusCode)})
		}
		return out
	})
	if err != nil || s == nil || s.err != nil || s.resp.StatusCode > 299 {
		return err
	}
	_, err = r.readItem(ctx, seq, it, seed, "read after delete", func(rc *exercise.Call) func(*sent) []*Failure {
		return r.judgeGone(rc, id)
	})
	return err
}

// whyNoGone is why a deleted item's read that succeeds is advice where
// the read declares no way to say the item is not there.
const whyNoGone = "the read declares no status for an item that is not there (404, 410, 400, 422, or another 4xx but 401), so the document gives it no way to say the item was deleted"

// judgeGone judges the read of the item just deleted (id), c: any 4xx
// the read declares is right (the rules of a declared answer hold, as
// for any), and 404 is preferred where declared: another declared 4xx
// is advice. A success is a failure where the read declares a status
// for an item that is not there (openapi.Operation.NotFound), else
// advice. A declared 400 or 422 is no "valid input refused" here.
func (r *runner) judgeGone(c *exercise.Call, id string) func(*sent) []*Failure {
	return func(s *sent) []*Failure {
		var out []*Failure
		for _, p := range r.keepable(exercise.Judge(r.doc, c.Op, s.resp, s.answer)) {
			out = append(out, &Failure{Rule: p.Kind, Text: p.Text, Schema: p.Schema})
		}
		code, want := s.resp.StatusCode, c.Op.NotFound()
		switch {
		case code >= 400 && code <= 499:
			if code != http.StatusNotFound && c.Op.Declares(http.StatusNotFound) && c.Op.Response(code) != nil {
				out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("the read of a deleted item (%s) answered %d; the read declares 404, the status for an item that is not there", id, code),
					Why: "any 4xx the read declares says the item is gone; 404 is the one meant for it"})
			}
		case code >= 500:
		case want != 0:
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("the read of a deleted item (%s) answered %d, not the declared %d", id, code, want)})
		default:
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("the read of a deleted item (%s) answered %d", id, code), Why: whyNoGone})
		}
		return out
	}
}

// addressed is a valid call of op with its identifier parameter p set
// to the identifier of the item it, in the collection it is in (see
// within).
func (r *runner) addressed(op *openapi.Operation, p *openapi.Param, it *created, seed uint64) (*exercise.Call, error) {
	if p == nil {
		return nil, &exercise.Error{Op: op.Name, Reason: "no identifier parameter"}
	}
	c, err := exercise.Make(op, seed)
	if err != nil {
		return nil, err
	}
	within(c, it, p.Name)
	v, _ := it.idValue(p)
	c.Values[p.In+"."+p.Name] = v
	return c, nil
}

// within sets the path parameters c shares with the create of the item
// it (/orgs/{org} of /orgs/{org}/hooks/{hook_id}) to the values the
// create sent, position by position, but for the one named except: the
// item is in the collection the create addressed, not in one c's seed
// makes up.
func within(c *exercise.Call, it *created, except string) {
	names := templateParams(c.Op.Path)
	for i, name := range templateParams(it.call.Op.Path) {
		if v, ok := it.call.Values["path."+name]; ok && i < len(names) && names[i] != except {
			c.Values["path."+names[i]] = v
		}
	}
}

// templateParams returns the names of a path template's parameters, in
// order.
func templateParams(template string) []string {
	var out []string
	for rest := template; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, rest[i+1:i+j])
		rest = rest[i+j+1:]
	}
}

// linked is the created item's identifier as a link of the create's
// answer gives it: the value of the read's identifier parameter (by its
// name, or "path." and its name) in a link whose target is the read, a
// runtime expression evaluated over the create and its answer, or a
// constant; "" when no link gives one.
func (r *runner) linked(seq sequence, s *sent, c *exercise.Call) string {
	return r.linkValue(seq.create, seq.read, seq.param.Name, s, c)
}

// linkValue is the value a link of op's answer s (to the request c)
// gives the parameter name of target: a runtime expression evaluated
// over the exchange, or a constant; "" when no link gives one.
func (r *runner) linkValue(op, target *openapi.Operation, name string, s *sent, c *exercise.Call) string {
	resp := op.Response(s.resp.StatusCode)
	if resp == nil {
		return ""
	}
	x := openapi.Exchange{
		URL:         s.req.URL.String,
		Method:      s.req.Method,
		Status:      s.resp.StatusCode,
		ReqHeader:   s.req.Header,
		Query:       s.req.URL.Query,
		Path:        r.pathValue(s.req),
		RequestBody: func() any { return c.Body },
		Header:      s.resp.Header,
		Body:        func() any { return decode(s.answer) },
	}
	for _, lk := range resp.Links {
		if r.doc.LinkTarget(lk) != target {
			continue
		}
		v, has := lk.Parameters[name]
		if !has {
			v, has = lk.Parameters["path."+name]
		}
		text, ok := v.(string)
		switch {
		case !has:
		case ok && strings.HasPrefix(strings.TrimSpace(text), "$"):
			if id, err := openapi.Evaluate(text, x); err == nil {
				return id
			}
		default:
			if id, ok := scalarText(v); ok && id != "" {
				return id
			}
		}
	}
	return ""
}

// pathValue returns what a request's path parameters were written as,
// by name.
func (r *runner) pathValue(req *http.Request) func(string) (string, bool) {
	return func(name string) (string, bool) {
		route, raw := r.doc.Router().Find(strings.TrimPrefix(req.URL.EscapedPath(), r.prefix))
		if route == nil {
			return "", false
		}
		for i, p := range route.Params {
			if p == name && i < len(raw) {
				return raw[i], true
			}
		}
		return "", false
	}
}

// identifier is the created item's identifier, and the property it was
// read from: the last segment of the
// Location header, else the property named as the read's parameter of
// the answer, else of the request (a project's user_id, where the user
// answered has an id of its own), else the answer's id, else the
// request's.
func identifier(s *sent, c *exercise.Call, name string) (id, prop string) {
	if loc := s.resp.Header.Get("Location"); loc != "" {
		if u, err := url.Parse(loc); err == nil {
			if seg := path.Base(u.Path); seg != "." && seg != "/" && seg != "" {
				return seg, ""
			}
		}
	}
	answer, _ := decode(s.answer).(map[string]any)
	sentBody, _ := c.Body.(map[string]any)
	for _, n := range []string{name, "id"} {
		for _, obj := range []map[string]any{answer, sentBody} {
			if text, ok := scalarText(obj[n]); ok {
				return text, n
			}
		}
	}
	return "", ""
}

// compare returns where a read's answer disagrees with the body c sent
// (by a create, or an update): each property sent that the read's
// schema declares, neither readOnly nor writeOnly, must be answered
// with the value sent (as agrees compares them). A value sent that the
// read's property cannot hold (a name sent where the read answers the
// named object, as GitHub's pull requests take head as a branch name
// and answer it as an object) is not compared: the document says the
// read answers something else (see holds). All the properties that disagree are
// one failure, whose schema pointer is the first's: one read that
// disagrees is one problem.
func compare(read *openapi.Operation, c *exercise.Call, s *sent) []*Failure {
	what, verb := "the item just created", "created"
	if c.Op.Method != http.MethodPost {
		what, verb = "the item just updated", "updated by "+c.Op.Method
	}
	code := s.resp.StatusCode
	if code < 200 || code > 299 {
		return []*Failure{{Rule: "state", Text: fmt.Sprintf("the read of %s answered %d", what, code)}}
	}
	resp := read.Response(code)
	sentBody, _ := c.Body.(map[string]any)
	got, _ := decode(s.answer).(map[string]any)
	if resp == nil || resp.JSON() == nil || resp.JSON().Schema == nil || sentBody == nil || got == nil || c.Media == nil || c.Media.Schema == nil {
		return nil
	}
	rs := resp.JSON().Schema
	var texts []string
	where := ""
	for _, p := range c.Media.Schema.Properties {
		v, has := sentBody[p.Name]
		ps := rs.Property(p.Name)
		if !has || ps == nil || ps.ReadOnly || ps.WriteOnly || p.Schema == nil || p.Schema.ReadOnly || p.Schema.WriteOnly || !holds(rs, got, p.Name, v) {
			continue
		}
		g, has := got[p.Name]
		switch {
		case !has:
			texts = append(texts, fmt.Sprintf("no %s; it was %s with %s", p.Name, verb, oneLine(string(mustJSON(v)), 100)))
		case !agrees(g, v, ps, c.Op.Method == http.MethodPatch):
			texts = append(texts, fmt.Sprintf("%s %s; it was %s with %s", p.Name, oneLine(string(mustJSON(g)), 100), verb, oneLine(string(mustJSON(v)), 100)))
		default:
			continue
		}
		if where == "" {
			where = ps.Where()
		}
	}
	if len(texts) == 0 {
		return nil
	}
	return []*Failure{{Rule: "state", Text: fmt.Sprintf("the read of %s has %s", what, strings.Join(texts, "; ")), Schema: where}}
}

// holds reports whether a read's answer got, by its schema rs, could
// hold v as its property name: the answer with v in its place breaks no
// rule at that property or within it (an allOf member may require what
// another member's property does not: GitHub's SCIM groups take members
// without the $ref every member answered has).
func holds(rs *openapi.Schema, got map[string]any, name string, v any) bool {
	with := maps.Clone(got)
	with[name] = v
	return !slices.ContainsFunc(rs.Validate(with), func(v openapi.Violation) bool { return v.Within(name) })
}

// agrees reports whether got, a property's value as read by schema s,
// is what was sent. Of an object sent, only the properties s declares
// (where it declares any) that are neither readOnly nor writeOnly are
// compared, each by its own schema, and the read may hold more: what a
// service computes or defaults. After a merge (merge true), a null sent
// means a property left out (RFC 7396).
func agrees(got, sent any, s *openapi.Schema, merge bool) bool {
	g, gok := got.(map[string]any)
	o, sok := sent.(map[string]any)
	if !gok || !sok {
		ga, gok := got.([]any)
		oa, sok := sent.([]any)
		if !gok || !sok || len(ga) != len(oa) {
			return same(got, sent)
		}
		var items *openapi.Schema
		if s != nil {
			items = s.Items
		}
		for i := range oa {
			if !agrees(ga[i], oa[i], items, false) {
				return false
			}
		}
		return true
	}
	for k, sv := range o {
		var ps *openapi.Schema
		if s != nil && len(s.Properties) > 0 {
			if ps = s.Property(k); ps == nil || ps.ReadOnly || ps.WriteOnly {
				continue
			}
		}
		gv, has := g[k]
		switch {
		case sv == nil && merge:
			if has && gv != nil {
				return false
			}
		case !has || !agrees(gv, sv, ps, merge):
			return false
		}
	}
	return true
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
