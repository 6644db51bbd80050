package openapi

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// The schemas of a document are compiled from the document's own nodes, so
// that nothing is lost in between (boolean schemas, keywords a model does
// not have). Every schema that is validated or referred to is copied, as
// the JSON value it is, into the $defs of one synthetic schema resource,
// under its JSON pointer in the document; local references are rewritten to
// point there. The JSON Schema library then sees one resource whose every
// schema it can find by walking keywords, and compiles each at most once.

const (
	rootURL      = "urn:plantmock:document"
	requestURL   = "urn:plantmock:request"
	oasDialect31 = "https://spec.openapis.org/oas/3.1/dialect/base"
	draft2020URL = "https://json-schema.org/draft/2020-12/schema"
	draft4URL    = "http://json-schema.org/draft-04/schema#"
)

type compiler struct {
	// locations caches where in the document a violated keyword is, by
	// the library's schema location and kind of error (see
	// schemaLocation): the same few are asked for again and again.
	locations locationCache

	l    *loader
	v31  bool
	root string // the synthetic resource's URL
	// mode is which direction the resource's schemas judge values in:
	// readOnly properties are required in responses only, writeOnly ones in
	// requests only (OAS 3.0 4.7.25; 3.1 keeps the rule for its documents).
	mode direction
	// request compiles the schemas again for requests, when the document
	// has a required property that is readOnly or writeOnly; nil when
	// requests and responses are judged alike.
	request *compiler
	defs    map[string]any // the resource's $defs, by the schemas' pointers in the document
	conv    map[convKey]any
	c       *jsonschema.Compiler
	err     error
	// reach is how far from 1 a request's number must be to be handed to
	// the library as a stand-in (numbers.go), from the document's numbers.
	reach int64

	mu sync.Mutex // compiles after load
}

type convKey struct {
	n        *node
	resource *node // the enclosing schema with an $id, or nil
}

// direction is which way the values a compiler's schemas judge travel.
type direction uint8

const (
	asWritten  direction = iota // the schemas as the document writes them
	inResponse                  // writeOnly properties are not required
	inRequest                   // readOnly properties are not required
)

// newCompiler makes the compiler of a document's schemas. When some
// required property is readOnly or writeOnly, it judges responses, and a
// second one, made now and compiling on first use, judges requests.
func newCompiler(l *loader) *compiler {
	l.patterns.scan(l.root)
	c := newModeCompiler(l, rootURL, asWritten)
	if directional(l.schemas.all) {
		c.mode = inResponse
		c.request = newModeCompiler(l, requestURL, inRequest)
	}
	return c
}

// directional reports whether any schema requires a readOnly or writeOnly
// property.
func directional(all []*Schema) bool {
	for _, s := range all {
		for _, r := range s.Required {
			if p := s.Property(r); p != nil && (p.ReadOnly || p.WriteOnly) {
				return true
			}
		}
	}
	return false
}

func newModeCompiler(l *loader, root string, mode direction) *compiler {
	c := &compiler{l: l, v31: l.doc.v31, root: root, mode: mode, reach: reachOf(l.root), defs: map[string]any{}, conv: map[convKey]any{}, c: jsonschema.NewCompiler()}
	if c.v31 {
		c.c.DefaultDraft(jsonschema.Draft2020)
		if d := l.root.get("jsonSchemaDialect").text(); d != "" && d != oasDialect31 && d != draft2020URL {
			c.warn("dialect", at("/jsonSchemaDialect", l.root.get("jsonSchemaDialect")),
				fmt.Sprintf("jsonSchemaDialect %q is not supported; schemas are read as JSON Schema 2020-12", d))
		}
	} else {
		c.c.DefaultDraft(jsonschema.Draft4)
		c.c.RegisterVocabulary(integerLiterals)
	}
	registerFormats(c.c)
	c.c.UseRegexpEngine(l.patterns.engine)
	return c
}

