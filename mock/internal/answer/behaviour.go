package answer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"slices"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/state"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// behaviour is what an operation does when it answers as usual.
type behaviour uint8

const (
	canned  behaviour = iota // example or generated answer
	Create                   // POST /things
	list                     // GET /things
	read                     // GET /things/{id}
	replace                  // PUT /things/{id}
	merge                    // PATCH /things/{id}
	remove                   // DELETE /things/{id}
	numBehaviours
)

// Outcome is what a behaviour answers with, at the operation's success
// status: the body (nil for none) and, for a create, the URL of the item
// it made (for Location). give writes it.
type Outcome struct {
	Body     []byte
	Location string
}

// behaviourKind is one entry of the table of behaviours: how it answers,
// and which operations have it.
type behaviourKind struct {
	// run decides how a valid request is answered as the operation
	// behaves, keeping its resources in the engine's store; it writes
	// nothing: give writes its outcome.
	run func(*Answerer, *Turn) (Outcome, *problem.Problem)
	// method and item say which operations may have the behaviour: those
	// of the method on a collection's path (item false) or on its item's
	// path (item true).
	method string
	item   bool
	// takes says whether such an operation, whose collection is c and
	// whose success answer's schema is answer (nil for none), has it.
	takes func(op *openapi.Operation, c *collection, answer *openapi.Schema) bool
	// virtual is set for behaviours on an item that answer, when the
	// collection has no create or the operation declares no 404, for an
	// item the store lacks as if it were there.
	virtual bool
}

// behaviours is the table of behaviours. An operation has the first
// whose method, path and takes fit it, else canned's. Adding a behaviour
// is adding its constant above and its entry here.
var behaviours = [numBehaviours]behaviourKind{
	canned: {run: (*Answerer).canned},
	// A create answers with the resource; a POST that answers with
	// something else (a list, a report) is canned.
	Create: {run: (*Answerer).create, method: "POST",
		takes: func(_ *openapi.Operation, c *collection, _ *openapi.Schema) bool { return c.creates }},
	list: {run: (*Answerer).list, method: "GET",
		takes: func(_ *openapi.Operation, c *collection, answer *openapi.Schema) bool {
			return answer.Is("array") || c.envelopeOf(answer, true) != nil
		}},
	// An item GET that answers with something else than an object (a
	// list of the item's parts) is canned.
	read: {run: (*Answerer).read, method: "GET", item: true, virtual: true,
		takes: func(_ *openapi.Operation, _ *collection, answer *openapi.Schema) bool { return mayBeObject(answer) }},
	replace: {run: (*Answerer).replace, method: "PUT", item: true, virtual: true,
		takes: func(op *openapi.Operation, _ *collection, answer *openapi.Schema) bool {
			return storable(op) && mayBeObject(answer)
		}},
	merge: {run: (*Answerer).merge, method: "PATCH", item: true, virtual: true,
		takes: func(op *openapi.Operation, _ *collection, answer *openapi.Schema) bool {
			return storable(op) && mayBeObject(answer)
		}},
	remove: {run: (*Answerer).remove, method: "DELETE", item: true, virtual: true,
		takes: func(*openapi.Operation, *collection, *openapi.Schema) bool { return true }},
}

// Behave decides how a valid request is answered as its operation
// behaves; it writes nothing.
func (s *Answerer) Behave(x *Turn) (Outcome, *problem.Problem) {
	return behaviours[x.Plan.Do].run(s, x)
}

