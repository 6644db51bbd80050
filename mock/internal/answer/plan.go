package answer

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// Plan is everything worked out at start for one operation, so that the
// request path only reads.
type Plan struct {
	// seen counts the exchanges of the operation, for the contract
	// report. It shares a cache line with the fields around it, which
	// every request reads: padding it onto a line of its own bought
	// nothing paired runs could tell from noise (.ci/bench, 10 alternate
	// pairs a mix of 3 s: processor time a request -0.96 +/- 0.55, +0.47
	// +/- 2.1 and +0.30 +/- 0.85 µs of 36-45).
	Seen atomic.Int64

	Op    *openapi.Operation
	Route *openapi.Route
	Do    behaviour
	Col   *collection

	Status [problem.NumClasses]int // error status per problem class

	Success      int            // status of a successful answer
	SuccessMedia *openapi.Media // its first offer's media type, or nil for no body
	// offers are the media types the success answer may be written in,
	// JSON first; offersBy those of the other statuses the operation names.
	offers   []offer
	offersBy map[int][]offer
	// dropWriteOnly is true when the success schema declares writeOnly
	// properties, which answers leave out.
	dropWriteOnly bool
	Location      bool // the success response declares a Location header
	// locationURI is true when that header's schema has format uri,
	// which a path alone does not satisfy: the answer names the host.
	LocationURI bool
	Headers     []respHeader // required response headers
	// errHeaders are the required headers of the operation's other
	// responses, which its error answers carry too.
	ErrHeaders map[*openapi.Response][]respHeader
	// virtual is true for an item operation whose items exist until
	// deleted: its collection has no create, or it declares no answer for
	// an unknown item (no 404, 4XX or default).
	virtual bool
	// proven is true when projecting any stored resource of col onto the
	// success schema is valid by construction, so no runtime check is due.
	proven bool
	// example is the canned answer's fixed body, if it has one.
	example []byte
	// caveat says why the document's example is not the canned answer
	// (it does not conform to its schema); "" when there is none.
	caveat string
	paging *paging // how a list pages; nil when it declares no paging parameter
	// views are the schemas of the collection's other answers that a
	// resource this create, replace or merge stores must fit and that
	// its own body does not prove it fits: it is completed for each.
	views []*openapi.Schema
	// noBody is the status that answers a body sent to an operation that
	// declares none: its 415, else its 400; 0 when it declares neither
	// (the body is then ignored).
	NoBody int

	Shapes  map[int]*problem.ErrorShape
	primary *problem.ErrorShape
	// over holds the schemas whose smallest value is over the generation
	// budget: answers that need one are refused before anything is made.
	over gen.Over
	// values is the sequence of generated values of the plan's document,
	// where the mock serves several (see Plans.Generate); nil: the
	// Answerer's.
	values *Values

	// Tally holds what the metrics keep of the operation, worked out on
	// its first answer (mock/internal/metrics), so that the request path
	// looks nothing up; this package never reads it.
	Tally atomic.Value
}

// Values are a document's own sequence of generated values: its seed,
// and how many values were generated so far.
type Values struct {
	Seed uint64
	Seq  atomic.Uint64
}

// Values returns the generated values the plans share (see Generate);
// nil when they have none of their own.
func (plans Plans) Values() *Values {
	for _, pl := range plans {
		return pl.values
	}
	return nil
}

// Generate makes every plan's generated values v's, so that what one
// document of several generates does not depend on the others' requests.
// The plans must not be serving yet.
func (plans Plans) Generate(v *Values) {
	for _, pl := range plans {
		pl.values = v
	}
}

// Plans are the plans of a document's operations.
type Plans map[*openapi.Operation]*Plan

// Any returns the plan of a route's first operation, for answers to a
// method the route does not declare.
func (plans Plans) Any(r *openapi.Route) *Plan {
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "QUERY"} {
		if op := r.Operation(m); op != nil {
			return plans[op]
		}
	}
	return nil
}

// declares reports whether the operation declares the status it answers
// a class of problem with: whether it has a way to say no.
func (pl *Plan) declares(c problem.Class) bool { return pl.Op.Response(pl.Status[c]) != nil }

