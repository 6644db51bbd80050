package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/plantmock/plantmock/internal/clip"
)

// Violation is one way a request breaks the contract: where, and why.
type Violation struct {
	// Path locates the offending value: "id", "tags[2]", "owner.name" for
	// bodies (empty for the body as a whole), "query.limit" for parameters.
	Path   string
	Reason string
	// Schema is where in the document the broken rule is: a JSON pointer
	// fragment to the keyword, #/components/schemas/Plant/properties/id/type;
	// empty when no schema is at fault (a missing body, a content type).
	Schema string
}

// Within reports whether the violation is at the body's property name
// or inside it: its path is name, or starts name. or name[.
func (v Violation) Within(name string) bool {
	rest, ok := strings.CutPrefix(v.Path, name)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
}

// String returns "path: reason", or "body: reason" for the body as a
// whole.
func (v Violation) String() string {
	var b strings.Builder
	b.Grow(v.Len())
	v.Build(&b)
	return b.String()
}

// Len is the length of String.
func (v Violation) Len() int { return len(v.place()) + len(": ") + len(v.Reason) }

// Build writes String to b, so that a message of many violations is
// built in one piece.
func (v Violation) Build(b *strings.Builder) {
	b.WriteString(v.place())
	b.WriteString(": ")
	b.WriteString(v.Reason)
}

// place is where String says the violation is.
// The path is clipped: a property name may be as long as the body.
func (v Violation) place() string {
	if v.Path == "" {
		return "body"
	}
	return clip.To(v.Path, clip.Path)
}

// MaxViolations is how many violations of a request body DecodeRequest
// looks for; past them, it says there are more.
const MaxViolations = 1000

func sortViolations(vs []Violation) {
	slices.SortStableFunc(vs, func(a, b Violation) int { return strings.Compare(a.Path, b.Path) })
}

func appendUnique(vs []Violation, v Violation) []Violation {
	for _, x := range vs {
		if x.Path == v.Path {
			return vs
		}
	}
	return append(vs, v)
}

// joinPath renders a JSON instance location as id, tags[2] or owner.name.
func joinPath(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		if isIndex(s) {
			b.WriteByte('[')
			b.WriteString(s)
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func childPath(segs []string, name string) string {
	p := joinPath(segs)
	if p == "" {
		return name
	}
	return p + "." + name
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

// clipped is s shortened for quoting in a message.
func clipped(s string) string { return clip.To(s, clip.Value) }

// violationsOf flattens a jsonschema validation error into its leaves;
// v is the value validated, whose numbers the reasons quote as written.
func violationsOf(err error, locs *locationCache, pats *patterns, v any) []Violation {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Reason: err.Error()}}
	}
	var out []Violation
	collect(ve, &out, locs, pats, v)
	if len(out) == 0 {
		out = append(out, Violation{Path: joinPath(ve.InstanceLocation), Reason: reasonAt(ve.ErrorKind, v, ve.InstanceLocation, pats), Schema: cachedLocation(ve, locs)})
	}
	return out
}

// locationKey is what a violated keyword's location depends on.
type locationKey struct {
	url  string       // the library's schema location
	kind reflect.Type // the kind of error, which names the keyword
}

// locationCache remembers schemaLocation's answers: a document has few
// keywords, and refused requests ask for the same ones again and again.
type locationCache struct {
	mu sync.RWMutex // guards m
	m  map[locationKey]string
}

// cachedLocation is schemaLocation, remembered in locs.
func cachedLocation(ve *jsonschema.ValidationError, locs *locationCache) string {
	return keywordLocation(ve.SchemaURL, ve.ErrorKind, locs)
}