// defsKeyword is where the resource keeps its schemas: $defs in 2020-12,
// definitions in draft 4.
func (c *compiler) defsKeyword() string {
	if c.v31 {
		return "$defs"
	}
	return "definitions"
}

// defRef is a reference to the schema at ptr within the resource.
func (c *compiler) defRef(ptr string) string {
	return "#/" + c.defsKeyword() + "/" + url.PathEscape(PointerToken(ptr))
}

// compileAll compiles the schemas values are validated against on their
// own; the others are compiled on first use.
func (c *compiler) compileAll(all []*Schema) error {
	need := c.l.schemas.need
	for _, s := range need {
		c.def(s.src, s.ptr)
	}
	if c.err != nil {
		return c.err
	}
	for _, s := range all {
		s.comp = c
	}
	if err := c.addResource(); err != nil {
		return err
	}
	for _, s := range need {
		if s.compiled.Load() != nil {
			continue
		}
		cs, err := c.compileLoc(c.defRef(s.ptr))
		if err != nil {
			return c.compileProblem(s, err)
		}
		s.compiled.Store(cs)
	}
	if c.request != nil {
		// The request resource holds the same schemas, compiled the same
		// way: the library walks a resource when it is first compiled
		// from, so every schema validated on its own is compiled now.
		req := requestSchemas(c.l.doc)
		for _, s := range req {
			c.request.def(s.src, s.ptr)
		}
		if err := c.request.addResource(); err != nil {
			return err
		}
		for _, s := range req {
			if c.request.compileInto(s, &s.compiledRequest) == nil {
				return fail(s.ptr, s.src, "the schema does not compile for requests")
			}
		}
	}
	return nil
}

// requestSchemas returns the schemas requests are validated against:
// parameters and bodies.
func requestSchemas(d *Document) []*Schema {
	var out []*Schema
	add := func(s *Schema) {
		if s != nil && s.src != nil {
			out = append(out, s)
		}
	}
	for _, op := range d.Operations {
		for _, p := range op.Params {
			add(p.Schema)
			if p.Content != nil {
				add(p.Content.Schema)
			}
		}
		if op.Body != nil {
			for _, m := range op.Body.Content {
				add(m.Schema)
			}
		}
	}
	return out
}

// addResource hands the resource to the library.
func (c *compiler) addResource() error {
	schema := draft4URL
	if c.v31 {
		schema = draft2020URL
	}
	if err := c.c.AddResource(c.root, map[string]any{"$schema": schema, c.defsKeyword(): c.defs}); err != nil {
		return fmt.Errorf("the schemas cannot be compiled: %s", oneLine(err))
	}
	return nil
}

// warn records a caveat about the document; the request compiler reads
// the same schemas again and says nothing new.
func (c *compiler) warn(kind string, where, text string) {
	if c.mode != inRequest {
		c.l.warn(kind, where, text)
	}
}

// compileProblem words a compile error on one line, naming the keyword
// at fault by its place in the document when the schema breaks the
// meta-schema.
func (c *compiler) compileProblem(s *Schema, err error) error {
	var se *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if errors.As(err, &se) && errors.As(se.Err, &ve) {
		for len(ve.Causes) > 0 {
			ve = ve.Causes[0]
		}
		loc := ve.InstanceLocation
		if len(loc) >= 2 && loc[0] == c.defsKeyword() {
			ptr := loc[1]
			for _, tok := range loc[2:] {
				ptr = child(ptr, tok)
			}
			return fail(ptr, c.l.root.pointer(ptr), "the schema is not valid JSON Schema: %s", reason(ve.ErrorKind))
		}
	}
	msg := strings.ReplaceAll(oneLine(err), c.root+"#/"+c.defsKeyword()+"/", "#")
	return fail(s.ptr, s.src, "the schema does not compile: %s", msg)
}

