package openapi

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// Document is a loaded OpenAPI document.
type Document struct {
	Title      string
	Version    string // info.version
	OpenAPI    string // the openapi field, e.g. 3.1.0
	Operations []*Operation
	// Schemas are the component schemas by name.
	Schemas map[string]*Schema
	// BasePaths are the path parts of the declared server URLs, such as
	// /api/v2 for http://example.com/api/v2 (server variables take their
	// defaults). Requests may carry one in front of the document's paths.
	BasePaths []string
	// ServerPath is the path part of the first declared server URL, as
	// in BasePaths; "" when there is none, or it has no path.
	ServerPath string
	// Warnings are what the document declares that is served with a
	// caveat, one line each: keywords foreign to its dialect, methods
	// declared twice on the same template, recursion cut short when
	// generating data.
	Warnings []string
	// Mistakes are the document's mistakes that touch one piece of it, one
	// line each naming the place and what was left out: a schema keyword
	// that breaks its meta-schema, a parameter without a name. The rest of
	// the document is served.
	Mistakes []string
	// Impossible names the schemas no value satisfies, by where their
	// broken keyword is (#/components/schemas/E/oneOf), each with why: a
	// oneOf two of whose alternatives accept the same values.
	Impossible map[string]string

	// Webhooks are the document's webhooks (OpenAPI 3.1), in document
	// order.
	Webhooks []*Hook

	// SecuritySchemes are the schemes of components.securitySchemes, in
	// document order.
	SecuritySchemes []*SecurityScheme

	// Tags are the document's tags, in document order.
	Tags []Tag

	router *Router
	// v31 is set for the JSON Schema 2020-12 dialect, of OpenAPI 3.1 and
	// 3.2; v32 for OpenAPI 3.2, which adds the QUERY method and
	// additionalOperations.
	v31, v32 bool
}

// Router returns the document's router.
func (d *Document) Router() *Router { return d.router }

// Find routes a request path of method ("" for any; see
// openapi.Router.FindFor), with or without a server base path in front;
// rest is the path without the base path when one was cut.
func (d *Document) Find(path, method string) (route *Route, vals []string, rest string) {
	if route, vals = d.Router().FindFor(path, method); route != nil {
		return route, vals, ""
	}
	for _, bp := range d.BasePaths {
		if rest, ok := strings.CutPrefix(path, bp); ok && strings.HasPrefix(rest, "/") {
			if route, vals = d.Router().FindFor(rest, method); route != nil {
				return route, vals, rest
			}
		}
	}
	return nil, nil, ""
}

// Load parses and checks an OpenAPI 3.0, 3.1 or 3.2 document, YAML or
// JSON.
// Only documents that cannot be served are refused, each with one line
// naming the problem and where it is: not OpenAPI 3, a reference that
// points at nothing, a schema that refers to itself without a way out.
// Mistakes that touch one piece of the document leave that piece out and
// are listed in Mistakes.
func Load(data []byte) (*Document, error) {
	root, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("not a JSON or YAML document: %s", oneLine(err))
	}
	if !root.isObject() {
		return nil, errors.New("not an OpenAPI document: the top level is not an object")
	}
	version := root.get("openapi").text()
	switch {
	case root.has("swagger"):
		return nil, errors.New("a Swagger 2.0 document: convert it to OpenAPI 3 (for instance with swagger2openapi)")
	case version == "":
		return nil, errors.New("not an OpenAPI document: no openapi field")
	case !strings.HasPrefix(version, "3.0") && !strings.HasPrefix(version, "3.1") && !strings.HasPrefix(version, "3.2"):
		return nil, fmt.Errorf("OpenAPI %s is not supported: only 3.0, 3.1 and 3.2 are", version)
	}
	v32 := strings.HasPrefix(version, "3.2")
	d := &Document{OpenAPI: version, Schemas: map[string]*Schema{}, v31: strings.HasPrefix(version, "3.1") || v32, v32: v32}
	l := &loader{root: root, doc: d, warnings: map[string]*warning{}, mistakes: map[string]*warning{}}
	l.schemas = newSchemaBuilder(l)
	l.readSelf()
	l.tags()
	if err := l.load(); err != nil {
		return nil, err
	}
	l.openRefusing()
	// Compiled before the model is settled and the parameters' wire
	// shapes are made: a keyword at mistake is left out of both.
	l.comp = newCompiler(l)
	if err := l.comp.compileAll(l.schemas.all); err != nil {
		return nil, err
	}
	l.schemas.settle()
	sh := shapes{}
	for _, o := range d.Operations {
		if err := o.prepareWire(sh); err != nil {
			return nil, fmt.Errorf("%s: %w", o.Name, err)
		}
	}
	for _, s := range l.schemas.all {
		if s.Recursive {
			l.warn("recursive", at(s.ptr, s.src), "the schema contains itself: it is validated by reference, and generated data stops at a depth bound")
			if !s.Finite() {
				l.warn("infinite", at(s.ptr, s.src), "the schema requires itself with no way out: no value of finite size satisfies it, so no answer can be made with it")
			}
		}
	}
	l.twins()
	d.Warnings = lines(l.warnings, l.order)
	d.Mistakes = lines(l.mistakes, l.mistakeOrder)
	l.loaded = true
	return d, nil
}