// keywordLocation is the document location of the keyword that k, an
// error raised by the schema the library locates at schema, names,
// remembered in locs (when not nil).
func keywordLocation(schema string, k jsonschema.ErrorKind, locs *locationCache) string {
	if locs == nil {
		return schemaLocation(schema, k)
	}
	key := locationKey{schema, reflect.TypeOf(k)}
	locs.mu.RLock()
	loc, ok := locs.m[key]
	locs.mu.RUnlock()
	if ok {
		return loc
	}
	loc = schemaLocation(schema, k)
	locs.mu.Lock()
	if locs.m == nil {
		locs.m = map[locationKey]string{}
	}
	locs.m[key] = loc
	locs.mu.Unlock()
	return loc
}

// schemaLocation turns where the library found a violation (a keyword of
// a schema in the compiled resource, whose $defs are keyed by document
// pointers: see compiler.defRef) into a fragment of the document: schema
// is the library's location of the schema, k the error it raised.
func schemaLocation(schema string, k jsonschema.ErrorKind) string {
	_, frag, ok := strings.Cut(schema, "#")
	if !ok {
		return ""
	}
	toks := strings.Split(frag, "/")
	if len(toks) < 3 || toks[0] != "" || (toks[1] != "$defs" && toks[1] != "definitions") {
		return ""
	}
	key, err := url.PathUnescape(toks[2])
	if err != nil {
		return ""
	}
	var b strings.Builder
	b.WriteByte('#')
	b.WriteString(unescapeToken(key))
	for _, t := range toks[3:] {
		if u, err := url.PathUnescape(t); err == nil {
			t = u
		}
		b.WriteByte('/')
		b.WriteString(t)
	}
	for _, kw := range k.KeywordPath() {
		b.WriteByte('/')
		b.WriteString(PointerToken(kw))
	}
	return b.String()
}

func collect(ve *jsonschema.ValidationError, out *[]Violation, locs *locationCache, pats *patterns, v any) {
	switch k := ve.ErrorKind.(type) {
	case *kind.AnyOf:
		// The alternatives' own failures would each tell a part of it.
		*out = appendUnique(*out, Violation{Path: joinPath(ve.InstanceLocation), Reason: "matches none of the anyOf alternatives", Schema: cachedLocation(ve, locs)})
		return
	case *kind.OneOf:
		why := "matches none of the oneOf alternatives"
		if len(k.Subschemas) > 1 {
			why = fmt.Sprintf("matches oneOf alternatives %d and %d, but must match exactly one", k.Subschemas[0], k.Subschemas[1])
		}
		*out = appendUnique(*out, Violation{Path: joinPath(ve.InstanceLocation), Reason: why, Schema: cachedLocation(ve, locs)})
		return
	}
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			collect(c, out, locs, pats, v)
		}
		return
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			*out = appendUnique(*out, Violation{Path: childPath(ve.InstanceLocation, m), Reason: reason(k), Schema: cachedLocation(ve, locs)})
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			*out = appendUnique(*out, Violation{Path: childPath(ve.InstanceLocation, p), Reason: reason(k), Schema: cachedLocation(ve, locs)})
		}
	case *kind.Group, *kind.Schema, *kind.AllOf, *kind.Reference:
		// containers without causes carry no information of their own
	default:
		*out = appendUnique(*out, Violation{Path: joinPath(ve.InstanceLocation), Reason: reasonAt(ve.ErrorKind, v, ve.InstanceLocation, pats), Schema: cachedLocation(ve, locs)})
	}
}

// reasonAt is reason(k) for the value at loc in v: a number is quoted as
// the request wrote it (the library saw a stand-in for a far one), and a
// string a pattern could not be decided on within the bound is said to
// be that (pats).
func reasonAt(k jsonschema.ErrorKind, v any, loc []string, pats *patterns) string {
	if p, ok := k.(*kind.Pattern); ok {
		return pats.reason(p)
	}
	if n, ok := valueAt(v, loc).(json.Number); ok {
		if r, ok := numberKindReason(k, string(n)); ok {
			return r
		}
		if f, ok := k.(*kind.Format); ok && intBounds[f.Want][1].Digits != "" {
			if err := intRange(f.Want, n); err != nil {
				return err.Error()
			}
		}
	}
	return reason(k)
}