// create stores the body under its identifier, or under one the mock
// assigns, and answers with it. The answer is built and checked before
// anything is stored: a create that cannot be answered stores nothing.
// An identifier the client gives that is taken is a conflict, refused
// with the operation's 409, 422 or 400; one that declares none is
// answered as if created, and the store keeps the item it had.
func (s *Answerer) create(x *Turn) (Outcome, *problem.Problem) {
	pl, c := x.Plan, x.Plan.Col
	obj, _ := x.Body.(map[string]any)
	if obj == nil && x.Body == nil && !pl.Op.Body.Required {
		obj = map[string]any{} // an optional body left out
		x.unproven = true
	}
	if obj == nil {
		return s.notStorable(x) // XML, text, or a JSON value the schema allows that is no object
	}
	obj = c.accept(x, obj)
	applyDefaults(obj, c.Schema)
	var answer []byte
	col := c.Key(x.Vals)
	want := c.bodyKey(obj)
	given := want != ""
	doc := func(key string) ([]byte, error) {
		res := c.identify(s.complete(x, c.identify(obj, key, given)), key, given) // completion keeps the identifier
		b, p := s.encodeResource(x, res)
		if p != nil {
			return nil, p
		}
		answer, x.Created = b, res // x.created: for the webhooks the create sends
		return jsonx.Append(make([]byte, 0, 64), res), nil
	}
	if !given && !c.seqKeys {
		want = c.newKey(obj, func() *gofakeit.Faker { return x.Fake(s) })
	}
	made := want != "" && !given
	ctx := x.R.Context()
	key, err := s.storeCreate(ctx, x, col, want, doc, &answer)
	for try := 0; made && errors.Is(err, store.ErrExists) && try < 3; try++ {
		// A made-up identifier that is taken: make another.
		want = c.newKey(obj, func() *gofakeit.Faker { return x.Fake(s) })
		key, err = s.storeCreate(ctx, x, col, want, doc, &answer)
	}
	if errors.Is(err, store.ErrExists) && given && !pl.declares(problem.ClassConflict) {
		// No way to say no (409, 422, 400, 4XX or default): as a
		// stand-in does, answer as if created, and keep what was.
		if _, err = doc(want); err == nil {
			x.Created = nil
			x.Note("answered as if created, storing nothing: %s already exists in %s, and %s declares no answer for a conflict", c.describe(want), col, pl.Op.Name)
			key = want
		}
	}
	if err != nil {
		x.Created = nil // made, but not stored
		return Outcome{}, s.storeProblem(err, c, col, want)
	}
	o := Outcome{Body: answer}
	if u := c.itemURL(x.Vals, key); u != "" && pl.Location {
		o.Location = u
	}
	return o, nil
}

// storeCreate stores the resource of a create, made by doc, which sets
// answer to the body the create answers with. When the session's state
// can (state.CreateJournaler: in Redis), the operation that stores the
// resource writes the exchange's journal entry too, as the answer the
// create gives once stored, and record only numbers it (x.Journaled); x.Entries makes the entry:
// one round trip to Redis a create instead of two. The entry's duration
// ends as the create is sent to Redis.
func (s *Answerer) storeCreate(ctx context.Context, x *Turn, col, want string, doc func(string) ([]byte, error), answer *[]byte) (string, error) {
	cj, together := x.Sess.State.(state.CreateJournaler[journal.Entry])
	if !together || s.NoJournal || x.Entries == nil {
		return s.Store.Create(ctx, x.Sess.Name, col, want, doc)
	}
	key, seq, err := cj.CreateJournaled(ctx, col, want, doc, func() journal.Entry {
		status, body := SentAs(x.Plan.Success, *answer)
		return x.Entries.Entry(status, body)
	})
	x.Journaled = seq
	return key, err
}

// accept returns what the mock keeps of a create or replace body: without
// the readOnly properties a client sent, nor an identifier the mock
// assigns. What it leaves out is noted for the journal.
func (c *collection) accept(x *Turn, obj map[string]any) map[string]any {
	if !c.readOnly && !c.assigned {
		return obj
	}
	v, dropped := c.Schema.WithoutReadOnly(obj)
	for _, d := range dropped {
		x.Note("ignored readOnly %s", d)
	}
	obj = v.(map[string]any)
	if c.assigned {
		if _, sent := obj[c.IdProp]; sent {
			if len(dropped) == 0 || !slices.Contains(dropped, c.IdProp) {
				x.Note("ignored %s: the mock assigns it", c.IdProp)
			}
			obj = maps.Clone(obj)
			delete(obj, c.IdProp)
		}
	}
	return obj
}

