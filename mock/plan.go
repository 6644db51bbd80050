package mock

import (
	"cmp"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// plan is everything worked out at start for one operation, so that the
// request path only reads.
type plan struct {
	seen count // exchanges of the operation, for the contract report

	op    *openapi.Operation
	route *openapi.Route
	do    behaviour
	col   *collection

	status [numClasses]int // error status per problem class

	success      int            // status of a successful answer
	successMedia *openapi.Media // its first offer's media type, or nil for no body
	// offers are the media types the success answer may be written in,
	// JSON first; offersBy those of the other statuses the operation names.
	offers   []offer
	offersBy map[int][]offer
	// dropWriteOnly is true when the success schema declares writeOnly
	// properties, which answers leave out.
	dropWriteOnly bool
	location      bool         // the success response declares a Location header
	headers       []respHeader // required response headers
	// virtual is true for an item operation whose items exist until
	// deleted: its collection has no create, or it declares no answer for
	// an unknown item (no 404, 4XX or default).
	virtual bool
	// proven is true when projecting any stored resource of col onto the
	// success schema is valid by construction, so no runtime check is due.
	proven bool
	// example is the canned answer's fixed body, if it has one.
	example []byte
	limit   bool // the list honours an integer ?limit

	shapes  map[int]*errorShape
	primary *errorShape
}

// anyPlan returns the plan of a route's first operation, for answers to a
// method the route does not declare.
func (sv *served) anyPlan(r *openapi.Route) *plan {
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"} {
		if op := r.Operation(m); op != nil {
			return sv.plans[op]
		}
	}
	return nil
}

// declares reports whether the operation declares the status it answers
// a class of problem with: whether it has a way to say no.
func (pl *plan) declares(c class) bool { return pl.op.Response(pl.status[c]) != nil }

// errorShape returns the shape of error answers with status.
func (pl *plan) errorShape(status int) *errorShape {
	if sh := pl.shapes[status]; sh != nil {
		return sh
	}
	return pl.primary
}

// buildPlans works out one plan per operation.
func (sv *served) buildPlans() error {
	d := sv.doc
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
	colOf := func(path string) *collection {
		c := cols[path]
		if c == nil {
			c = newCollection(d, path, items[path])
			cols[path] = c
		}
		return c
	}
	shapes := errorShapes{}
	sv.fallbackShape = shapes.of(nil)
	first := true
	for _, op := range d.Operations {
		r := d.Router().Route(op.Path)
		pl := &plan{op: op, route: r, shapes: map[int]*errorShape{}}
		for c := class(0); c < numClasses; c++ {
			pl.status[c] = pickStatus(op, c)
		}
		pl.primary = shapes.of(primaryError(op))
		if first && primaryError(op) != nil {
			sv.fallbackShape, first = pl.primary, false
		}
		for _, st := range errorStatuses {
			if resp := op.Response(int(st)); resp != nil && resp.JSON() != nil && resp.JSON().Schema != nil {
				pl.shapes[int(st)] = shapes.of(resp.JSON())
			}
		}
		var resp *openapi.Response
		pl.success, resp = op.Success()
		pl.offers = offersOf(resp)
		if len(pl.offers) > 0 {
			pl.successMedia = pl.offers[0].media
		}
		pl.offersBy = map[int][]offer{}
		for _, r := range op.Responses {
			if r.Code != 0 && r.Code != pl.success {
				pl.offersBy[r.Code] = offersOf(r)
			}
		}
		if resp != nil {
			for _, h := range resp.Headers {
				if strings.EqualFold(h.Name, "Location") {
					pl.location = true
					continue
				}
				if h.Required {
					pl.headers = append(pl.headers, newRespHeader(h))
				}
			}
		}
		var schema *openapi.Schema
		if pl.successMedia != nil {
			schema = pl.successMedia.Schema
			pl.dropWriteOnly = schema.HasWriteOnly()
		}
		cl := r.Collection()
		switch {
		case !cl.Item && op.Method == "POST" && colOf(cl.Path).creates:
			// A create answers with the resource; a POST that answers
			// with something else (a list, a report) is canned.
			pl.do, pl.col = create, colOf(cl.Path)
		case !cl.Item && op.Method == "GET" && schema.Is("array"):
			pl.do, pl.col = list, colOf(cl.Path)
			for _, p := range op.Params {
				if p.In == "query" && p.Name == "limit" && p.Schema.Is("integer") {
					pl.limit = true
				}
			}
		case cl.Item && op.Method == "GET":
			pl.do, pl.col = read, colOf(cl.Path)
		case cl.Item && op.Method == "PUT" && op.Body != nil && op.Body.JSON() != nil:
			pl.do, pl.col = replace, colOf(cl.Path)
		case cl.Item && op.Method == "PATCH" && op.Body != nil && op.Body.JSON() != nil:
			pl.do, pl.col = merge, colOf(cl.Path)
		case cl.Item && op.Method == "DELETE":
			pl.do, pl.col = remove, colOf(cl.Path)
		}
		switch pl.do {
		case read, replace, merge, remove:
			pl.virtual = !pl.col.creates || op.Response(404) == nil
		}
		switch pl.do {
		case canned:
			if err := sv.planExample(pl); err != nil {
				return err
			}
		case list:
			pl.proven = proven(pl.col.schema, schema.Items)
		default:
			src := pl.col.schema
			if pl.do == create || pl.do == replace {
				src = op.Body.JSON().Schema
			}
			pl.proven = proven(src, schema)
		}
		sv.plans[op] = pl
	}
	return nil
}