// compileFor returns s compiled for values travelling in direction mode,
// compiling it on first use: a schema validated for the first time after
// load (a property or items schema, say), or for requests.
func (c *compiler) compileFor(s *Schema, mode direction) *jsonschema.Schema {
	if mode == inRequest && c.request != nil {
		if cs := s.compiledRequest.Load(); cs != nil {
			return cs
		}
		return c.request.compileInto(s, &s.compiledRequest)
	}
	if cs := s.compiled.Load(); cs != nil {
		return cs
	}
	return c.compileInto(s, &s.compiled)
}

// compileInto compiles s in c's resource and keeps the result in dst.
func (c *compiler) compileInto(s *Schema, dst *atomic.Pointer[jsonschema.Schema]) *jsonschema.Schema {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cs := dst.Load(); cs != nil {
		return cs
	}
	loc := ""
	for p := s.ptr; p != ""; p = p[:strings.LastIndexByte(p, '/')] {
		if _, ok := c.defs[p]; ok {
			loc = c.defRef(p)
			for _, tok := range strings.Split(strings.TrimPrefix(s.ptr[len(p):], "/"), "/") {
				if tok != "" {
					loc += "/" + url.PathEscape(tok)
				}
			}
			break
		}
	}
	if loc == "" {
		// Not within a compiled schema: add it (the library then works
		// through the resource once more).
		c.def(s.src, s.ptr)
		loc = c.defRef(s.ptr)
	}
	cs, err := c.compileLoc(loc)
	if err != nil {
		return nil
	}
	dst.Store(cs)
	return cs
}

// def copies the schema at ptr into the resource's $defs.
func (c *compiler) def(n *node, ptr string) {
	if _, ok := c.defs[ptr]; ok {
		return
	}
	c.defs[ptr] = true // placeholder while converting, for recursion
	c.defs[ptr] = c.schema(n, ptr, resourceRoot{})
}

