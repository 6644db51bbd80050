package answer

import (
	"cmp"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// collection is a set of stored resources addressed by one path template,
// and how its resources are identified.
type collection struct {
	path     string          // template, e.g. /plants
	itemPath string          // the item template, e.g. /plants/{plantId}; "" when none is declared
	IdProp   string          // identifier property; "" when none is declared
	idSchema *openapi.Schema // its schema, from the answer's schema where it says
	// assigned is true when the mock assigns identifiers: the create body
	// does not carry one (the request schema leaves it out, or declares it
	// readOnly). Otherwise a create without one gets one as well.
	assigned bool
	Schema   *openapi.Schema // the create schema: every stored resource satisfies it
	readOnly bool            // the create schema declares readOnly properties
	// creates is true when the collection has a create operation; without
	// one, every item exists until deleted (a read-only API).
	creates bool
	// virtual is true when an operation on its items makes up the items
	// it lacks (see Plan.virtual): its deletes are remembered, so that
	// a deleted item stays gone for that operation too (GitHub's cost
	// centers: a DELETE that declares 404, a GET that does not).
	virtual bool
	// item is the schema of an item as answered: the item GET's success
	// schema, else the create's; nil when neither declares one.
	item *openapi.Schema
	// seqKeys is true when the store's sequence numbers (1, 2, ...) make
	// identifiers: for whole numbers, and for strings that take them.
	seqKeys bool
	// alias is the answer's own identifier, "id", where the item is
	// identified by a property only the request has (a project's
	// user_id, where the user answered has an id): it is answered with
	// the item's key too, where its schema takes it, so that a client
	// can address the item by what it is answered. "" for none.
	alias       string
	aliasSchema *openapi.Schema
	// idBase is what a whole-number identifier is above its store key:
	// the store's sequence counts from 1, and an identifier whose schema
	// has minimum: 1000 counts from 1000 (idBase 999). 0 for the others.
	idBase int64
}

// deletedPrefix starts the name of the store collection that remembers
// the items deleted from a collection without a create operation. Real
// collections start with "/".
const deletedPrefix = "deleted "

// Resources returns the collections of a store dump that hold resources,
// without the records of deletions the mock keeps beside them.
func Resources(dump []store.Collection) []store.Collection {
	out := dump[:0:0]
	for _, c := range dump {
		if !strings.HasPrefix(c.Name, deletedPrefix) {
			out = append(out, c)
		}
	}
	return out
}

// Key returns the concrete path of the collection a request addresses:
// the template with the parameter values filled in, without the item's
// identifier.
func (c *collection) Key(vals []string) string { return openapi.Fill(c.path, vals) }

// bodyKey returns the store key of the identifier a create body gives,
// or "" when it gives none the mock takes.
func (c *collection) bodyKey(obj map[string]any) string {
	if c.IdProp == "" || c.assigned {
		return ""
	}
	if id, ok := obj[c.IdProp]; ok && id != nil {
		return c.keyOf(id)
	}
	return "" // none, or null (OpenAI's user_id: anyOf string, null)
}

// keyOf returns the store key of an identifier value of the collection's
// resources: keyOf's, less idBase for a whole number.
func (c *collection) keyOf(id any) string {
	k := KeyOf(id)
	if c.idBase == 0 {
		return k
	}
	if n, err := strconv.ParseInt(k, 10, 64); err == nil && n >= math.MinInt64+c.idBase {
		return strconv.FormatInt(n-c.idBase, 10)
	}
	return k
}

// KeyOf returns the store key of an identifier value: integers in
// canonical form, strings as they are.
func KeyOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		if canonicalInt(string(x)) {
			return string(x)
		}
		if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		// An integer written with a fraction or an exponent (1.0, 1e3),
		// which JSON Schema 2020-12 counts as an integer, of under 400
		// digits: written out from its digits, never through big.Rat,
		// which 1e100000 cost a millisecond.
		if n, err := jsonx.ReadNumber(string(x)); err == nil && n.IsInt() && int64(len(n.Digits))+n.Exp < 400 {
			if n.IsZero() {
				return "0"
			}
			sign := ""
			if n.Neg {
				sign = "-"
			}
			return sign + n.Digits + strings.Repeat("0", int(n.Exp))
		}
		return string(x)
	}
	return string(jsonx.Marshal(v))
}