// identify returns obj with key as its identifier, unless the key is the
// one obj gives (kept as written), and as its alias where it has one.
func (c *collection) identify(obj map[string]any, key string, given bool) map[string]any {
	if c.IdProp != "" && !given {
		obj[c.IdProp] = c.typedID(key)
	}
	if c.alias != "" {
		if id := c.idText(key); len(c.aliasSchema.Validate(id)) == 0 {
			obj[c.alias] = id
		}
	}
	return obj
}

// complete returns a resource with what the answer's schema requires and
// the request did not give filled in, as a real server does, and what
// the collection's other answers require (the plan's views: a read's
// server-computed fields), so that every later answer agrees: they are
// made once and stored with the resource.
//
// A view whose fill the write's own answer cannot hold (a read whose
// user is an object where the create answers a string) is left out:
// the write answers as it declares, and that read as it did before.
// GitHub's description has two such operations (POST /gists, PUT
// /repos/{owner}/{repo}/collaborators/{username}), which answered 500.
func (s *Answerer) complete(x *Turn, obj map[string]any) map[string]any {
	own := x.resourceSchema()
	if !x.proven() && x.schema() != nil {
		obj = complete(obj, own, x.Fake(s), x.budget(s))
	}
	for _, v := range x.Plan.views {
		if len(v.Validate(Project(obj, v))) == 0 {
			continue // fits already: no copy to try it on
		}
		tried, _ := jsonx.Clone(obj).(map[string]any)
		tried = complete(tried, v, x.Fake(s), x.budget(s))
		if own != nil && len(own.Validate(Project(tried, own))) > 0 {
			continue
		}
		obj = tried
	}
	return obj
}

// list answers with the collection's resources, oldest first, a page at
// a time where the operation declares paging parameters (paging.go), in
// the answer's envelope where it has one (envelope.go), with the
// envelope's total, next and more fields filled. Resources that cannot
// be answered are left out (see listed); while the collection holds fewer
// items than the list schema's minItems, generated items make up the
// rest.
func (s *Answerer) list(x *Turn) (Outcome, *problem.Problem) {
	pl, env := x.Plan, x.envelope()
	var q url.Values
	if pl.paging != nil {
		q = x.R.URL.Query()
	}
	offset, size := pl.paging.window(q)
	limit := -1
	if size >= 0 {
		limit = offset + size + 1 // one more, to tell whether a page follows
	}
	col := pl.Col.Key(x.Vals)
	docs, err := s.Store.List(x.R.Context(), x.Sess.Name, col, limit)
	if err != nil {
		return Outcome{}, s.storeProblem(err, pl.Col, col, "")
	}
	page := listPage{total: -1}
	if size >= 0 && len(docs) > offset+size {
		page.more, docs = true, docs[:offset+size]
	}
	docs = docs[min(offset, len(docs)):]
	schema := x.resourceSchema()
	if schema == nil {
		// No body, or content declared without a schema: its canned
		// answer (the example, else a sample of the media type).
		return s.canned(x)
	}
	items := make([]any, 0, len(docs))
	for _, d := range docs {
		v, err := jsonx.Decode(d)
		if err != nil {
			return Outcome{}, problem.Internal("stored resource is not JSON: %v", err)
		}
		v = Project(v, schema.Items)
		if x.dropsWriteOnly() {
			v = schema.Items.WithoutWriteOnly(v)
		}
		if v, ok := s.listed(x, v, schema.Items); ok {
			items = append(items, v)
		}
	}
	lo, hi := itemBounds(schema)
	if int64(len(items)) < lo {
		if err := x.budget(s).Need(schema, lo-int64(len(items))); err != nil {
			return Outcome{}, notGenerated(err)
		}
		for int64(len(items)) < lo {
			v, p := generateValue(x.budget(s), schema.Items, x.Fake(s), x.Note)
			if p != nil {
				return Outcome{}, p
			}
			items = append(items, v)
		}
		x.Note("generated %d items: the list schema needs at least %d", lo-int64(len(docs)), lo)
	}
	if hi >= 0 && int64(len(items)) > hi {
		// More than one answer may hold: the first page.
		items = items[:hi]
	}
	if env == nil {
		if !x.proven() {
			if vs := schema.Validate(items); len(vs) > 0 {
				return Outcome{}, problem.Internal("the list does not fit the declared response schema: %s", vs[0])
			}
		}
		return s.listAnswer(x, items, schema)
	}
	out, p := s.wrap(x, env, items)
	if p != nil {
		return Outcome{}, p
	}
	if len(env.Meta) > 0 {
		if env.wants(metaTotal) {
			n, err := s.Store.Count(x.R.Context(), x.Sess.Name, col)
			if err != nil {
				return Outcome{}, s.storeProblem(err, pl.Col, col, "")
			}
			page.total = n
		}
		var query string
		query, page.cursor = pl.paging.nextQuery(q, offset, size)
		if query != "" {
			page.next = selfURL(x.Client) + "?" + query
		}
		s.fillMeta(x, env, out, page)
	}
	if vs := x.schema().Validate(out); len(vs) > 0 {
		return Outcome{}, problem.Internal("the list does not fit the declared response schema: %s", vs[0])
	}
	return s.listAnswer(x, out, x.schema())
}

