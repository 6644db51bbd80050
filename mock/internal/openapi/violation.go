package openapi

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Violation is one way a request breaks the contract: where, and why.
type Violation struct {
	// Path locates the offending value: "id", "tags[2]", "owner.name" for
	// bodies (empty for the body as a whole), "query.limit" for parameters.
	Path   string
	Reason string
}

// String returns "path: reason", or "body: reason" for the body as a
// whole.
func (v Violation) String() string {
	if v.Path == "" {
		return "body: " + v.Reason
	}
	return v.Path + ": " + v.Reason
}

func sortViolations(vs []Violation) {
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].Path < vs[j].Path })
}

func appendUnique(vs []Violation, v Violation) []Violation {
	for _, x := range vs {
		if x.Path == v.Path {
			return vs
		}
	}
	return append(vs, v)
}

func itoa(i int) string { return strconv.Itoa(i) }

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

// integerProblem says why a JSON number literal is not a valid integer of
// the given format ("int32", "int64" or other: int64), or "" when it is.
func integerProblem(lit, format string) string {
	if strings.ContainsAny(lit, ".eE") {
		return fmt.Sprintf("expected integer, got %s (write integers without a fraction or exponent)", clip(lit))
	}
	n, err := strconv.ParseInt(lit, 10, 64)
	if err != nil {
		return fmt.Sprintf("%s is outside the int64 range", clip(lit))
	}
	if format == "int32" && (n < math.MinInt32 || n > math.MaxInt32) {
		return fmt.Sprintf("%s is outside the int32 range", lit)
	}
	return ""
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// violationsOf flattens a jsonschema validation error into its leaves.
func violationsOf(err error) []Violation {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Reason: err.Error()}}
	}
	var out []Violation
	collect(ve, &out)
	if len(out) == 0 {
		out = append(out, Violation{Path: joinPath(ve.InstanceLocation), Reason: reason(ve.ErrorKind)})
	}
	return out
}

func collect(ve *jsonschema.ValidationError, out *[]Violation) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			collect(c, out)
		}
		return
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			*out = appendUnique(*out, Violation{Path: childPath(ve.InstanceLocation, m), Reason: "required property is missing"})
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			*out = appendUnique(*out, Violation{Path: childPath(ve.InstanceLocation, p), Reason: "property is not declared by the schema"})
		}
	case *kind.Group, *kind.Schema, *kind.AllOf, *kind.Reference:
		// containers without causes carry no information of their own
	default:
		*out = appendUnique(*out, Violation{Path: joinPath(ve.InstanceLocation), Reason: reason(ve.ErrorKind)})
	}
}

var english = language.English

func reason(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return "expected " + strings.Join(k.Want, " or ") + ", got " + k.Got
	case *kind.Enum:
		return "value is not one of the allowed values"
	case *kind.MinLength:
		return fmt.Sprintf("shorter than the minimum length %d", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("longer than the maximum length %d", k.Want)
	case *kind.Pattern:
		return fmt.Sprintf("does not match the pattern %s", k.Want)
	case *kind.Minimum:
		return fmt.Sprintf("less than the minimum %s", ratString(k.Want))
	case *kind.Maximum:
		return fmt.Sprintf("greater than the maximum %s", ratString(k.Want))
	case *kind.Format:
		return fmt.Sprintf("not a valid %s", k.Want)
	case nil:
		return "invalid"
	}
	return k.LocalizedString(message.NewPrinter(english))
}

// paramViolation turns a parameter validation error into a Violation.
func paramViolation(e *validationError) Violation {
	in := e.ValidationSubType
	switch in {
	case "path", "query", "header", "cookie":
	default:
		in = "parameter"
	}
	v := Violation{Path: in + "." + e.ParameterName, Reason: e.Message}
	if e.ParameterName == "" {
		v.Path = in
	}
	var why []string
	for _, s := range e.SchemaValidationErrors {
		if s.Reason != "" {
			why = append(why, s.Reason)
		}
	}
	if len(why) > 0 {
		v.Reason = strings.Join(why, "; ")
	}
	return v
}

func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}