// Keywords whose values are schemas, by shape.
var (
	schemaKeywords = map[string]bool{
		"additionalProperties": true, "additionalItems": true, "not": true, "if": true, "then": true, "else": true,
		"contains": true, "propertyNames": true, "unevaluatedItems": true, "unevaluatedProperties": true,
		"contentSchema": true, "items": true,
	}
	schemaListKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true}
	schemaMapKeywords  = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true,
	}
	// keywords2020 are the keywords of JSON Schema 2020-12 and of the OAS
	// 3.1 base vocabulary.
	keywords2020 = words(`$schema $id $anchor $dynamicAnchor $dynamicRef $ref $defs $comment $vocabulary
		allOf anyOf oneOf not if then else dependentSchemas prefixItems items contains properties
		patternProperties additionalProperties propertyNames unevaluatedItems unevaluatedProperties
		type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength
		pattern maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required
		dependentRequired title description default deprecated readOnly writeOnly examples format
		contentEncoding contentMediaType contentSchema definitions dependencies
		discriminator xml externalDocs example`)
	// keywords30 are the keywords of the OAS 3.0 Schema Object.
	keywords30 = words(`$ref title multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength
		minLength pattern maxItems minItems uniqueItems maxProperties minProperties required enum type
		allOf oneOf anyOf not items properties additionalProperties description format default nullable
		discriminator readOnly writeOnly xml externalDocs example deprecated`)
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// schema converts a schema node into the JSON value the library compiles,
// in the document's dialect: references rewritten into the resource,
// keywords foreign to the dialect left out with a warning, and for 3.0
// nullable turned into the null type. res is the nearest enclosing schema
// with its own $id (the zero value outside any), against which references
// within it are resolved (see idRef).
func (c *compiler) schema(n *node, ptr string, res resourceRoot) any {
	switch n.kind {
	case boolNode:
		return n.b
	case objectNode:
	default:
		return n.value()
	}
	key := convKey{n, res.n}
	if v, ok := c.conv[key]; ok {
		return v
	}
	out := make(map[string]any, len(n.keys))
	c.conv[key] = out
	if c.v31 && n.has("$id") {
		res = resourceRoot{n, ptr}
	}
	for i, k := range n.keys {
		v := n.vals[i]
		kptr := child(ptr, k)
		if strings.HasPrefix(k, "x-") {
			continue
		}
		if !c.known(k, v, kptr) {
			continue
		}
		switch {
		case k == "additionalProperties" && c.l.opened[n]:
			// Refuses what the schema requires: left out (a mistake, said
			// by openRefusing).
		case k == "$ref" && (res.n == nil && c.l.dangling(v.text()) || res.n != nil && c.l.danglingIn(res, v.text())):
			// A mistake the model reported (see schemaBuilder.resolve):
			// the schema is read without it.
		case (k == "$ref" || k == "$dynamicRef" && strings.HasPrefix(v.str, "#/")) && v.kind == stringNode:
			// A $dynamicRef to a JSON pointer (not to an anchor) means
			// what a $ref would, and is rewritten into the resource alike.
			out[k] = c.ref(k, v, ptr, res)
		case k == "format" && !asserted[v.text()]:
			// An annotation: the validator need not see it (and would
			// assert regex, which it does not let be overridden).
		case k == "$schema" && v.text() == oasDialect31:
			// The OAS base dialect is the document's default.
		case k == "$schema" && !knownDialect(v.text()):
			c.warn("$schema "+v.text(), at(kptr, v), fmt.Sprintf("$schema %q is not a dialect plantmock knows: the schema is read in the document's dialect", clipped(v.text())))
		case k == "enum" && v.kind == arrayNode && !c.v31:
			out[k] = c.uniqueEnum(v, kptr)
		case k == "required" && v.kind == arrayNode && c.mode != asWritten:
			if r := c.required(n, v); len(r) > 0 { // draft 4 wants one at least
				out[k] = r
			}
		case k == "pattern" && v.kind == stringNode && c.literalPattern(v.str, ptr, kptr, v):
			// Matches nothing as written: left out (a mistake, said by literalPattern).
		case k == "pattern" && v.kind == stringNode && !c.checkPattern(v.str, kptr, v, false):
			// Not a regular expression: left out (a mistake, said by checkPattern).
		case k == "pattern" && v.kind == stringNode && c.hopelessPattern(n, v.str, ptr, kptr, v):
			// No string it matches is valid: left out (a mistake, said by hopelessPattern).
		case schemaMapKeywords[k] && v.isObject():
			m := make(map[string]any, len(v.keys))
			for j, name := range v.keys {
				if k == "patternProperties" && !c.checkPattern(name, child(kptr, name), v.vals[j], true) {
					continue
				}
				m[name] = c.schema(v.vals[j], child(kptr, name), res)
			}
			out[k] = m
		case schemaListKeywords[k] && v.kind == arrayNode:
			l := make([]any, len(v.vals))
			for j, e := range v.vals {
				l[j] = c.schema(e, child(kptr, fmt.Sprint(j)), res)
			}
			out[k] = l
		case schemaKeywords[k]:
			out[k] = c.schema(v, kptr, res)
		default:
			out[k] = v.value()
		}
	}
	if !c.v31 && n.get("nullable").flag(false) {
		delete(out, "nullable")
		if t, ok := out["type"].(string); ok {
			out["type"] = []any{t, "null"}
		}
	}
	return out
}

// known reports whether keyword k belongs to the dialect, warning about
// those that do not (they are annotations: left out of validation).
func (c *compiler) known(k string, v *node, ptr string) bool {
	if c.v31 {
		switch {
		case k == "nullable":
			c.warn("nullable", at(ptr, v), `nullable is OpenAPI 3.0, not JSON Schema 2020-12: it is ignored (write type: [..., "null"])`)
			return false
		case (k == "exclusiveMinimum" || k == "exclusiveMaximum") && v.kind == boolNode:
			c.warn("boolean "+k, at(ptr, v), fmt.Sprintf("a boolean %s is OpenAPI 3.0, not JSON Schema 2020-12: it is ignored (write the bound as %s's value)", k, k))
			return false
		case !keywords2020[k]:
			c.warn("unknown "+k, at(ptr, v), fmt.Sprintf("%s is not a JSON Schema 2020-12 keyword: it is an annotation", k))
		}
		return true
	}
	if !keywords30[k] {
		c.warn("foreign "+k, at(ptr, v), fmt.Sprintf("%s is not a keyword of the OpenAPI 3.0 Schema Object: it is ignored", k))
		return false
	}
	if k == "type" && v.kind != stringNode {
		c.warn("type list", at(ptr, v), "in OpenAPI 3.0 type is a single string: the list is read as JSON Schema draft 4 reads it")
	}
	return true
}