// listed returns a stored resource v, projected, as the list answers
// it, and whether it does: one that does not fit the list's item schema
// (stored before the document changed, say) is left out, named in the
// journal and the log, but for one that lacks only what the list's items
// require and its create's own answer could not hold (see complete),
// made up for this answer.
func (s *Answerer) listed(x *Turn, v any, items *openapi.Schema) (any, bool) {
	if x.proven() {
		return v, true
	}
	vs := items.Validate(v)
	if len(vs) == 0 {
		return v, true
	}
	what := x.Plan.Col.name(v)
	if obj, ok := jsonx.Clone(v).(map[string]any); ok {
		if w := Project(complete(obj, items, x.Fake(s), x.budget(s)), items); len(items.Validate(w)) == 0 && adds(v, w) {
			x.Note("completed %s for this answer: %s", what, vs[0])
			return w, true
		}
	}
	x.Note("left out %s: it does not fit the list's item schema: %s", what, vs[0])
	s.Log.Warn("a stored resource does not fit the list's item schema; it is left out",
		"operation", x.Plan.Op.Name, "resource", what, "violation", vs[0].String())
	return nil, false
}

// adds reports whether w holds every property of v, an object, with its
// value: what w has more, it adds.
func adds(v, w any) bool {
	vo, _ := v.(map[string]any)
	wo, _ := w.(map[string]any)
	for k, x := range vo {
		if y, has := wo[k]; !has || !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return vo != nil && wo != nil
}

// itemBounds returns the fewest and most items (-1: no most) a list
// schema allows, its allOf members' bounds included (AWS's descriptions
// write {allOf: [{$ref: List}, {description: ...}]}, where List has
// minItems 1).
func itemBounds(s *openapi.Schema) (lo, hi int64) {
	hi = -1
	var walk func(*openapi.Schema)
	walk = func(s *openapi.Schema) {
		if s == nil {
			return
		}
		if s.MinItems != nil {
			lo = max(lo, *s.MinItems)
		}
		if s.MaxItems != nil && (hi < 0 || *s.MaxItems < hi) {
			hi = *s.MaxItems
		}
		for _, m := range s.AllOf {
			walk(m)
		}
	}
	walk(s)
	return lo, hi
}

// listAnswer is the answer of a list: v written in the answer's media type.
func (s *Answerer) listAnswer(x *Turn, v any, schema *openapi.Schema) (Outcome, *problem.Problem) {
	b, p := s.encode(x, v, schema)
	if p != nil {
		return Outcome{}, p
	}
	return Outcome{Body: b}, nil
}

// selfURL returns the absolute URL of a request without its query.
func selfURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + r.URL.EscapedPath()
}