// primaryError returns the JSON media of an operation's main error
// response: its lowest declared 4xx, else its default.
func primaryError(op *openapi.Operation) *openapi.Media {
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
			if m := post.Body.JSON(); m != nil && m.Schema.Is("object") && succeeds(post) {
				answer := successSchema(post)
				if answer == nil || answer.Is("object") {
					// A create answers with the resource; a POST that
					// answers with something else (a list, a report) is
					// canned.
					c.schema, c.creates, createAnswer = m.Schema, true, answer
					c.readOnly = m.Schema.HasReadOnly()
				}
			}
		}
	}
	param := ""
	if item != nil {
		c.itemPath, param = item.Path, item.Params[len(item.Params)-1]
		if get := item.Operation("GET"); get != nil {
			c.item = successSchema(get)
		}
	}
	if c.item == nil {
		c.item = createAnswer
	}
	for _, name := range []string{param, "id"} {
		if name == "" {
			continue
		}
		req, resp := c.schema.Property(name), c.item.Property(name)
		if req == nil && resp == nil || !scalar(cmp.Or(resp, req)) {
			continue // an identifier is a string or a number
		}
		c.idProp, c.idSchema = name, cmp.Or(resp, req)
		c.assigned = c.creates && (req == nil || req.ReadOnly || resp != nil && resp.ReadOnly)
		break
	}
	ids := c.idSchema
	c.seqKeys = c.idProp == "" || ids.Is("integer") || ids.Is("number") ||
		len(ids.Types) == 0 && ids.Format == "" && ids.Pattern == "" && len(ids.Enum) == 0 ||
		ids.Format != "uuid" && len(ids.Validate("1")) == 0 && len(ids.Validate("123456")) == 0
	return c
}

// scalar reports whether a schema admits a string or a number, as an
// identifier's must (an object property named like the path parameter is
// not the identifier).
func scalar(s *openapi.Schema) bool {
	if len(s.Types) == 0 {
		return len(s.Properties) == 0 && s.Items == nil && len(s.AnyOf) == 0
	}
	return s.Is("string") || s.Is("integer") || s.Is("number")
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
// example that conforms to the response schema.
func (sv *served) planExample(pl *plan) error {
	m := pl.successMedia
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
		sv.log.Warn("example does not conform to its schema; generating data instead",
			"operation", pl.op.Method+" "+pl.op.Path, "violation", vs[0].String())
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