// ref rewrites reference v, the value of keyword kw of the schema at ptr,
// into the resource. Within a schema with its own $id (res), a reference
// is left as it is, to be resolved against the $id, unless idRef reads it
// as one into the document.
func (c *compiler) ref(kw string, v *node, ptr string, res resourceRoot) string {
	ref := v.str
	if res.n != nil {
		tn, tptr, outside, ok := c.l.idRef(res, ref)
		if !ok || !outside {
			return ref
		}
		c.warn(kw+" under $id", at(child(ptr, kw), v), idRefCaveat(kw, ref, res))
		c.def(tn, tptr)
		// Absolute, so that the library does not resolve it against the
		// $id too.
		return c.root + c.defRef(tptr)
	}
	ref = c.l.local(ref)
	if !strings.HasPrefix(ref, "#") {
		u, err := url.Parse(ref)
		if err == nil && u.Scheme == "" && c.l.self != nil && c.l.self.IsAbs() {
			// Relative to $self: the URI it resolves to.
			u = c.l.self.ResolveReference(u)
			ref = u.String()
		}
		if err != nil || u.Scheme == "" {
			// Relative to the document's own location, which is not known
			// without an absolute $self: a file next to it, say.
			if c.err == nil {
				c.err = fail(ptr, v, "$ref %s points outside the document; only references within it (#/...) are supported", c.l.outside(ref))
			}
			return ref
		}
	}
	if !strings.HasPrefix(ref, "#/") {
		return ref
	}
	tn, tptr, err := c.l.resolve(ref, ptr, v)
	if err != nil {
		if c.err == nil {
			c.err = err
		}
		return ref
	}
	c.def(tn, tptr)
	return c.defRef(tptr)
}

// required is a required list as the compiler's direction reads it: in
// requests without the properties the schema declares readOnly, in
// responses without the writeOnly ones.
func (c *compiler) required(n, list *node) []any {
	s := c.l.schemas.memo[n]
	out := make([]any, 0, len(list.vals))
	for _, v := range list.vals {
		if p := s.Property(v.text()); p != nil && (c.mode == inRequest && p.ReadOnly || c.mode == inResponse && p.WriteOnly) {
			continue
		}
		out = append(out, v.value())
	}
	return out
}

// knownDialect reports whether a $schema names a JSON Schema draft the
// validator has.
func knownDialect(u string) bool {
	u = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://"), "#")
	switch u {
	case "json-schema.org/draft-04/schema", "json-schema.org/draft-06/schema", "json-schema.org/draft-07/schema",
		"json-schema.org/draft/2019-09/schema", "json-schema.org/draft/2020-12/schema":
		return true
	}
	return false
}

// uniqueEnum returns an enum's values without repeats: the OAS 3.0
// Schema Object (after draft 4) wants them unique, and a repeat changes
// nothing that is accepted, so it is a warning, not a reason to refuse the
// document.
func (c *compiler) uniqueEnum(v *node, ptr string) []any {
	out := make([]any, 0, len(v.vals))
	seen := map[string]bool{}
	for _, e := range v.vals {
		key := string(jsonx.Marshal(e.value()))
		if seen[key] {
			c.warn("enum repeats", at(ptr, v), "enum lists a value twice; the repeat is ignored")
			continue
		}
		seen[key] = true
		out = append(out, e.value())
	}
	return out
}