// read answers with the resource the path names. In a collection without
// a create operation every item exists until deleted: one not stored yet
// is made up (from the document's example, else generated) and kept.
func (s *Answerer) read(x *Turn) (Outcome, *problem.Problem) {
	c := x.Plan.Col
	col, key := c.Key(x.Vals), c.pathKey(x.Vals)
	doc, _, err := s.get(x, col, key)
	if err != nil {
		return Outcome{}, s.storeProblem(err, c, col, key)
	}
	return s.storedAnswer(x, doc)
}

// get returns the stored resource, making it up first in a collection
// whose items exist until deleted (see plan.virtual). kept is false for
// a stand-in (see standIn): the item is not in the store.
func (s *Answerer) get(x *Turn, col, key string) (doc []byte, kept bool, err error) {
	ctx, c := x.R.Context(), x.Plan.Col
	doc, err = s.Store.Get(ctx, x.Sess.Name, col, key)
	if !errors.Is(err, store.ErrNotFound) {
		return doc, err == nil, err
	}
	if !x.Plan.virtual {
		return s.standIn(x, key)
	}
	if _, err := s.Store.Get(ctx, x.Sess.Name, deletedPrefix+col, key); err == nil {
		return s.standIn(x, key)
	}
	made, p := s.madeUp(x, key)
	if p != nil {
		return nil, false, s.unmade(x, key, p)
	}
	_, err = s.Store.Create(ctx, x.Sess.Name, col, key, func(string) ([]byte, error) { return made, nil })
	switch {
	case err == nil:
		if c.creates {
			x.Note("made up %s: %s declares no 404, so its items exist until deleted", c.describe(key), x.Plan.Op.Name)
		} else {
			x.Note("made up %s: the collection has no create operation", c.describe(key))
		}
		return made, true, nil
	case errors.Is(err, store.ErrExists): // made meanwhile
		doc, err = s.Store.Get(ctx, x.Sess.Name, col, key)
		return doc, err == nil, err
	case errors.Is(err, store.ErrFull):
		return made, false, nil // answered, not kept
	}
	return nil, false, err
}

// unmade is the answer to a request for an item that exists until
// deleted but that could not be made up, p saying why. Where no value of
// the item schema fits (ix-api's product offerings: a oneOf whose
// alternatives require the same properties, so that every value matches
// several), the operation's declared answer for an unknown item (404,
// else 400 or 422) says so: the mock cannot give the item, and a 500 the
// operation does not declare would be further from its contract. Where
// it declares none, or the budget ran out, p is the answer, a 500.
func (s *Answerer) unmade(x *Turn, key string, p *problem.Problem) *problem.Problem {
	if x.budget(s).Err() != nil || !x.Plan.declares(problem.ClassNotFound) {
		return p
	}
	return problem.Invalid(problem.CodeNotFound, problem.ClassNotFound, "%s in %s could not be made up, and the mock keeps none: %s",
		x.Plan.Col.describe(key), x.Plan.Col.Key(x.Vals), p.Message)
}

// standIn is the one decision on an item the store does not hold (never
// stored, or deleted): an operation that declares an answer for an
// unknown item (404, else 400 or 422, a 4XX or default) gets
// store.ErrNotFound, answered with it. One that declares none has no
// way to say no: it answers as if the item were there, with one made up
// for this answer alone and never stored, as the journal notes. A
// PATCH, PUT or DELETE on it changes nothing.
func (s *Answerer) standIn(x *Turn, key string) ([]byte, bool, error) {
	if x.Plan.declares(problem.ClassNotFound) {
		return nil, false, store.ErrNotFound
	}
	made, p := s.madeUp(x, key)
	if p != nil {
		return nil, false, p
	}
	x.Note("made up %s for this answer alone: the store does not hold it, and %s declares no answer for an unknown item",
		x.Plan.Col.describe(key), x.Plan.Op.Name)
	return made, false, nil
}