// ErrorShape returns the shape of error answers with status.
func (pl *Plan) ErrorShape(status int) *problem.ErrorShape {
	if sh := pl.Shapes[status]; sh != nil {
		return sh
	}
	return pl.primary
}

// BuildPlans works out the plan of each operation of document d,
// mounted at base path mount ("" for /), whose schemas in over are over
// the generation budget. The caveats of serving it that only the plans
// find (an example that does not conform to its schema) are added to
// d.Warnings, which check prints and serving logs. fallback is the
// error shape of problems found before routing.
func BuildPlans(d *openapi.Document, mount string, over gen.Over) (plans Plans, fallback *problem.ErrorShape, err error) {
	plans = Plans{}
	colOf := collectionsOf(d, mount)
	shapes := problem.ErrorShapes{}
	fallback = shapes.Of(nil)
	first := true
	for _, op := range d.Operations {
		r := d.Router().Route(op.Path)
		pl := &Plan{Op: op, Route: r, Shapes: map[int]*problem.ErrorShape{}, over: over}
		pl.refusals(shapes)
		if first && PrimaryError(op) != nil {
			fallback, first = pl.primary, false
		}
		pl.answers()
		var schema *openapi.Schema
		if pl.SuccessMedia != nil {
			schema = pl.SuccessMedia.Schema
			pl.dropWriteOnly = schema.HasWriteOnly()
		}
		pl.behave(r.Collection(), colOf, schema)
		if err := pl.prove(schema); err != nil {
			return nil, nil, err
		}
		if pl.caveat != "" {
			d.Warnings = append(d.Warnings, pl.caveat)
		}
		plans[op] = pl
	}
	plans.views(d)
	return plans, fallback, nil
}

// collectionsOf returns the collection of each collection path of d,
// made on first use. A document mounted at a base path (mount, "" for
// /) keeps its resources under it, and names its items with it.
func collectionsOf(d *openapi.Document, mount string) func(path string) *collection {
	// items is the first item route of each collection path, in the
	// order of the operations. Found once, it keeps newCollection from
	// going through every operation for each collection: on a synthetic
	// 49.6 MB document of 4,852 operations (.ci/bigdoc-make), that scan
	// was 4.4 s of the 13.3 s of CPU New took (pprof).
	items := map[string]*openapi.Route{}
	for _, op := range d.Operations {
		r := d.Router().Route(op.Path)
		if cl := r.Collection(); cl.Item && items[cl.Path] == nil {
			items[cl.Path] = r
		}
	}
	cols := map[string]*collection{}
	return func(path string) *collection {
		c := cols[path]
		if c == nil {
			c = newCollection(d, path, items[path])
			if mount != "" {
				c.path = mount + c.path
				if c.itemPath != "" {
					c.itemPath = mount + c.itemPath
				}
			}
			cols[path] = c
		}
		return c
	}
}

// refusals works out how the operation refuses requests: the status of
// each class of problem, the status of a body it takes none of, and the
// error shapes of its error answers.
func (pl *Plan) refusals(shapes problem.ErrorShapes) {
	op := pl.Op
	for c := problem.Class(0); c < problem.NumClasses; c++ {
		pl.Status[c] = problem.PickStatus(op, c)
	}
	for _, st := range []int{415, 400} {
		if op.Body == nil && pl.NoBody == 0 && op.Declares(st) {
			pl.NoBody = st
		}
	}
	pl.primary = shapes.Of(PrimaryError(op))
	for _, st := range problem.ErrorStatuses {
		if resp := op.Response(int(st)); resp != nil && resp.JSON() != nil && resp.JSON().Schema != nil {
			pl.Shapes[int(st)] = shapes.Of(resp.JSON())
		}
	}
}