// loader builds a Document from the document's nodes.
type loader struct {
	root     *node
	doc      *Document
	schemas  *schemaBuilder
	comp     *compiler
	schemes  map[string]*SecurityScheme
	warnings map[string]*warning
	order    []string
	// mistakes are counted by kind like warnings (see mistake.go).
	mistakes     map[string]*warning
	mistakeOrder []string
	// loaded is set at the end of Load, before the Document is handed
	// out: from then on the model is read by requests, and schemas
	// compiled on first use change neither it nor the lists above.
	loaded   bool
	patterns patterns
	// opened are the schema objects whose additionalProperties false is
	// left out: it refuses a property they must have (openRefusing).
	opened map[*node]bool
	// self is the document's $self (3.2), nil when it has none.
	self *url.URL
}

// warning is one kind of caveat, with how often it occurs and where first.
type warning struct {
	text  string
	count int
	where string
}

// warn records a caveat; caveats of the same kind are counted, not
// repeated.
func (l *loader) warn(kind, where, text string) {
	l.record(l.warnings, &l.order, kind, where, text)
}

// record counts one occurrence of a kind of warning or mistake in m, whose
// kinds are listed in order of first occurrence in order.
func (l *loader) record(m map[string]*warning, order *[]string, kind, where, text string) {
	w := m[kind]
	if w == nil {
		w = &warning{text: text, where: where}
		m[kind] = w
		*order = append(*order, kind)
	}
	w.count++
}

// lines returns the warnings or mistakes of m one line each, in order.
func lines(m map[string]*warning, order []string) []string {
	var out []string
	for _, k := range order {
		w := m[k]
		line := w.where + ": " + w.text
		if w.count > 1 {
			line += fmt.Sprintf(" (and %d more places)", w.count-1)
		}
		out = append(out, line)
	}
	return out
}

// at names a place in the document: its JSON pointer and line.
func at(ptr string, n *node) string {
	if ptr == "" {
		ptr = "/"
	}
	if n != nil && n.line > 0 {
		return fmt.Sprintf("#%s (line %d)", ptr, n.line)
	}
	return "#" + ptr
}

// fail makes a load error at a place.
func fail(ptr string, n *node, format string, args ...any) error {
	return fmt.Errorf("%s: %s", at(ptr, n), fmt.Sprintf(format, args...))
}

// deref follows a Reference Object to what it points at, returning the
// target and its pointer. Values that are not references are returned as
// they are.
func (l *loader) deref(n *node, ptr string) (*node, string, error) {
	for hops := 0; n.isObject() && n.has("$ref"); hops++ {
		if hops > 32 {
			return nil, "", fail(ptr, n, "references form a loop")
		}
		ref := n.get("$ref")
		target, tptr, err := l.resolve(ref.text(), ptr, ref)
		if err != nil {
			return nil, "", err
		}
		n, ptr = target, tptr
	}
	return n, ptr, nil
}