// update applies fn to the resource the path names and stores what it
// returns; fn builds the answer. A stand-in (see standIn) gets fn's
// answer and the store is left as it is.
func (s *Answerer) update(x *Turn, col, key string, fn func(old []byte) ([]byte, error)) error {
	if x.Plan.virtual {
		doc, kept, err := s.get(x, col, key)
		if err != nil {
			return err
		}
		if !kept {
			_, err := fn(doc)
			return err
		}
	}
	_, err := s.Store.Update(x.R.Context(), x.Sess.Name, col, key, fn)
	return err
}

// madeUp makes up the item with key of a collection whose items exist
// until deleted, as JSON: the item schema's example, else generated data,
// with key as its identifier.
func (s *Answerer) madeUp(x *Turn, key string) ([]byte, *problem.Problem) {
	c := x.Plan.Col
	if c.item == nil {
		// Nothing says what an item holds: its identifier, if any.
		return jsonx.Marshal(c.identify(map[string]any{}, key, c.IdProp == "")), nil
	}
	v, p := generateValue(x.budget(s), c.item, x.Fake(s), nil) // stored: it must fit
	if p != nil {
		return nil, p
	}
	if obj, ok := v.(map[string]any); ok && c.IdProp != "" {
		obj = maps.Clone(obj)
		obj[c.IdProp] = c.typedID(key)
		if len(c.item.Validate(obj)) == 0 {
			v = obj
		}
	}
	return jsonx.Marshal(v), nil
}

// remove deletes the resource the path names and answers with it where
// the success response declares a body. In a collection whose items an
// operation makes up (see collection.virtual) the deletion is
// remembered, so the item stays gone.
func (s *Answerer) remove(x *Turn) (Outcome, *problem.Problem) {
	c := x.Plan.Col
	col, key := c.Key(x.Vals), c.pathKey(x.Vals)
	var doc []byte
	kept := true
	if x.Plan.virtual {
		var err error
		if doc, kept, err = s.get(x, col, key); err != nil {
			return Outcome{}, s.storeProblem(err, c, col, key)
		}
	}
	if kept {
		var err error
		if doc, err = s.Store.Delete(x.R.Context(), x.Sess.Name, col, key); err != nil {
			return Outcome{}, s.storeProblem(err, c, col, key)
		}
	}
	if kept && c.virtual {
		s.Store.Create(x.R.Context(), x.Sess.Name, deletedPrefix+col, key, func(string) ([]byte, error) { return []byte("{}"), nil })
	}
	if x.schema() == nil {
		// No body, or content declared without a schema (Zuora's
		// deletes declare application/json with an example only): its
		// canned answer, the example, else a sample of the media type.
		return s.canned(x)
	}
	if v, err := jsonx.Decode(doc); err == nil && len(x.resourceSchema().Validate(Project(v, x.resourceSchema()))) > 0 {
		// The delete answers with something else than the resource (a
		// report, what remains): its canned answer.
		return s.canned(x)
	}
	return s.storedAnswer(x, doc)
}

// storedAnswer is the answer of a stored document, written as the
// answer's schema and media type take it.
func (s *Answerer) storedAnswer(x *Turn, doc []byte) (Outcome, *problem.Problem) {
	if x.Offer == nil {
		return Outcome{Body: nil}, nil
	}
	v, err := jsonx.Decode(doc)
	if err != nil {
		return Outcome{}, problem.Internal("stored resource is not JSON: %v", err)
	}
	b, p := s.encodeResource(x, v)
	if p != nil {
		return Outcome{}, p
	}
	return Outcome{Body: b}, nil
}