// answers works out the operation's answers: its success status, the
// media types of each status, and the headers the answers must carry.
func (pl *Plan) answers() {
	op := pl.Op
	var resp *openapi.Response
	pl.Success, resp = op.Success()
	pl.offers = offersOf(resp)
	if len(pl.offers) > 0 {
		pl.SuccessMedia = pl.offers[0].media
	}
	pl.offersBy = map[int][]offer{}
	for _, r := range op.Responses {
		if r.Code != 0 && r.Code != pl.Success {
			pl.offersBy[r.Code] = offersOf(r)
		}
	}
	for _, r := range append(op.Responses[:len(op.Responses):len(op.Responses)], op.Default) {
		if r == nil || r == resp {
			continue
		}
		for _, h := range r.Headers {
			if h.Required {
				if pl.ErrHeaders == nil {
					pl.ErrHeaders = map[*openapi.Response][]respHeader{}
				}
				pl.ErrHeaders[r] = append(pl.ErrHeaders[r], newRespHeader(h))
			}
		}
	}
	if resp != nil {
		for _, h := range resp.Headers {
			if strings.EqualFold(h.Name, "Location") {
				pl.Location = true
				pl.LocationURI = h.Schema != nil && h.Schema.Format == "uri"
				continue
			}
			if h.Required {
				pl.Headers = append(pl.Headers, newRespHeader(h))
			}
		}
	}
}

// behave gives the operation the first behaviour of the table that fits
// it (see behaviours), on the collection of cl, and canned's when none
// does.
func (pl *Plan) behave(cl openapi.Collection, colOf func(string) *collection, schema *openapi.Schema) {
	op := pl.Op
	for b, k := range behaviours {
		if k.run == nil || k.takes == nil || k.method != op.Method || k.item != cl.Item {
			continue
		}
		if c := colOf(cl.Path); k.takes(op, c, schema) {
			pl.Do, pl.Col = behaviour(b), c
			break
		}
	}
	if pl.Do == list {
		pl.paging = pagingOf(op)
	}
	if behaviours[pl.Do].virtual {
		pl.virtual = !pl.Col.creates || op.Response(404) == nil
		pl.Col.virtual = pl.Col.virtual || pl.virtual
	}
}

// prove works out what the answers of the plan need besides its
// behaviour: the envelope of each media type, a canned answer's example,
// or whether the answer schema admits every stored value as it is (see
// proven).
func (pl *Plan) prove(schema *openapi.Schema) error {
	if pl.Do != canned {
		for i := range pl.offers {
			pl.offers[i].env = pl.Col.envelopeOf(pl.offers[i].media.Schema, pl.Do == list)
		}
	}
	switch {
	case pl.Do == canned:
		return pl.planExample()
	case len(pl.offers) > 0 && pl.offers[0].env != nil:
		// Wrapped: the envelope's own fields are made up for each
		// answer and checked with it.
	case pl.Do == list:
		pl.proven = proven(pl.Col.Schema, schema.Items)
	default:
		src := pl.Col.Schema
		if pl.Do == Create || pl.Do == replace {
			src = resourceMedia(pl.Op).Schema
		}
		pl.proven = proven(src, schema)
	}
	return nil
}

// views works out, for each create, replace and merge, the answers
// of its collection that a resource it stores must fit (read, list,
// create and the rest, inside their envelopes) and that its body does
// not prove it fits. Completing the resource for each when it is
// stored fills their required fields once, so that every later answer
// agrees (see complete).
func (plans Plans) views(d *openapi.Document) {
	views := map[*collection][]*openapi.Schema{}
	for _, op := range d.Operations {
		pl := plans[op]
		if pl.Col == nil || pl.Do == remove || len(pl.offers) == 0 {
			continue // a delete may answer with something else than the resource
		}
		v := pl.offers[0].env.innerOr(pl.offers[0].media.Schema)
		if pl.Do == list && v != nil {
			v = v.Items
		}
		if v != nil && !slices.ContainsFunc(views[pl.Col], v.Same) {
			views[pl.Col] = append(views[pl.Col], v)
		}
	}
	for _, op := range d.Operations {
		pl := plans[op]
		if pl.Do != Create && pl.Do != replace && pl.Do != merge {
			continue
		}
		src, own := resourceMedia(op).Schema, (*openapi.Schema)(nil)
		if len(pl.offers) > 0 {
			own = pl.offers[0].env.innerOr(pl.offers[0].media.Schema) // completed for anyway
		}
		for _, v := range views[pl.Col] {
			if !v.Same(own) && !proven(src, v) {
				pl.views = append(pl.views, v)
			}
		}
	}
}