// resolve finds the node a local reference points at: one within the
// document, written as a fragment or as $self's URI with one.
func (l *loader) resolve(ref, ptr string, n *node) (*node, string, error) {
	ref = l.local(ref)
	if !strings.HasPrefix(ref, "#") {
		return nil, "", fail(ptr, n, "$ref %s points outside the document; only references within it (#/...) are supported", l.outside(ref))
	}
	tptr, err := fragmentPointer(ref[1:])
	if err != nil {
		return nil, "", fail(ptr, n, "$ref %q is not a JSON pointer: %v", ref, err)
	}
	target := l.root.pointer(tptr)
	if target == nil {
		return nil, "", fail(ptr, n, "$ref %q points at nothing", ref)
	}
	return target, tptr, nil
}

// dangling reports whether ref is a JSON pointer within the document
// (#/...) that points at nothing.
func (l *loader) dangling(ref string) bool {
	ref = l.local(ref)
	if !strings.HasPrefix(ref, "#/") {
		return false
	}
	ptr, err := fragmentPointer(ref[1:])
	return err == nil && l.root.pointer(ptr) == nil
}

// fragmentPointer turns a URI fragment into an unescaped JSON pointer.
func fragmentPointer(frag string) (string, error) { return url.PathUnescape(frag) }

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