// replace stores the body in place of the resource the path names. As a
// create does, it applies defaults; readOnly properties the client cannot
// send keep their stored values. The answer is built and checked before
// the store changes.
func (s *Answerer) replace(x *Turn) (Outcome, *problem.Problem) {
	pl, c := x.Plan, x.Plan.Col
	obj, _ := x.Body.(map[string]any)
	if obj == nil {
		return s.notStorable(x)
	}
	col, key := c.Key(x.Vals), c.pathKey(x.Vals)
	schema := resourceMedia(pl.Op).Schema
	v, dropped := schema.WithoutReadOnly(obj)
	for _, d := range dropped {
		x.Note("ignored readOnly %s", d)
	}
	obj = v.(map[string]any)
	if p := c.sameID(x, obj, key); p != nil {
		return Outcome{}, p
	}
	applyDefaults(obj, schema)
	var answer []byte
	err := s.update(x, col, key, func(old []byte) ([]byte, error) {
		res := maps.Clone(obj)
		keepReadOnly(res, old, schema, c.item)
		res = s.complete(x, res)
		b, p := s.encodeResource(x, res)
		if p != nil {
			return nil, p
		}
		answer = b
		return jsonx.Marshal(res), nil
	})
	if err != nil {
		return Outcome{}, s.storeProblem(err, c, col, key)
	}
	return Outcome{Body: answer}, nil
}

// notStorable answers a replace or merge whose body its schema lets be
// something other than an object (a schema without a type, a body of
// any media type): valid, but nothing a resource can be or be patched
// with. It gets the operation's canned answer, a declared success, and
// the store is left as it is.
func (s *Answerer) notStorable(x *Turn) (Outcome, *problem.Problem) {
	x.Note("answered as declared, storing nothing: the body is not a JSON object to store")
	return s.canned(x)
}

// keepReadOnly copies into res the stored values of the properties a
// client may not set: those the answer's schema declares readOnly or the
// request's does not declare.
func keepReadOnly(res map[string]any, old []byte, req, item *openapi.Schema) {
	v, err := jsonx.Decode(old)
	cur, _ := v.(map[string]any)
	if err != nil || cur == nil {
		return
	}
	for k, cv := range cur {
		if _, set := res[k]; set {
			continue
		}
		rp, ip := req.Property(k), item.Property(k)
		if rp != nil && rp.ReadOnly || ip != nil && ip.ReadOnly || rp == nil && ip != nil && len(req.Properties) > 0 {
			res[k] = cv
		}
	}
}

// merge applies the body to the resource the path names, as its media
// type says: a JSON Patch (application/json-patch+json, RFC 6902), else
// a merge patch (RFC 7396); its answer is built and checked before the
// store changes. A patch whose result would break the create schema
// (see broken), or a JSON Patch that cannot be applied (a test that
// fails, a path to nothing), is refused with the operation's 422 or
// 400; where it declares neither, it has no way to say no: it answers
// with the resource as it stays, unchanged, as the journal notes.
func (s *Answerer) merge(x *Turn) (Outcome, *problem.Problem) {
	pl, c := x.Plan, x.Plan.Col
	p, ok := patchOf(x)
	if !ok {
		return s.notStorable(x)
	}
	col, key := c.Key(x.Vals), c.pathKey(x.Vals)
	var answer []byte
	err := s.update(x, col, key, func(old []byte) ([]byte, error) {
		v, err := jsonx.Decode(old)
		if err != nil {
			return nil, problem.Internal("stored resource is not JSON: %v", err)
		}
		cur, _ := v.(map[string]any)
		if cur == nil {
			return nil, problem.Internal("stored resource is not an object")
		}
		merged, why := p.apply(cur)
		if merged != nil {
			if p := c.sameID(x, merged, key); p != nil {
				return nil, p
			}
			if vs := c.violations(merged); len(vs) > 0 { // else the patch broke nothing
				if p.merge != nil {
					merged, vs = c.unmixed(x, merged, p.merge, vs)
				}
				if vs = broken(vs, c.violations(cur), p); len(vs) > 0 {
					merged, why = nil, &problem.Problem{Code: problem.CodeSchema, Class: problem.ClassSchema, Message: "the patched resource does not match the schema", Violations: vs}
				}
			}
		}
		if merged == nil {
			if pl.declares(problem.ClassSchema) {
				return nil, why
			}
			x.Note("answered with %s unchanged (%s), as %s declares no answer for that", c.name(cur), why.Text(), pl.Op.Name)
			merged = cur
		}
		merged = s.complete(x, merged)
		b, p := s.encodeResource(x, merged)
		if p != nil {
			return nil, p
		}
		answer = b
		return jsonx.Marshal(merged), nil
	})
	if err != nil {
		return Outcome{}, s.storeProblem(err, c, col, key)
	}
	return Outcome{Body: answer}, nil
}