// canonicalInt reports whether s is an integer as strconv.FormatInt
// writes one: an optional minus, then digits with no leading zero (and
// not "-0"), short enough to be an int64.
func canonicalInt(s string) bool {
	d := strings.TrimPrefix(s, "-")
	if d == "" || len(d) > 18 || (d[0] == '0' && (len(d) > 1 || len(s) > 1)) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// pathKey returns the store key for the identifier in the request path.
func (c *collection) pathKey(vals []string) string {
	id := vals[len(vals)-1]
	if c.idSchema.Is("integer") || c.idBase != 0 {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			return c.keyOf(json.Number(strconv.FormatInt(n, 10)))
		}
	}
	return id
}

// typedID returns a store key as a JSON value of the identifier's type:
// a whole number (idBase above the key) where the schema says integer or
// number, else the key as a string.
func (c *collection) typedID(key string) any {
	if c.idSchema.Is("integer") || c.idSchema.Is("number") && !c.idSchema.Is("string") {
		if n, err := strconv.ParseInt(key, 10, 64); err == nil {
			if c.idBase != 0 && n <= math.MaxInt64-c.idBase {
				return json.Number(strconv.FormatInt(n+c.idBase, 10))
			}
			return json.Number(key)
		}
	}
	return key
}

// idText returns the identifier of the resource under key as written in
// a path.
func (c *collection) idText(key string) string {
	if n, ok := c.typedID(key).(json.Number); ok {
		return string(n)
	}
	return key
}

// itemURL returns the path of the item with key in the collection a
// request addresses, for a Location header; "" when no item path is
// declared.
func (c *collection) itemURL(vals []string, key string) string {
	if c.itemPath == "" {
		return ""
	}
	n := strings.Count(c.path, "{")
	return openapi.Fill(c.itemPath, append(append(make([]string, 0, n+1), vals[:min(n, len(vals))]...), c.idText(key)))
}

// name names a stored resource by its identifier for messages: "id 7",
// or "a resource without id".
func (c *collection) name(v any) string {
	if obj, ok := v.(map[string]any); ok && c.IdProp != "" {
		if id, ok := obj[c.IdProp]; ok {
			return c.describe(c.keyOf(id))
		}
	}
	return "a resource without " + cmp.Or(c.IdProp, "id")
}

// newKey returns the key to create a resource under: the identifier the
// body gives, else one the mock makes for an identifier that is not a
// whole number (a UUID for format uuid, else a short unique string), else
// "" for the store's next sequence number. A schema's example or default
// is never an identifier.
func (c *collection) newKey(obj map[string]any, f func() *gofakeit.Faker) string {
	if k := c.bodyKey(obj); k != "" {
		return k
	}
	if c.IdProp == "" || c.seqKeys {
		return ""
	}
	if c.idSchema.Format == "uuid" {
		return f().UUID()
	}
	for try := 0; try < 16; try++ {
		var v string
		switch {
		case c.idSchema.Pattern != "" && try%2 == 0:
			v = f().Regex(c.idSchema.Pattern) // not the example, which gen prefers
		default:
			v, _ = gen.Value(c.idSchema, f()).(string)
		}
		if v != "" && len(c.idSchema.Validate(v)) == 0 && !c.fixed(v) {
			return v
		}
	}
	return f().LetterN(12)
}

// fixed reports whether v is the identifier schema's example or default,
// which would make every create collide.
func (c *collection) fixed(v string) bool {
	s := c.idSchema
	return s.HasExample && s.Example == v || s.HasDefault && s.Default == v
}

// describe names a resource by its identifier for messages: "id 7".
func (c *collection) describe(key string) string {
	name := c.IdProp
	if name == "" {
		name = "id"
	}
	return name + " " + string(jsonx.Marshal(c.typedID(key)))
}
