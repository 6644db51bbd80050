package mock

import (
	"encoding/json"
	"math/big"
	"strconv"

	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// collection is a set of stored resources addressed by one path template,
// and how its resources are identified.
type collection struct {
	path     string          // template, e.g. /plants
	idProp   string          // identifier property; "" when none is declared
	idSchema *openapi.Schema // its schema
	schema   *openapi.Schema // the create schema: every stored resource satisfies it
}

// key returns the concrete path of the collection a request addresses:
// the template with the parameter values filled in, without the item's
// identifier.
func (c *collection) key(vals []string) string { return openapi.Fill(c.path, vals) }

// bodyKey returns the store key of a resource's identifier, or "" when it
// has none (the store assigns one).
func (c *collection) bodyKey(obj map[string]any) string {
	if c.idProp == "" {
		return ""
	}
	if id, ok := obj[c.idProp]; ok {
		return keyOf(id)
	}
	return ""
}

// document returns what the store keeps of obj under a key: obj as JSON,
// with the key as its identifier when the store assigns it.
func (c *collection) document(obj map[string]any, assigned bool) func(key string) []byte {
	return func(key string) []byte {
		if assigned && c.idProp != "" {
			obj[c.idProp] = c.typedID(key)
		}
		return jsonx.Append(make([]byte, 0, 64), obj)
	}
}

// keyOf returns the store key of an identifier value: integers in
// canonical form, strings as they are.
func keyOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		// An integer written with a fraction or an exponent (1.0, 1e3),
		// which JSON Schema 2020-12 counts as an integer.
		if r, ok := new(big.Rat).SetString(string(x)); ok && r.IsInt() && len(x) < 400 {
			return r.Num().String()
		}
		return string(x)
	}
	return string(jsonx.Marshal(v))
}

// pathKey returns the store key for the identifier in the request path.
func (c *collection) pathKey(vals []string) string {
	id := vals[len(vals)-1]
	if c.idSchema.Is("integer") {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
	}
	return id
}

// typedID returns a store key as a JSON value of the identifier's type.
func (c *collection) typedID(key string) any {
	if c.idSchema.Is("integer") {
		return json.Number(key)
	}
	return key
}

// describe names a resource by its identifier for messages: "id 7".
func (c *collection) describe(key string) string {
	name := c.idProp
	if name == "" {
		name = "id"
	}
	return name + " " + string(jsonx.Marshal(c.typedID(key)))
}