// storable reports whether an item operation's request body can be a
// resource, or a patch of one: a JSON object, or for a PATCH a JSON
// Patch (application/json-patch+json, RFC 6902). A PUT of a list (a
// disk migration's disks) or a PATCH of an array in plain JSON does not
// replace or merge the item; it is canned.
func storable(op *openapi.Operation) bool {
	if op.Body == nil {
		return false
	}
	if op.Method == "PATCH" && op.Body.Media(jsonPatchType) != nil {
		return true
	}
	m := resourceMedia(op)
	return m != nil && mayBeObject(m.Schema)
}

// resourceMedia returns the media type of op's body whose value a
// create or replace stores: the first JSON one, else the first form
// (URL-encoded or multipart: OpenAI's file upload), read into an object
// as a JSON body is; nil for none.
func resourceMedia(op *openapi.Operation) *openapi.Media {
	if op.Body == nil {
		return nil
	}
	if m := op.Body.JSON(); m != nil {
		return m
	}
	for _, m := range op.Body.Content {
		if m.IsForm() {
			return m
		}
	}
	return nil
}

// mayBeObject reports whether a schema lets a value be an object: it
// names no type, or names object among them; nil (no schema) does too.
func mayBeObject(s *openapi.Schema) bool {
	return s == nil || len(s.Types) == 0 || s.Is("object")
}

// objectSchema reports whether a schema describes an object: it says
// so, or names no type and declares properties (presalytics's story
// outline, {properties: {outline: {type: string}}}).
func objectSchema(s *openapi.Schema) bool {
	return s.Is("object") || s != nil && len(s.Types) == 0 && len(s.Properties) > 0
}

// PrimaryError returns the JSON media of an operation's main error
// response: its lowest declared 4xx, else its default.
func PrimaryError(op *openapi.Operation) *openapi.Media {
	var best *openapi.Response
	for _, r := range op.Responses {
		if r.Code >= 400 && r.Code < 500 && r.JSON() != nil && (best == nil || r.Code < best.Code) {
			best = r
		}
	}
	if best == nil {
		for _, r := range op.Responses {
			if r.Code == 0 && r.Status == "4XX" && r.JSON() != nil {
				best = r
			}
		}
	}
	if best == nil && op.Default != nil && op.Default.JSON() != nil {
		best = op.Default
	}
	if best == nil {
		return nil
	}
	return best.JSON()
}