// valueAt returns the value at loc in v, or nil.
func valueAt(v any, loc []string) any {
	for _, tok := range loc {
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// numberKindReason says what a numeric keyword's error means, quoting the
// number as got; ok is false for other kinds.
func numberKindReason(k jsonschema.ErrorKind, got string) (string, bool) {
	what, want := numberKind(k)
	if want == nil {
		return "", false
	}
	return clipped(got) + what + ratString(want), true
}

// numberKind returns what a numeric keyword's error says between the
// number and the keyword's value, and that value; nil for other kinds.
func numberKind(k jsonschema.ErrorKind) (string, *big.Rat) {
	switch k := k.(type) {
	case *kind.Minimum:
		return " is under the minimum ", k.Want
	case *kind.Maximum:
		return " is over the maximum ", k.Want
	case *kind.ExclusiveMinimum:
		return " is not over the exclusive minimum ", k.Want
	case *kind.ExclusiveMaximum:
		return " is not under the exclusive maximum ", k.Want
	case *kind.MultipleOf:
		return " is not a multiple of ", k.Want
	}
	return "", nil
}

var english = language.English

// reason says what an error kind means. For a required property that is
// missing and a property the schema does not declare, it is said of the
// property, whose path the violation has.
func reason(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Required:
		return "required property is missing"
	case *kind.AdditionalProperties:
		return "property is not declared by the schema"
	case *kind.Type:
		return "expected " + strings.Join(k.Want, " or ") + ", got " + k.Got
	case *kind.Enum:
		return "value is not one of the allowed values"
	case *kind.MinLength:
		return fmt.Sprintf("shorter than the minimum length %d", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("longer than the maximum length %d", k.Want)
	case *kind.Pattern:
		return (*patterns)(nil).reason(k)
	case *kind.Minimum:
		r, _ := numberKindReason(k, ratString(k.Got))
		return r
	case *kind.Maximum:
		r, _ := numberKindReason(k, ratString(k.Got))
		return r
	case *kind.ExclusiveMinimum:
		r, _ := numberKindReason(k, ratString(k.Got))
		return r
	case *kind.ExclusiveMaximum:
		r, _ := numberKindReason(k, ratString(k.Got))
		return r
	case *kind.MultipleOf:
		r, _ := numberKindReason(k, ratString(k.Got))
		return r
	case *kind.Format:
		if k.Want == "int32" || k.Want == "int64" {
			return k.Err.Error()
		}
		return fmt.Sprintf("not a valid %s", k.Want)
	case *kind.FalseSchema:
		return "no value is allowed here (the schema is false)"
	case *kind.Not:
		return "matches the schema under not, which it must not"
	case *kind.Const:
		return "is not the one allowed value"
	case *kind.Contains:
		return "no item matches the schema under contains"
	case *kind.MinItems:
		return fmt.Sprintf("has %d items, fewer than the minimum %d", k.Got, k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("has %d items, more than the maximum %d", k.Got, k.Want)
	case *kind.MinProperties:
		return fmt.Sprintf("has %d properties, fewer than the minimum %d", k.Got, k.Want)
	case *kind.MaxProperties:
		return fmt.Sprintf("has %d properties, more than the maximum %d", k.Got, k.Want)
	case *kind.UniqueItems:
		return fmt.Sprintf("items %d and %d are equal, but items must be unique", k.Duplicates[0], k.Duplicates[1])
	case *kind.PropertyNames:
		return fmt.Sprintf("property name %q is not allowed", clipped(k.Property))
	case *kind.DependentRequired:
		return fmt.Sprintf("with %s present, %s must be too", k.Prop, strings.Join(k.Missing, ", "))
	case *kind.Dependency:
		return fmt.Sprintf("with %s present, %s must be too", k.Prop, strings.Join(k.Missing, ", "))
	case *kind.RefCycle:
		return "the schema refers to itself without going into the value"
	case nil:
		return "invalid"
	}
	return k.LocalizedString(message.NewPrinter(english))
}

// ratString writes a rational of the document (a bound, a multiple) as
// a number.
func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}