// storeProblem is the answer to a store error: a problem of the caller's
// passed through, a duplicate or unknown identifier, a full store, or an
// internal error.
func (s *Answerer) storeProblem(err error, c *collection, col, key string) *problem.Problem {
	var p *problem.Problem
	switch {
	case errors.As(err, &p):
		return p
	case errors.Is(err, store.ErrExists):
		return problem.Invalid(problem.CodeDuplicate, problem.ClassConflict, "%s already exists in %s", c.describe(key), col)
	case errors.Is(err, store.ErrNotFound):
		return problem.Invalid(problem.CodeNotFound, problem.ClassNotFound, "no resource with %s in %s", c.describe(key), col)
	case errors.Is(err, store.ErrFull):
		return s.full()
	case errors.Is(err, store.ErrUnavailable):
		return problem.Unavailable(err)
	}
	return problem.Internal("the store failed: %v", err)
}

// full is the answer to a create beyond Limits.MaxResources.
func (s *Answerer) full() *problem.Problem {
	return problem.Invalid(problem.CodeFull, problem.ClassRequest, "the mock holds the most resources it may (%d, --max-resources); delete some or reset the store", s.MaxResources)
}

// applyDefaults sets absent properties that declare a default, as a
// server would on create and replace.
func applyDefaults(obj map[string]any, schema *openapi.Schema) {
	for _, p := range schema.Properties {
		if _, ok := obj[p.Name]; !ok && p.Schema != nil && p.Schema.HasDefault && !p.Schema.ReadOnly {
			obj[p.Name] = p.Schema.Default
		}
	}
}

// sameID refuses a body whose identifier differs from the path's and fills
// it in when the body has none (or the mock assigns it). A path value the
// identifier cannot hold (a name where the identifier is a number: the
// path parameter is not the identifier after all) neither refuses nor
// fills in anything: the item is kept under the path's value as sent.
func (c *collection) sameID(x *Turn, obj map[string]any, key string) *problem.Problem {
	if c.IdProp == "" {
		return nil
	}
	pathID := c.typedID(key)
	if len(c.idSchema.Validate(pathID)) > 0 {
		return nil
	}
	id, ok := obj[c.IdProp]
	if !ok || c.assigned {
		obj[c.IdProp] = pathID
		return nil
	}
	if c.keyOf(id) != key && !x.Plan.declares(problem.ClassSchema) {
		// The operation has no way to say no: the path wins.
		x.Note("%s %s in the body is replaced by the path's %s", c.IdProp, jsonx.Marshal(id), jsonx.Marshal(pathID))
		obj[c.IdProp] = pathID
		return nil
	}
	if c.keyOf(id) != key {
		return &problem.Problem{Code: problem.CodeSchema, Class: problem.ClassSchema, Message: "request body does not match the path",
			Violations: []openapi.Violation{{Path: c.IdProp, Reason: fmt.Sprintf("is %s but the path addresses %s", jsonx.Marshal(id), jsonx.Marshal(pathID))}}}
	}
	return nil
}

// behaviourNames name the behaviours, for explanations.
var behaviourNames = [numBehaviours]string{canned: "an example, else generated data", Create: "create", list: "list",
	read: "read", replace: "replace", merge: "merge", remove: "remove"}

// String names the behaviour: create, list, read, ...
func (b behaviour) String() string { return behaviourNames[b] }