// newCollection works out how the collection at path keeps and
// identifies its resources; item is the route of its items, or nil.
func newCollection(d *openapi.Document, path string, item *openapi.Route) *collection {
	c := &collection{path: path}
	var createAnswer *openapi.Schema
	if r := d.Router().Route(path); r != nil {
		if post := r.Operation("POST"); post != nil && post.Body != nil {
			if m := resourceMedia(post); m != nil && objectSchema(m.Schema) && succeeds(post) {
				answer := successSchema(post)
				if answer == nil || answer.Is("object") {
					// A create answers with the resource; a POST that
					// answers with something else (a list, a report) is
					// canned.
					c.Schema, c.creates, createAnswer = m.Schema, true, answer
					c.readOnly = m.Schema.HasReadOnly()
				}
			}
		}
	}
	param, paramSchema := "", (*openapi.Schema)(nil)
	if item != nil {
		c.itemPath, param = item.Path, item.Params[len(item.Params)-1]
		paramSchema = pathParam(item, param)
		if get := item.Operation("GET"); get != nil && mayBeObject(successSchema(get)) {
			c.item = successSchema(get)
		}
	}
	if c.item == nil {
		c.item = createAnswer
	}
	c.item = EnvelopeOf(c.item, c.Schema, false).innerOr(c.item)
	// The create's answer names the identifier too where the read does
	// not: a read that leaves it out (a transaction's details under
	// /cards/{id}/transactions/{txId}) still addresses the item by it.
	created := EnvelopeOf(createAnswer, c.Schema, false).innerOr(createAnswer)
	for _, name := range []string{param, "id"} {
		if name == "" {
			continue
		}
		req, resp := c.Schema.Property(name), c.item.Property(name)
		if resp == nil && created != nil {
			resp = created.Property(name)
		}
		if req == nil && resp == nil || !scalar(cmp.Or(resp, req)) {
			continue // an identifier is a string or a number
		}
		if resp == nil && upload(req) {
			continue // the file of POST /v1/files, not the {file} that names it
		}
		c.IdProp, c.idSchema = name, identifierSchema(resp, req, paramSchema)
		c.assigned = c.creates && (req == nil || req.ReadOnly || resp != nil && resp.ReadOnly)
		if resp == nil && name != "id" && c.Schema.Property("id") == nil {
			if a := cmp.Or(c.item.Property("id"), created.Property("id")); a != nil && a.Is("string") {
				c.alias, c.aliasSchema = "id", a
			}
		}
		break
	}
	ids := c.idSchema
	c.seqKeys = c.IdProp == "" || ids.Is("integer") || ids.Is("number") ||
		len(ids.Types) == 0 && ids.Format == "" && ids.Pattern == "" && len(ids.Enum) == 0 ||
		ids.Format != "uuid" && len(ids.Validate("1")) == 0 && len(ids.Validate("123456")) == 0
	if c.IdProp != "" && (ids.Is("integer") || ids.Is("number")) && !ids.Is("string") {
		c.idBase = leastWhole(ids) - 1
	}
	return c
}

// scalar reports whether a schema admits a string or a number, as an
// identifier's must (an object property named like the path parameter is
// not the identifier), itself or in an alternative.
func scalar(s *openapi.Schema) bool {
	if len(s.Types) == 0 {
		if len(s.AnyOf) > 0 && len(s.Properties) == 0 {
			return typedScalar(s) != nil
		}
		return len(s.Properties) == 0 && s.Items == nil && len(s.AnyOf) == 0
	}
	return s.Is("string") || s.Is("integer") || s.Is("number")
}

// upload reports whether s is the schema of a file's content: a string
// of binary or base64 bytes, or of a declared media type. It is not an
// identifier, though named like the item's path parameter.
func upload(s *openapi.Schema) bool {
	return s.Is("string") && (s.Format == "binary" || s.Format == "byte" || s.ContentMediaType != "")
}

// identifierSchema returns the schema that says what an identifier is:
// the first of schemas (the answer's property, the request's, the path
// parameter's) that declares a string or number type, itself or in an
// alternative (anyOf: [{type: integer}, {type: "null"}] is an integer);
// else the first given. An answer's property that declares no type (a
// description only) does not make the identifier a string.
func identifierSchema(schemas ...*openapi.Schema) *openapi.Schema {
	for _, s := range schemas {
		if t := typedScalar(s); t != nil {
			return t
		}
	}
	for _, s := range schemas {
		if s != nil {
			return s
		}
	}
	return nil
}

// typedScalar returns s when it declares a string or number type, else
// its first alternative that does; nil when neither does.
func typedScalar(s *openapi.Schema) *openapi.Schema {
	if s == nil {
		return nil
	}
	if s.Is("string") || s.Is("integer") || s.Is("number") {
		return s
	}
	if len(s.Types) > 0 {
		return nil
	}
	for _, a := range s.AnyOf {
		if a != nil && (a.Is("string") || a.Is("integer") || a.Is("number")) {
			return a
		}
	}
	return nil
}

// pathParam returns the schema of a route's path parameter, from the
// first of its operations that declares it; nil when none does.
func pathParam(r *openapi.Route, name string) *openapi.Schema {
	for _, m := range []string{"GET", "PUT", "PATCH", "DELETE", "POST", "HEAD", "OPTIONS"} {
		if op := r.Operation(m); op != nil {
			for _, p := range op.Params {
				if p.In == "path" && p.Name == name && p.Schema != nil {
					return p.Schema
				}
			}
		}
	}
	return nil
}

