package openapi

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi-validator/config"
	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"
	"github.com/pb33f/libopenapi-validator/parameters"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
	"github.com/pb33f/libopenapi/utils"
	"go.yaml.in/yaml/v4"

	"github.com/plantmock/plantmock/mock/internal/jsonx"
)

type validationError = liberrors.ValidationError

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

	router  *Router
	version float32
	opts    *config.ValidationOptions
	model   *v3.Document
}

// Router returns the document's router.
func (d *Document) Router() *Router { return d.router }

// maxDepth bounds schema nesting, so that a pathological document is
// refused instead of exhausting the stack.
const maxDepth = 64

// Load parses and checks an OpenAPI 3.0 or 3.1 document. Missing
// references, circular schemas, Swagger 2 documents and schemas that do not
// compile are errors.
func Load(data []byte) (*Document, error) {
	cfg := datamodel.NewDocumentConfiguration()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.AllowFileReferences = false
	cfg.AllowRemoteReferences = false
	ld, err := libopenapi.NewDocumentWithConfiguration(data, cfg)
	if err != nil {
		return nil, fmt.Errorf("not an OpenAPI document: %w", err)
	}
	info := ld.GetSpecInfo()
	if info == nil || !strings.HasPrefix(ld.GetVersion(), "3.") {
		return nil, fmt.Errorf("not an OpenAPI 3.0 or 3.1 document (openapi/swagger version %q)", ld.GetVersion())
	}
	m, err := ld.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("broken document: %s", oneLine(err))
	}
	if m == nil {
		return nil, errors.New("broken document: no model could be built")
	}
	if res := m.Index.GetResolver(); res != nil {
		if refs := res.GetCircularReferences(); len(refs) > 0 {
			return nil, fmt.Errorf("circular schema reference %s: circular schemas are not supported", refs[0].GenerateJourneyPath())
		}
	}
	d := &Document{
		OpenAPI: ld.GetVersion(),
		Schemas: map[string]*Schema{},
		model:   &m.Model,
		opts:    config.NewValidationOptions(config.WithoutSecurityValidation(), config.WithLogger(cfg.Logger)),
	}
	d.version = helpers.VersionToFloat(d.OpenAPI)
	if m.Model.Info != nil {
		d.Title, d.Version = m.Model.Info.Title, m.Model.Info.Version
	}
	for _, sv := range m.Model.Servers {
		if p := basePath(sv); p != "" {
			d.BasePaths = append(d.BasePaths, p)
		}
	}
	b := &builder{doc: d, byHash: map[uint64]*Schema{}}
	if err := b.build(&m.Model); err != nil {
		return nil, err
	}
	return d, nil
}

