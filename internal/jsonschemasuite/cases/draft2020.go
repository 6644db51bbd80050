package cases

import (
	"maps"
	"net/url"
	"strings"
)

// caseBase is the $id given to a 2020-12 schema that has none, so that
// "#..." references resolve against the schema itself rather than against
// the OpenAPI document that holds it.
const caseBase = "https://plantmock.test/schema/case"

// metaschema2020 is where the 2020-12 meta-schemas live. A validator of
// the dialect knows them without fetching anything.
const metaschema2020 = "https://json-schema.org/draft/2020-12/"

// Why a 2020-12 group is skipped.
const (
	skipRemote       = "needs remote refs"
	skipOtherDialect = "$schema names another dialect"
)

// shape is how a keyword holds subschemas.
type shape uint8

const (
	single shape = iota // a schema
	list                // an array of schemas
	named               // an object of schemas
)

// subschemas2020 are the 2020-12 keywords whose values are schemas. What
// any other keyword holds is data, not schemas: an $id or $ref in it is
// not one.
var subschemas2020 = map[string]shape{
	"additionalProperties":  single,
	"contains":              single,
	"contentSchema":         single,
	"else":                  single,
	"if":                    single,
	"items":                 single,
	"not":                   single,
	"propertyNames":         single,
	"then":                  single,
	"unevaluatedItems":      single,
	"unevaluatedProperties": single,
	"allOf":                 list,
	"anyOf":                 list,
	"oneOf":                 list,
	"prefixItems":           list,
	"$defs":                 named,
	"dependentSchemas":      named,
	"patternProperties":     named,
	"properties":            named,
}

// prepare2020 makes the component schemas of the document for a 2020-12
// group: the schema as Case, with the $id caseBase when it has none (a
// relative $id is resolved against caseBase). It returns why the group is
// skipped instead, if it is.
func prepare2020(schema any) (map[string]any, []string) {
	if why := needs2020(schema); why != "" {
		return nil, []string{why}
	}
	if obj, ok := schema.(map[string]any); ok {
		id, _ := obj["$id"].(string)
		if u, err := url.Parse(id); err == nil && !u.IsAbs() {
			// No $id, or a relative one: resolve it as if the schema had
			// been retrieved from caseBase.
			cp := maps.Clone(obj)
			cp["$id"] = resolve(mustParse(caseBase), id).String()
			schema = cp
		}
	}
	return map[string]any{"Case": schema}, nil
}

// needs2020 returns why a 2020-12 schema cannot be checked on its own: a
// $ref, $dynamicRef or $schema that names a document the schema does not
// embed (other than the 2020-12 meta-schemas), or a $schema of another
// dialect. It returns "" for a self-contained schema.
func needs2020(schema any) string {
	resources := map[string]bool{} // the URIs of the schema's resources
	var targets []string           // the documents references point to
	why := ""
	walk2020(schema, mustParse(caseBase), func(obj map[string]any, base *url.URL) {
		resources[base.String()] = true
		for _, k := range []string{"$ref", "$dynamicRef"} {
			if ref, ok := obj[k].(string); ok {
				t := resolve(base, ref)
				if t == nil {
					why = skipRemote
					continue
				}
				targets = append(targets, t.String())
			}
		}
		if s, ok := obj["$schema"].(string); ok && strings.TrimSuffix(s, "#") != metaschema2020+"schema" {
			switch t := resolve(base, s); {
			case t == nil || t.Host == "localhost:1234":
				why = skipRemote // one of the suite's remotes
			case why == "":
				why = skipOtherDialect
			}
		}
	})
	for _, t := range targets {
		if !resources[t] && !strings.HasPrefix(t, metaschema2020) {
			why = skipRemote
		}
	}
	return why
}

// walk2020 calls visit for every schema object in s, with the base URI in
// force there (its own $id resolved against its parent's base).
func walk2020(s any, base *url.URL, visit func(map[string]any, *url.URL)) {
	obj, ok := s.(map[string]any)
	if !ok {
		return
	}
	if id, ok := obj["$id"].(string); ok {
		if b := resolve(base, id); b != nil {
			base = b
		}
	}
	visit(obj, base)
	for k, v := range obj {
		sh, ok := subschemas2020[k]
		if !ok {
			continue
		}
		switch sh {
		case single:
			walk2020(v, base, visit)
		case list:
			vs, _ := v.([]any)
			for _, sub := range vs {
				walk2020(sub, base, visit)
			}
		case named:
			m, _ := v.(map[string]any)
			for _, sub := range m {
				walk2020(sub, base, visit)
			}
		}
	}
}

// resolve returns ref resolved against base without its fragment, or nil
// when ref is not a URI reference.
func resolve(base *url.URL, ref string) *url.URL {
	u, err := url.Parse(ref)
	if err != nil {
		return nil
	}
	t := base.ResolveReference(u)
	t.Fragment, t.RawFragment = "", ""
	return t
}

func mustParse(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic("cases: " + err.Error())
	}
	return u
}