// leastWhole returns the least whole number of at least 1 that the
// minimum of s (or of an allOf member, a $ref with siblings in 3.1)
// admits: 1000 for minimum: 1000, 6 for exclusiveMinimum: 5. A minimum
// past 2^53 is not followed.
func leastWhole(s *openapi.Schema) int64 {
	least := int64(1)
	for _, x := range append([]*openapi.Schema{s}, s.AllOf...) {
		if x == nil || x.Minimum == nil || *x.Minimum > 1<<53 {
			continue
		}
		m := *x.Minimum
		n := int64(math.Ceil(m))
		if x.ExclusiveMinimum && float64(n) == m {
			n++
		}
		least = max(least, n)
	}
	return least
}

// succeeds reports whether an operation declares a success (2xx) answer.
func succeeds(op *openapi.Operation) bool {
	code, _ := op.Success()
	return code >= 200 && code < 300
}

// successSchema returns the schema of an operation's success answer in
// the media type a client gets by default (JSON where declared), or nil.
func successSchema(op *openapi.Operation) *openapi.Schema {
	_, resp := op.Success()
	if offers := offersOf(resp); len(offers) > 0 {
		return offers[0].media.Schema
	}
	return nil
}

// planExample fixes the canned answer's body when the spec gives an
// example that conforms to the response schema; one that does not is
// the plan's caveat, and answers are generated instead.
func (pl *Plan) planExample() error {
	m := pl.SuccessMedia
	if m == nil || pl.offers[0].kind != media.JSON {
		return nil
	}
	var ex any
	switch {
	case m.HasExample:
		ex = m.Example
	case m.Schema != nil && m.Schema.HasExample:
		ex = m.Schema.Example
	default:
		return nil
	}
	if vs := m.Schema.Validate(ex); len(vs) > 0 {
		pl.caveat = fmt.Sprintf("%s %s: its example does not conform to its schema (%s); answers are generated instead", pl.Op.Method, pl.Op.Path, vs[0])
		return nil
	}
	pl.example = jsonx.Marshal(ex)
	return nil
}

// proven reports whether copying the declared properties of any value valid
// against src gives a value valid against dst.
func proven(src, dst *openapi.Schema) bool {
	return provenPair(src, dst, map[[2]*openapi.Schema]bool{})
}

// provenPair is proven with the pairs already being worked out, which are
// assumed to hold: recursive schemas meet themselves again.
func provenPair(src, dst *openapi.Schema, seen map[[2]*openapi.Schema]bool) bool {
	if seen[[2]*openapi.Schema{src, dst}] {
		return true
	}
	seen[[2]*openapi.Schema{src, dst}] = true
	if dst == nil {
		return true
	}
	if src == nil || !dst.Structural {
		return false
	}
	if src.Same(dst) {
		return true
	}
	if !dst.Is("object") || !src.Is("object") {
		return scalarCovers(src, dst)
	}
	for _, r := range dst.Required {
		if !src.Requires(r) {
			return false
		}
	}
	for _, p := range dst.Properties {
		sp := src.Property(p.Name)
		switch {
		case sp == nil && src.NoAdditionalProperties:
		case sp == nil:
			if len(p.Schema.Types) > 0 || len(p.Schema.Properties) > 0 {
				return false
			}
		case !provenPair(sp, p.Schema, seen):
			return false
		}
	}
	return true
}

// scalarCovers reports whether every type src allows is allowed by dst,
// dst being structural.
func scalarCovers(src, dst *openapi.Schema) bool {
	if len(dst.Types) == 0 {
		return true
	}
	if len(src.Types) == 0 || dst.Is("object") || dst.Is("array") {
		return false
	}
	for _, t := range src.Types {
		if !dst.Is(t) && !(t == "integer" && dst.Is("number")) {
			return false
		}
	}
	if dst.Format != "" && dst.Format != src.Format {
		return false
	}
	return true
}