// basePath returns the path of a server URL without its trailing slash.
func basePath(sv *v3.Server) string {
	u := sv.URL
	for p := sv.Variables.First(); p != nil; p = p.Next() {
		u = strings.ReplaceAll(u, "{"+p.Key()+"}", p.Value().Default)
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

func oneLine(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	return s
}

type builder struct {
	doc    *Document
	byHash map[uint64]*Schema
	params parameters.ParameterValidator
}

func (b *builder) build(m *v3.Document) error {
	d := b.doc
	schemes := map[string]*SecurityScheme{}
	if m.Components != nil {
		for p := m.Components.SecuritySchemes.First(); p != nil; p = p.Next() {
			s := p.Value()
			schemes[p.Key()] = &SecurityScheme{Name: p.Key(), Type: s.Type, Scheme: strings.ToLower(s.Scheme), In: s.In, Param: s.Name}
		}
		for p := m.Components.Schemas.First(); p != nil; p = p.Next() {
			s, err := b.schema(p.Value(), 0, "#/components/schemas/"+p.Key())
			if err != nil {
				return err
			}
			if s.Name == "" {
				s.Name = p.Key()
			}
			d.Schemas[p.Key()] = s
		}
	}
	global, err := requirements(m.Security, schemes)
	if err != nil {
		return err
	}
	b.params = parameters.NewParameterValidator(m, config.WithExistingOpts(d.opts))
	d.router = newRouter()
	if m.Paths == nil {
		return nil
	}
	for pp := m.Paths.PathItems.First(); pp != nil; pp = pp.Next() {
		path, item := pp.Key(), pp.Value()
		if !strings.HasPrefix(path, "/") {
			return fmt.Errorf("path %q does not start with /", path)
		}
		for op := item.GetOperations().First(); op != nil; op = op.Next() {
			o, err := b.operation(strings.ToUpper(op.Key()), path, item, op.Value(), global, schemes)
			if err != nil {
				return fmt.Errorf("%s %s: %w", strings.ToUpper(op.Key()), path, err)
			}
			d.Operations = append(d.Operations, o)
			if err := d.router.add(o); err != nil {
				return err
			}
		}
	}
	return nil
}

func requirements(reqs []*base.SecurityRequirement, schemes map[string]*SecurityScheme) ([]Requirement, error) {
	var out []Requirement
	for _, r := range reqs {
		if r == nil {
			continue
		}
		if r.ContainsEmptyRequirement || r.Requirements == nil || r.Requirements.Len() == 0 {
			out = append(out, Requirement{})
			continue
		}
		var alt Requirement
		for p := r.Requirements.First(); p != nil; p = p.Next() {
			s, ok := schemes[p.Key()]
			if !ok {
				return nil, fmt.Errorf("security requirement names %q, which is not in components.securitySchemes", p.Key())
			}
			alt = append(alt, s)
		}
		out = append(out, alt)
	}
	return out, nil
}

func (b *builder) operation(method, path string, item *v3.PathItem, op *v3.Operation, global []Requirement, schemes map[string]*SecurityScheme) (*Operation, error) {
	o := &Operation{Method: method, Path: path, Name: method + " " + path, ID: op.OperationId, doc: b.doc, pathItem: item, params: b.params}
	o.Security = global
	if op.Security != nil {
		sec, err := requirements(op.Security, schemes)
		if err != nil {
			return nil, err
		}
		o.Security = sec
	}
	seen := map[string]int{}
	for _, list := range [][]*v3.Parameter{item.Parameters, op.Parameters} {
		for _, p := range list {
			if p == nil {
				continue
			}
			var s *Schema
			if p.Schema != nil {
				var err error
				if s, err = b.schema(p.Schema, 0, "parameter "+p.Name); err != nil {
					return nil, err
				}
			}
			prm := Param{Name: p.Name, In: p.In, Required: p.Required != nil && *p.Required, Schema: s}
			key := p.In + ":" + p.Name
			if i, ok := seen[key]; ok {
				o.Params[i] = prm
				continue
			}
			seen[key] = len(o.Params)
			o.Params = append(o.Params, prm)
			if p.In == "query" {
				o.checkQuery = true
			} else {
				o.checkOther = true
			}
		}
	}
	if rb := op.RequestBody; rb != nil {
		o.Body = &RequestBody{Required: rb.Required != nil && *rb.Required}
		ms, err := b.content(rb.Content, "request body")
		if err != nil {
			return nil, err
		}
		o.Body.Content = ms
	}
	if op.Responses != nil {
		for p := op.Responses.Codes.First(); p != nil; p = p.Next() {
			r, err := b.response(strings.ToUpper(p.Key()), p.Value())
			if err != nil {
				return nil, err
			}
			o.Responses = append(o.Responses, r)
		}
		if op.Responses.Default != nil {
			r, err := b.response("default", op.Responses.Default)
			if err != nil {
				return nil, err
			}
			o.Default = r
		}
	}
	return o, nil
}

func (b *builder) response(status string, r *v3.Response) (*Response, error) {
	out := &Response{Status: status, Code: statusCode(status)}
	ms, err := b.content(r.Content, "response "+status)
	if err != nil {
		return nil, err
	}
	out.Content = ms
	for p := r.Headers.First(); p != nil; p = p.Next() {
		h := p.Value()
		var s *Schema
		if h.Schema != nil {
			if s, err = b.schema(h.Schema, 0, "header "+p.Key()); err != nil {
				return nil, err
			}
		}
		out.Headers = append(out.Headers, Header{Name: p.Key(), Required: h.Required, Schema: s})
	}
	return out, nil
}

func (b *builder) content(c *orderedmap.Map[string, *v3.MediaType], where string) ([]*Media, error) {
	var out []*Media
	for p := c.First(); p != nil; p = p.Next() {
		mt := p.Value()
		m := &Media{Type: strings.ToLower(p.Key())}
		if mt.Schema != nil {
			s, err := b.schema(mt.Schema, 0, where)
			if err != nil {
				return nil, err
			}
			if IsJSON(m.Type) {
				if err := b.compile(s, mt.Schema, where); err != nil {
					return nil, err
				}
			}
			m.Schema = s
		}
		for ex := mt.Examples.First(); ex != nil; ex = ex.Next() {
			if ex.Value() == nil || ex.Value().Value == nil {
				continue
			}
			v, err := nodeValue(ex.Value().Value)
			if err != nil {
				return nil, fmt.Errorf("%s: example %s: %w", where, ex.Key(), err)
			}
			if m.Examples == nil {
				m.Examples = map[string]any{}
			}
			m.Examples[ex.Key()] = v
		}
		if mt.Example != nil {
			v, err := nodeValue(mt.Example)
			if err != nil {
				return nil, fmt.Errorf("%s: example: %w", where, err)
			}
			m.Example, m.HasExample = v, true
		} else if ex := mt.Examples.First(); ex != nil && ex.Value() != nil && ex.Value().Value != nil {
			m.Example, m.HasExample = m.Examples[ex.Key()], true
		}
		out = append(out, m)
	}
	return out, nil
}

// compile renders the schema inline and compiles it for validation.
func (b *builder) compile(s *Schema, p *base.SchemaProxy, where string) error {
	if s.compiled != nil {
		return nil
	}
	hs := p.Schema()
	if hs == nil {
		return fmt.Errorf("%s: schema cannot be built: %v", where, p.GetBuildError())
	}
	y, err := hs.RenderInlineWithContext(base.NewInlineRenderContextForValidation())
	if err != nil {
		return fmt.Errorf("%s: schema cannot be rendered: %s", where, oneLine(err))
	}
	js, err := utils.ConvertYAMLtoJSON(y)
	if err != nil {
		return fmt.Errorf("%s: schema cannot be converted to JSON: %s", where, oneLine(err))
	}
	c, err := helpers.NewCompiledSchemaWithVersion(fmt.Sprintf("plantmock:%x", s.hash), js, b.doc.opts, b.doc.version)
	if err != nil {
		return fmt.Errorf("%s: schema does not compile: %s", where, oneLine(err))
	}
	s.compiled = c
	return nil
}

// schema converts a schema proxy into a Schema, merging allOf members.
func (b *builder) schema(p *base.SchemaProxy, depth int, where string) (*Schema, error) {
	if p == nil {
		return nil, nil
	}
	if depth > maxDepth {
		return nil, fmt.Errorf("%s: schemas nested deeper than %d levels", where, maxDepth)
	}
	hs, err := p.BuildSchema()
	if err != nil || hs == nil {
		return nil, fmt.Errorf("%s: schema cannot be built: %v", where, err)
	}
	var hash uint64
	if low := hs.GoLow(); low != nil {
		hash = low.Hash()
		if s, ok := b.byHash[hash]; ok {
			return s, nil
		}
	}
	s := &Schema{
		Ref:       p.GetReference(),
		Types:     hs.Type,
		Format:    hs.Format,
		Required:  append([]string(nil), hs.Required...),
		Pattern:   hs.Pattern,
		MinLength: hs.MinLength, MaxLength: hs.MaxLength,
		MinItems: hs.MinItems, MaxItems: hs.MaxItems,
		Minimum: hs.Minimum, Maximum: hs.Maximum, MultipleOf: hs.MultipleOf,
		UniqueItems: hs.UniqueItems != nil && *hs.UniqueItems,
		ReadOnly:    hs.ReadOnly != nil && *hs.ReadOnly,
		WriteOnly:   hs.WriteOnly != nil && *hs.WriteOnly,
		Nullable:    hs.Nullable != nil && *hs.Nullable,
		hash:        hash,
	}
	if i := strings.LastIndex(s.Ref, "/"); i >= 0 && strings.HasPrefix(s.Ref, "#/components/schemas/") {
		s.Name = s.Ref[i+1:]
	}
	if s.Nullable && b.doc.version < 3.05 && !s.Is("null") && len(s.Types) > 0 {
		s.Types = append(append([]string(nil), s.Types...), "null")
	}
	if hash != 0 {
		b.byHash[hash] = s
	}
	if em := hs.ExclusiveMinimum; em != nil {
		if em.IsA() {
			s.ExclusiveMinimum = em.A
		} else {
			v := em.B
			s.Minimum, s.ExclusiveMinimum = &v, true
		}
	}
	if em := hs.ExclusiveMaximum; em != nil {
		if em.IsA() {
			s.ExclusiveMaximum = em.A
		} else {
			v := em.B
			s.Maximum, s.ExclusiveMaximum = &v, true
		}
	}
	if hs.AdditionalProperties != nil && hs.AdditionalProperties.IsB() && !hs.AdditionalProperties.B {
		s.NoAdditionalProperties = true
	}
	for _, n := range hs.Enum {
		v, err := nodeValue(n)
		if err != nil {
			return nil, fmt.Errorf("%s: enum: %w", where, err)
		}
		s.Enum = append(s.Enum, v)
	}
	for _, pair := range []struct {
		n   *yaml.Node
		v   *any
		has *bool
	}{{hs.Const, &s.Const, &s.HasConst}, {hs.Example, &s.Example, &s.HasExample}, {hs.Default, &s.Default, &s.HasDefault}} {
		if pair.n == nil {
			continue
		}
		v, err := nodeValue(pair.n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		*pair.v, *pair.has = v, true
	}
	if !s.HasExample && len(hs.Examples) > 0 {
		if v, err := nodeValue(hs.Examples[0]); err == nil {
			s.Example, s.HasExample = v, true
		}
	}
	for _, m := range hs.AllOf {
		ms, err := b.schema(m, depth+1, where)
		if err != nil {
			return nil, err
		}
		s.merge(ms)
	}
	for pr := hs.Properties.First(); pr != nil; pr = pr.Next() {
		ps, err := b.schema(pr.Value(), depth+1, where+"."+pr.Key())
		if err != nil {
			return nil, err
		}
		s.setProperty(pr.Key(), ps)
	}
	if hs.Items != nil && hs.Items.IsA() {
		if s.Items, err = b.schema(hs.Items.A, depth+1, where+"[]"); err != nil {
			return nil, err
		}
	}
	for _, alts := range [][]*base.SchemaProxy{hs.AnyOf, hs.OneOf} {
		for _, a := range alts {
			as, err := b.schema(a, depth+1, where)
			if err != nil {
				return nil, err
			}
			s.AnyOf = append(s.AnyOf, as)
		}
	}
	if len(s.Types) == 0 && len(s.Properties) > 0 {
		s.Types = []string{"object"}
	}
	s.Structural = structural(hs, s)
	return s, nil
}

func (s *Schema) merge(m *Schema) {
	if m == nil {
		return
	}
	if len(s.Types) == 0 {
		s.Types = m.Types
	}
	if s.Format == "" {
		s.Format = m.Format
	}
	for _, p := range m.Properties {
		s.setProperty(p.Name, p.Schema)
	}
	for _, r := range m.Required {
		if !s.Requires(r) {
			s.Required = append(s.Required, r)
		}
	}
	if s.Items == nil {
		s.Items = m.Items
	}
	s.NoAdditionalProperties = s.NoAdditionalProperties || m.NoAdditionalProperties
}

func (s *Schema) setProperty(name string, ps *Schema) {
	for i := range s.Properties {
		if s.Properties[i].Name == name {
			s.Properties[i].Schema = ps
			return
		}
	}
	s.Properties = append(s.Properties, Property{Name: name, Schema: ps})
}

// structural reports whether hs constrains only type, properties, required
// and additionalProperties, here and in every property and allOf member.
func structural(hs *base.Schema, s *Schema) bool {
	if len(hs.OneOf) > 0 || len(hs.AnyOf) > 0 || hs.Not != nil || hs.If != nil || len(hs.Enum) > 0 || hs.Const != nil ||
		hs.Pattern != "" || hs.MinLength != nil || hs.MaxLength != nil || hs.Minimum != nil || hs.Maximum != nil ||
		hs.ExclusiveMinimum != nil || hs.ExclusiveMaximum != nil || hs.MultipleOf != nil || hs.MinItems != nil ||
		hs.MaxItems != nil || hs.MinProperties != nil || hs.MaxProperties != nil || hs.PatternProperties != nil ||
		hs.DependentRequired != nil || hs.DependentSchemas != nil || hs.PropertyNames != nil || hs.UnevaluatedProperties != nil ||
		(hs.UniqueItems != nil && *hs.UniqueItems) || len(hs.PrefixItems) > 0 || hs.Contains != nil {
		return false
	}
	if hs.Format != "" && hs.Format != "int64" && hs.Format != "int32" {
		return false
	}
	for _, p := range s.Properties {
		if p.Schema != nil && !p.Schema.Structural {
			return false
		}
	}
	if s.Items != nil && !s.Items.Structural {
		return false
	}
	for _, m := range hs.AllOf {
		if ms := m.Schema(); ms != nil && !structural(ms, &Schema{}) {
			return false
		}
	}
	return true
}

// nodeValue decodes a YAML node into a JSON value (numbers as json.Number).
func nodeValue(n *yaml.Node) (any, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return jsonx.Normalize(v)
}

// IsJSON reports whether a media type carries JSON: application/json,
// anything+json, or a wildcard that admits JSON.
func IsJSON(mt string) bool {
	mt = strings.ToLower(mt)
	if i := strings.IndexByte(mt, ';'); i >= 0 {
		mt = strings.TrimSpace(mt[:i])
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "*/*" || mt == "application/*"
}