func (l *loader) load() error {
	d, root := l.doc, l.root
	if info := root.get("info"); info.isObject() {
		d.Title, d.Version = info.get("title").text(), info.get("version").text()
	}
	if servers := root.get("servers"); servers != nil && servers.kind == arrayNode {
		for i, sv := range servers.vals {
			p := basePath(sv)
			if i == 0 {
				d.ServerPath = p
			}
			if p != "" {
				d.BasePaths = append(d.BasePaths, p)
			}
		}
	}
	l.schemes = map[string]*SecurityScheme{}
	comps := root.get("components")
	if ss := comps.get("securitySchemes"); ss.isObject() {
		for i, name := range ss.keys {
			ptr := child("/components/securitySchemes", name)
			s, sptr, err := l.deref(ss.vals[i], ptr)
			if err != nil {
				return err
			}
			l.schemes[name] = &SecurityScheme{
				Name: name, Type: s.get("type").text(), Scheme: strings.ToLower(s.get("scheme").text()),
				In: s.get("in").text(), Param: s.get("name").text(),
				MetadataURL: s.get("oauth2MetadataUrl").text(), Deprecated: s.get("deprecated").flag(false),
				place: placeOf(sptr, s),
			}
			if flows := s.get("flows"); flows.isObject() {
				for _, f := range flows.keys {
					if !extension(f) {
						l.schemes[name].Flows = append(l.schemes[name].Flows, f)
					}
					if f == "clientCredentials" {
						l.schemes[name].TokenURL = flows.get(f).get("tokenUrl").text()
					}
				}
			}
			d.SecuritySchemes = append(d.SecuritySchemes, l.schemes[name])
		}
	}
	if cs := comps.get("schemas"); cs.isObject() {
		for i, name := range cs.keys {
			s, err := l.schemas.build(cs.vals[i], child("/components/schemas", name))
			if err != nil {
				return err
			}
			if s.Name == "" {
				s.Name = name
			}
			d.Schemas[name] = s
		}
	}
	global, err := l.requirements(root.get("security"), "/security")
	if err != nil {
		return err
	}
	d.router = newRouter()
	if err := l.webhooks(); err != nil {
		return err
	}
	paths := root.get("paths")
	if paths == nil {
		return nil
	}
	if !paths.isObject() {
		return fail("/paths", paths, "paths is not an object")
	}
	for i, path := range paths.keys {
		pptr := child("/paths", path)
		if extension(path) {
			continue
		}
		if !strings.HasPrefix(path, "/") {
			l.mistake("path slash", at(pptr, paths.vals[i]), "the path does not start with /: its operations are left out")
			continue
		}
		err := l.pathItem(paths.vals[i], pptr, path, global, func(o *Operation, where string) {
			if prev := d.router.add(o); prev != nil {
				l.warn("dup "+o.Method+" "+prev.Path+" "+o.Path, where,
					fmt.Sprintf("%s %s and %s %s differ only in parameter names; the first serves", prev.Method, prev.Path, o.Method, o.Path))
				return
			}
			d.Operations = append(d.Operations, o)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// pathItem reads the operations of a Path Item Object, in the order of
// methods, and hands each to add with where it is in the document (for
// warnings). global is the security of operations that declare none. A
// path item or operation that is not an object, or a path item that is
// a $ref to nothing, is a mistake: it is left out.
func (l *loader) pathItem(pn *node, ptr, path string, global security, add func(o *Operation, where string)) error {
	if ref := pn.get("$ref").text(); l.dangling(ref) {
		l.mistake("dangling path item $ref", at(ptr, pn), fmt.Sprintf("$ref %q points at nothing: the path item is left out", ref))
		return nil
	}
	item, iptr, err := l.deref(pn, ptr)
	if err != nil {
		return err
	}
	if !item.isObject() {
		l.mistake("path item", at(ptr, item), "the path item is not an object: it is left out")
		return nil
	}
	type declared struct {
		method string
		node   *node
		ptr    string
	}
	var ops []declared
	for _, m := range methods {
		ops = append(ops, declared{strings.ToUpper(m), item.get(m), child(iptr, m)})
	}
	if l.doc.v32 {
		ops = append(ops, declared{"QUERY", item.get("query"), child(iptr, "query")})
		if more := item.get("additionalOperations"); more.isObject() {
			aptr := child(iptr, "additionalOperations")
			for i, m := range more.keys {
				if !wire.IsToken(m) || slices.Contains(methods, strings.ToLower(m)) || strings.EqualFold(m, "query") {
					l.mistake("additional operation", at(child(aptr, m), more.vals[i]), fmt.Sprintf("%q is not a method of its own (a token, not one the path item names): it is left out", m))
					continue
				}
				ops = append(ops, declared{m, more.vals[i], child(aptr, m)})
			}
		}
	}
	for _, d := range ops {
		if d.node == nil {
			continue
		}
		if !d.node.isObject() {
			l.mistake("operation", at(d.ptr, d.node), "the operation is not an object: it is left out")
			continue
		}
		o, err := l.operation(d.method, path, item, iptr, d.node, d.ptr, global)
		if err != nil {
			return err
		}
		add(o, at(d.ptr, d.node))
	}
	return nil
}

// basePath returns the path of a server URL without its trailing slash.
func basePath(sv *node) string {
	u := sv.get("url").text()
	if vars := sv.get("variables"); vars.isObject() {
		for i, k := range vars.keys {
			u = strings.ReplaceAll(u, "{"+k+"}", vars.vals[i].get("default").text())
		}
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		j := strings.IndexByte(u, '/')
		if j < 0 {
			return ""
		}
		u = u[j:]
	}
	u = strings.TrimRight(u, "/")
	if !strings.HasPrefix(u, "/") || strings.ContainsAny(u, "{}?#") {
		return ""
	}
	return u
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// security is what a list of Security Requirement Objects declares:
// its alternatives, and the scopes each asks of its schemes.
type security struct {
	reqs   []Requirement
	scopes []map[string][]string // by alternative, then scheme name; nil for none
}

// requirements reads a list of Security Requirement Objects.
func (l *loader) requirements(n *node, ptr string) (security, error) {
	var out security
	if n == nil || n.kind != arrayNode {
		return out, nil
	}
	for i, r := range n.vals {
		if !r.isObject() || len(r.keys) == 0 {
			out.reqs = append(out.reqs, Requirement{})
			out.scopes = append(out.scopes, nil)
			continue
		}
		var alt Requirement
		var scopes map[string][]string
		for k, name := range r.keys {
			s, ok := l.schemes[name]
			if !ok {
				// A mistake: no client could know what to send for it.
				// An alternative left with no scheme lets any request in.
				l.mistake("unknown scheme", at(child(ptr, fmt.Sprint(i)), r),
					fmt.Sprintf("security requirement names %q, which is not in components.securitySchemes: it is left out of the requirement", name))
				continue
			}
			alt = append(alt, s)
			if list := r.vals[k]; list != nil && list.kind == arrayNode && len(list.vals) > 0 {
				if scopes == nil {
					scopes = map[string][]string{}
				}
				for _, v := range list.vals {
					scopes[name] = append(scopes[name], v.text())
				}
			}
		}
		out.reqs = append(out.reqs, alt)
		out.scopes = append(out.scopes, scopes)
	}
	return out, nil
}

func (l *loader) operation(method, path string, item *node, iptr string, on *node, optr string, global security) (*Operation, error) {
	o := &Operation{Method: method, Path: path, Name: method + " " + path, ID: on.get("operationId").text(), Security: global.reqs, Scopes: global.scopes, place: placeOf(optr, on)}
	if sec := on.get("security"); sec != nil {
		own, err := l.requirements(sec, child(optr, "security"))
		if err != nil {
			return nil, err
		}
		o.Security, o.Scopes = own.reqs, own.scopes
	}
	seen := map[string]int{}
	for _, src := range []struct {
		n   *node
		ptr string
	}{{item.get("parameters"), child(iptr, "parameters")}, {on.get("parameters"), child(optr, "parameters")}} {
		if src.n == nil || src.n.kind != arrayNode {
			continue
		}
		for i, pn := range src.n.vals {
			p, ok, err := l.param(pn, child(src.ptr, fmt.Sprint(i)))
			if err != nil {
				return nil, err
			}
			if !ok {
				continue // a mistake: the parameter is left out
			}
			if p.In == "header" && ignoredHeader(p.Name) {
				// OAS: such a parameter is ignored; the body, media types
				// and security say what these headers hold.
				continue
			}
			key := p.In + ":" + p.Name
			if p.In == "header" {
				key = p.In + ":" + strings.ToLower(p.Name)
			}
			if j, ok := seen[key]; ok {
				o.Params[j] = p
				continue
			}
			seen[key] = len(o.Params)
			o.Params = append(o.Params, p)
		}
	}
	o.Params = l.oneQueryString(o.Params, optr, on)
	if rb := on.get("requestBody"); rb != nil {
		n, ptr, err := l.deref(rb, child(optr, "requestBody"))
		if err != nil {
			return nil, err
		}
		o.Body = &RequestBody{Required: n.get("required").flag(false), place: placeOf(ptr, n)}
		if o.Body.Content, err = l.content(n.get("content"), child(ptr, "content")); err != nil {
			return nil, err
		}
	}
	if rs := on.get("responses"); rs.isObject() {
		for i, code := range rs.keys {
			if extension(code) {
				continue
			}
			rptr := child(child(optr, "responses"), code)
			if ref := rs.vals[i].get("$ref").text(); l.dangling(ref) {
				l.mistake("dangling response $ref", at(rptr, rs.vals[i]), fmt.Sprintf("$ref %q points at nothing: the response is left out of its operation", ref))
				continue
			}
			n, ptr, err := l.deref(rs.vals[i], rptr)
			if err != nil {
				return nil, err
			}
			r, err := l.response(strings.ToUpper(code), n, ptr)
			if err != nil {
				return nil, err
			}
			if code == "default" {
				o.Default = r
				continue
			}
			o.Responses = append(o.Responses, r)
		}
	}
	if err := l.callbacks(o, on, optr); err != nil {
		return nil, err
	}
	return o, nil
}

// oneQueryString leaves out the querystring parameters OpenAPI 3.2
// forbids, each a mistake: all of them beside query parameters (which
// they would read again), and all but the first of several.
func (l *loader) oneQueryString(ps []Param, optr string, on *node) []Param {
	var query, qs int
	for _, p := range ps {
		switch p.In {
		case "query":
			query++
		case "querystring":
			qs++
		}
	}
	if qs == 0 || query == 0 && qs == 1 {
		return ps
	}
	out := ps[:0:0]
	kept := false
	for _, p := range ps {
		switch {
		case p.In != "querystring":
		case query > 0:
			l.mistake("querystring with query", at(optr, on), fmt.Sprintf("querystring parameter %q is declared with query parameters, which OpenAPI 3.2 forbids: it is left out, and the query parameters are read", p.Name))
			continue
		case kept:
			l.mistake("querystring twice", at(optr, on), fmt.Sprintf("querystring parameter %q is a second querystring parameter, which OpenAPI 3.2 forbids: it is left out", p.Name))
			continue
		default:
			kept = true
		}
		out = append(out, p)
	}
	return out
}

// param reads a Parameter Object. A parameter no request could carry
// (without a name, in no place a request has, or a $ref to nothing) is a
// mistake: ok is false, and the operation is served without it.
func (l *loader) param(pn *node, ptr string) (p Param, ok bool, err error) {
	if ref := pn.get("$ref").text(); l.dangling(ref) {
		l.mistake("dangling parameter $ref", at(ptr, pn), fmt.Sprintf("$ref %q points at nothing: the parameter is left out of its operation", ref))
		return Param{}, false, nil
	}
	n, ptr, err := l.deref(pn, ptr)
	if err != nil {
		return Param{}, false, err
	}
	p = Param{
		Name: n.get("name").text(), In: n.get("in").text(),
		Required: n.get("required").flag(false), Style: n.get("style").text(),
		AllowReserved: n.get("allowReserved").flag(false), place: placeOf(ptr, n),
	}
	if e := n.get("explode"); e != nil && e.kind == boolNode {
		v := e.b
		p.Explode = &v
	}
	switch p.In {
	case "path", "query", "header", "cookie":
	case "querystring":
		if !l.doc.v32 {
			l.mistake("parameter in", at(ptr, n), fmt.Sprintf("parameter %q is in querystring, which is OpenAPI 3.2 (this document is %s): the parameter is left out of its operation", p.Name, l.doc.OpenAPI))
			return Param{}, false, nil
		}
		if c := n.get("content"); !c.isObject() || len(c.keys) != 1 || n.has("schema") {
			l.mistake("querystring content", at(ptr, n), fmt.Sprintf("querystring parameter %q is not described by content with one media type: the parameter is left out of its operation", p.Name))
			return Param{}, false, nil
		}
	default:
		places := "path, query, header, cookie"
		if l.doc.v32 {
			places = "path, query, querystring, header, cookie"
		}
		l.mistake("parameter in", at(ptr, n), fmt.Sprintf("parameter %q is in %q, which is none of %s: the parameter is left out of its operation", p.Name, p.In, places))
		return Param{}, false, nil
	}
	if p.Name == "" {
		l.mistake("parameter name", at(ptr, n), "the parameter has no name: it is left out of its operation, which is served without it")
		return Param{}, false, nil
	}
	if p.In == "path" {
		p.Required = true
	}
	if p.exampleList, err = l.examples(n, ptr, ""); err != nil {
		return Param{}, false, err
	}
	if s := n.get("schema"); s != nil {
		if p.Schema, err = l.schemas.build(s, child(ptr, "schema")); err != nil {
			return Param{}, false, err
		}
		l.schemas.validated(p.Schema)
	} else if c := n.get("content"); c.isObject() && len(c.keys) > 0 {
		ms, err := l.content(c, child(ptr, "content"))
		if err != nil {
			return Param{}, false, err
		}
		p.Content = ms[0]
	}
	return p, true, nil
}

func (l *loader) response(status string, n *node, ptr string) (*Response, error) {
	out := &Response{Status: status, Code: statusCode(status), place: placeOf(ptr, n)}
	var err error
	if out.Content, err = l.content(n.get("content"), child(ptr, "content")); err != nil {
		return nil, err
	}
	if hs := n.get("headers"); hs.isObject() {
		for i, name := range hs.keys {
			if ref := hs.vals[i].get("$ref").text(); l.dangling(ref) {
				l.mistake("dangling header $ref", at(child(child(ptr, "headers"), name), hs.vals[i]), fmt.Sprintf("$ref %q points at nothing: the header is left out of its response", ref))
				continue
			}
			h, hptr, err := l.deref(hs.vals[i], child(child(ptr, "headers"), name))
			if err != nil {
				return nil, err
			}
			hd := Header{Name: name, Required: h.get("required").flag(false), place: placeOf(hptr, h)}
			if hd.exampleList, err = l.examples(h, hptr, ""); err != nil {
				return nil, err
			}
			if s := h.get("schema"); s != nil {
				if hd.Schema, err = l.schemas.build(s, child(hptr, "schema")); err != nil {
					return nil, err
				}
				l.schemas.validated(hd.Schema)
			}
			out.Headers = append(out.Headers, hd)
		}
	}
	out.Links = l.links(n, ptr)
	return out, nil
}

// content reads a map of Media Type Objects.
func (l *loader) content(c *node, ptr string) ([]*Media, error) {
	if !c.isObject() {
		return nil, nil
	}
	var out []*Media
	for i, mt := range c.keys {
		mptr := child(ptr, mt)
		mn, mptr, err := l.deref(c.vals[i], mptr)
		if err != nil {
			return nil, err
		}
		m := &Media{Type: strings.ToLower(mt), place: placeOf(mptr, mn)}
		if !strings.Contains(mt, "/") {
			l.warn("bare media type "+m.Type, at(mptr, c.vals[i]),
				fmt.Sprintf("%q is no media type (type/subtype, such as application/%s): it is matched and sent as written", mt, m.Type))
		}
		if s := mn.get("schema"); s != nil {
			if m.Schema, err = l.schemas.build(s, child(mptr, "schema")); err != nil {
				return nil, err
			}
			l.schemas.validated(m.Schema)
		}
		if err := l.items(m, mn, mptr); err != nil {
			return nil, err
		}
		if m.exampleList, err = l.examples(mn, mptr, m.Type); err != nil {
			return nil, err
		}
		// Example is the example keyword's, else the first named one's.
		for _, ex := range m.exampleList {
			if ex.Name != "" {
				if m.Examples == nil {
					m.Examples = map[string]any{}
				}
				m.Examples[ex.Name] = ex.Value
			}
			if !m.HasExample {
				m.Example, m.HasExample = ex.Value, true
			}
		}
		if enc := mn.get("encoding"); enc.isObject() {
			m.Encoding = map[string]Encoding{}
			for j, name := range enc.keys {
				e := enc.vals[j]
				en := Encoding{ContentType: e.get("contentType").text(), Style: e.get("style").text(), AllowReserved: e.get("allowReserved").flag(false)}
				if x := e.get("explode"); x != nil && x.kind == boolNode {
					v := x.b
					en.Explode = &v
				}
				m.Encoding[name] = en
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// exampleValue is what an Example Object of media type mt holds, as the
// mock answers it: for a JSON type its dataValue (3.2), else its value,
// else its serializedValue (3.2) read as JSON; for any other type its
// serializedValue, the text sent as it is, else its dataValue, else its
// value. ok is false when it holds none of them (an externalValue, which
// the mock does not fetch); a JSON type's serializedValue that is not
// JSON is a mistake, and the example is left out.
func (l *loader) exampleValue(mt string, ex *node, ptr string) (v any, ok bool) {
	data := ex.get("value")
	if d := ex.get("dataValue"); d != nil && l.doc.v32 {
		data = d
	}
	sv := ex.get("serializedValue")
	if !l.doc.v32 || sv == nil || sv.kind != stringNode {
		sv = nil
	}
	json := IsJSON(mt)
	switch {
	case data != nil && (json || sv == nil):
		return data.value(), true
	case sv != nil && !json:
		return sv.str, true
	case sv != nil:
		v, err := jsonx.Decode([]byte(sv.str))
		if err != nil {
			l.mistake("serializedValue", at(child(ptr, "serializedValue"), sv), fmt.Sprintf("the serializedValue of an example of %s is not JSON (%s): the example is left out", mt, oneLine(err)))
			return nil, false
		}
		return v, true
	}
	return nil, false
}

// extension reports whether a key of an object that allows specification
// extensions (Paths, Responses, Callback) is one: it starts with x-.
func extension(key string) bool { return strings.HasPrefix(key, "x-") }

// ignoredHeader reports whether a header parameter is one OpenAPI says to
// ignore: Accept, Content-Type and Authorization; or Content-Length,
// which frames the message and is the HTTP client's to send or not (Go's
// leaves it out of a DELETE without a body, as RFC 9110 section 8.6
// advises), never the caller's.
func ignoredHeader(name string) bool {
	return strings.EqualFold(name, "Accept") || strings.EqualFold(name, "Content-Type") || strings.EqualFold(name, "Authorization") ||
		strings.EqualFold(name, "Content-Length")
}
