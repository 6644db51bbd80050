package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/regex"
)

// The explaining half of the fast path (fastpath.go): a value the fast
// path read but could not find valid is checked against the compiled
// schema as the validator checks it, keyword by keyword in the same
// order, and each error the validator would raise becomes the violation
// violationsOf makes of it (the same reason, the same document location,
// the first one for each path kept), without the validator's tree of
// errors. Only the keywords the fast path compiles are met (a schema it
// did not compile ends the explanation undecided), so that none of them
// depends on whether another subschema is valid.
//
// The validator goes through an object's properties in the map's order.
// The violations of different properties differ in their paths, which
// sortViolations orders, unless joinPath renders two places alike (a
// property named "a.b" and a property b of a property a): a violation
// under a property whose name could be so confused leaves the body to
// the usual path.

// types is a set of JSON types, as the validator tells them apart.
type types uint8

const (
	typeNull types = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

// typesOf returns the types s's type keyword allows (0: any).
func typesOf(s *jsonschema.Schema) types {
	if s.Types == nil {
		return 0
	}
	var t types
	for _, name := range s.Types.ToStrings() {
		switch name {
		case "null":
			t |= typeNull
		case "boolean":
			t |= typeBoolean
		case "number":
			t |= typeNumber
		case "integer":
			t |= typeInteger
		case "string":
			t |= typeString
		case "array":
			t |= typeArray
		case "object":
			t |= typeObject
		}
	}
	return t
}

// typeOf returns the type of a decoded JSON value, and its name.
func typeOf(v any) (types, string) {
	switch v.(type) {
	case nil:
		return typeNull, "null"
	case bool:
		return typeBoolean, "boolean"
	case json.Number:
		return typeNumber, "number"
	case string:
		return typeString, "string"
	case []any:
		return typeArray, "array"
	case map[string]any:
		return typeObject, "object"
	}
	return 0, ""
}

// explainer finds what is wrong with one value.
type explainer struct {
	ctx   context.Context              // the request's: when done, the explanation stops
	steps int                          // values checked, to look at ctx every 256
	known map[*jsonschema.Schema]types // the schemas the fast path compiled
	locs  *locationCache
	reach int64       // the document's reach for numbers (numbers.go)
	loc   []string    // where the value being checked is
	odd   int         // how many names in loc joinPath may confuse
	out   []Violation // in the order found; explain sorts them
	last  struct {    // the last reason of emitNumber
		what string
		want *big.Rat
		got  json.Number
		why  string
	}
	ok     bool // false: undecided
	full   bool // more than MaxViolations found: looking stops
	sorted bool // objects' properties are gone through in name order
	// unordered is true once properties were gone through in the map's
	// order: what was found first may then differ from one run to the next.
	unordered bool
	// spent is set once a pattern could not be decided on a string of the
	// value within the bound: later strings are not matched against
	// patterns that need the backtracking engine, so that a value of many
	// hostile strings costs one bound, not one each.
	spent bool
}

// firstByPath sorts vs by path, as sortViolations does, and keeps the
// first found for each path, as violationsOf does. Past a few, it sorts
// positions rather than stably sorting violations, and drops repeats
// after sorting rather than looking each up in a set as it is found.
// On the hostile bodies with a thousand violations that cut the CPU of
// an answer by 28% (many keys: 1.08 to 0.78 ms, 551 to 448 KiB) and
// 18% (9 KB of 1e100000: 0.94 to 0.77 ms); five paired runs of
// BenchmarkHostileBody, benchstat p=0.008 and p=0.095.
func firstByPath(vs []Violation) []Violation {
	if len(vs) <= 16 {
		// Few: an insertion sort in place, with no allocation.
		slices.SortStableFunc(vs, func(a, b Violation) int { return strings.Compare(a.Path, b.Path) })
		return slices.CompactFunc(vs, func(a, b Violation) bool { return a.Path == b.Path })
	}
	at := make([]int32, len(vs))
	for i := range at {
		at[i] = int32(i)
	}
	slices.SortFunc(at, func(a, b int32) int {
		if c := strings.Compare(vs[a].Path, vs[b].Path); c != 0 {
			return c
		}
		return int(a - b)
	})
	out := make([]Violation, 0, len(vs))
	for _, i := range at {
		if n := len(out); n > 0 && out[n-1].Path == vs[i].Path {
			continue
		}
		out = append(out, vs[i])
	}
	return out
}

// explain returns the violations ValidateRequest finds in v, a value read
// by the fast path fp, sorted as it sorts them; ok is false when it cannot
// be certain of them.
//
// It looks for MaxViolations and one more, and stops there, more true:
// a body of a million bytes breaks its schema a hundred thousand times,
// and finding them all took 100 ms of CPU and 50 MB (BenchmarkHostileBody,
// 1 MB of keys and of 1e100000), where an answer quotes 20 and a journal
// entry keeps 100. Which it finds first must not depend on the map's
// order: when it stops after going through an object of more than one
// property, it looks again with each object's properties in name order.
func explain(ctx context.Context, fp *fastPath, v any, locs *locationCache, reach int64) (vs []Violation, more, ok bool) {
	e := explainer{ctx: ctx, known: fp.known, locs: locs, reach: reach, ok: true}
	e.schema(fp.schema, v)
	if e.ok && e.full && e.unordered {
		e = explainer{ctx: ctx, known: fp.known, locs: locs, reach: reach, ok: true, sorted: true}
		e.schema(fp.schema, v)
	}
	if !e.ok {
		return nil, false, false
	}
	return firstByPath(e.out[:min(len(e.out), MaxViolations)]), e.full, true
}

// emit records the error k that s raises, at the value's place, or for
// an object's property name when named.
func (e *explainer) emit(s *jsonschema.Schema, k jsonschema.ErrorKind, name string, named bool) {
	e.emitReason(s, k, reason(k), name, named)
}

// emitReason is emit, with what k means said as why.
func (e *explainer) emitReason(s *jsonschema.Schema, k jsonschema.ErrorKind, why, name string, named bool) {
	if !e.ok || e.full {
		return
	}
	if e.odd > 0 || named && confusable(name) {
		e.ok = false
		return
	}
	var path string
	if named {
		path = childPath(e.loc, name)
	} else {
		path = joinPath(e.loc)
	}
	e.step()
	e.out = append(e.out, Violation{Path: path, Reason: why, Schema: keywordLocation(s.Location, k, e.locs)})
	e.full = len(e.out) > MaxViolations
}

// step counts a value checked or a violation found, and every 256 looks
// at the request's context: when the client has gone, the explanation
// ends undecided.
func (e *explainer) step() {
	if e.steps++; e.steps%256 == 0 && e.ctx.Err() != nil {
		e.ok = false
	}
}

// confusable reports whether joinPath could render a place with a
// property of this name as it renders another place.
func confusable(name string) bool {
	return name == "" || strings.ContainsAny(name, ".[]")
}

// child checks v, found under name, against s.
func (e *explainer) child(s *jsonschema.Schema, v any, name string, property bool) {
	odd := property && confusable(name)
	if odd {
		e.odd++
	}
	e.step()
	e.loc = append(e.loc, name)
	e.schema(s, v)
	e.loc = e.loc[:len(e.loc)-1]
	if odd {
		e.odd--
	}
}

// schema checks v against s, as the validator's validate does.
func (e *explainer) schema(s *jsonschema.Schema, v any) {
	if !e.ok || e.full {
		return
	}
	if s.Bool != nil {
		if !*s.Bool {
			e.emit(s, &kind.FalseSchema{}, "", false)
		}
		return
	}
	want, ok := e.known[s]
	got, gotName := typeOf(v)
	if !ok || got == 0 {
		e.ok = false
		return
	}
	if n, isNum := v.(json.Number); isNum && !shortNumber(string(n)) {
		// Numbers beyond the caps are for the usual path, which refuses
		// them.
		if _, err := jsonx.ReadNumber(string(n)); err != nil {
			e.ok = false
			return
		}
	}
	if want != 0 && want&got == 0 && (want&typeInteger == 0 || got != typeNumber || !e.integer(v.(json.Number))) {
		e.emit(s, &kind.Type{Got: gotName, Want: s.Types.ToStrings()}, "", false)
		return
	}
	if s.Const != nil {
		if !e.equal(v, *s.Const) {
			e.emit(s, &kind.Const{Got: v, Want: *s.Const}, "", false)
			return
		}
	}
	if s.Enum != nil {
		matched := false
		for _, item := range s.Enum.Values {
			if matched = e.equal(v, item); matched {
				break
			}
		}
		if !matched {
			e.emit(s, &kind.Enum{Got: v, Want: s.Enum.Values}, "", false)
			return
		}
	}
	if s.Format != nil {
		if err := s.Format.Validate(v); err != nil {
			e.emit(s, &kind.Format{Got: v, Want: s.Format.Name, Err: err}, "", false)
			return
		}
	}
	if s.Ref != nil {
		e.schema(s.Ref, v)
		if refOnly(s) {
			return
		}
	}
	switch x := v.(type) {
	case map[string]any:
		e.object(s, x)
	case []any:
		e.array(s, x)
	case string:
		e.string(s, x)
	case json.Number:
		e.number(s, x)
	}
	for _, m := range s.AllOf {
		e.schema(m, v)
	}
	for _, ext := range s.Extensions {
		if _, ok := ext.(integerOnly); !ok {
			e.ok = false
			return
		}
		if n, ok := v.(json.Number); ok && strings.ContainsAny(string(n), ".eE") {
			e.emit(s, &notIntegerLiteral{got: string(n)}, "", false)
		}
	}
}

// object checks an object against s's object keywords, as the
// validator's objValidate does.
func (e *explainer) object(s *jsonschema.Schema, obj map[string]any) {
	if s.MinProperties != nil && len(obj) < *s.MinProperties {
		e.emit(s, &kind.MinProperties{Got: len(obj), Want: *s.MinProperties}, "", false)
	}
	if s.MaxProperties != nil && len(obj) > *s.MaxProperties {
		e.emit(s, &kind.MaxProperties{Got: len(obj), Want: *s.MaxProperties}, "", false)
	}
	var missing []string
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			missing = append(missing, name)
		}
	}
	if missing != nil {
		k := &kind.Required{Missing: missing}
		for _, name := range missing {
			e.emit(s, k, name, true)
		}
	}
	var additional *kind.AdditionalProperties // made once; its reason names none
	if e.sorted {
		for _, name := range slices.Sorted(maps.Keys(obj)) {
			e.property(s, name, obj[name], &additional)
		}
		return
	}
	if len(obj) > 1 {
		e.unordered = true
	}
	for name, v := range obj {
		e.property(s, name, v, &additional)
	}
}

// property checks the property name of an object, of value v, against
// s's properties and additionalProperties; additional is the error of
// an undeclared property, made on first need.
func (e *explainer) property(s *jsonschema.Schema, name string, v any, additional **kind.AdditionalProperties) {
	if e.full {
		return
	}
	if ps, ok := s.Properties[name]; ok {
		e.child(ps, v, name, true)
		return
	}
	switch ap := s.AdditionalProperties.(type) {
	case bool:
		if !ap {
			if *additional == nil {
				*additional = &kind.AdditionalProperties{}
			}
			e.emit(s, *additional, name, true)
		}
	case *jsonschema.Schema:
		e.child(ap, v, name, true)
	}
}

// array checks an array against s's array keywords, as the validator's
// arrValidate does.
func (e *explainer) array(s *jsonschema.Schema, arr []any) {
	if s.MinItems != nil && len(arr) < *s.MinItems {
		e.emit(s, &kind.MinItems{Got: len(arr), Want: *s.MinItems}, "", false)
	}
	if s.MaxItems != nil && len(arr) > *s.MaxItems {
		e.emit(s, &kind.MaxItems{Got: len(arr), Want: *s.MaxItems}, "", false)
	}
	if items := itemsOf(s); items != nil {
		for i, v := range arr {
			if e.full {
				return
			}
			e.child(items, v, strconv.Itoa(i), false)
		}
	}
}

// string checks a string against s's string keywords, as the validator's
// strValidate does.
func (e *explainer) string(s *jsonschema.Schema, str string) {
	n := -1
	if s.MinLength != nil || s.MaxLength != nil {
		n = utf8.RuneCountInString(str)
	}
	if s.MinLength != nil && n < *s.MinLength {
		e.emit(s, &kind.MinLength{Got: n, Want: *s.MinLength}, "", false)
	}
	if s.MaxLength != nil && n > *s.MaxLength {
		e.emit(s, &kind.MaxLength{Got: n, Want: *s.MaxLength}, "", false)
	}
	if s.Pattern != nil {
		if why := e.pattern(s.Pattern, str); why != "" {
			e.emitReason(s, &kind.Pattern{Got: str, Want: s.Pattern.String()}, why, "", false)
		}
	}
}

// pattern matches str against p, as the validator does, and returns why
// str breaks it, or "". A string the fast path's read could not decide is
// not matched again: the pattern remembers it.
func (e *explainer) pattern(r jsonschema.Regexp, str string) string {
	p := patternOf(r)
	if p == nil { // not the document's engine's: nothing to bound
		if r.MatchString(str) {
			return ""
		}
		return reason(&kind.Pattern{Got: str, Want: r.String()})
	}
	var v regex.Verdict
	var remembered bool
	if p.Backtracks() {
		v, remembered = p.Undecided(str)
	}
	switch {
	case remembered:
	case p.Backtracks() && e.spent:
		v = regex.Skipped
	default:
		v = p.Match(str)
	}
	if v == regex.Matched {
		return ""
	}
	if !v.Decided() {
		e.spent = true
	}
	return fmt.Sprintf("%q %s", clipped(str), regex.Reason(p.String(), v))
}

// number checks a number against s's numeric keywords, as the
// validator's numValidate does.
func (e *explainer) number(s *jsonschema.Schema, n json.Number) {
	if s.Minimum == nil && s.Maximum == nil && s.ExclusiveMinimum == nil && s.ExclusiveMaximum == nil && s.MultipleOf == nil {
		return
	}
	if !shortNumber(string(n)) {
		if x, err := jsonx.ReadNumber(string(n)); err == nil && far(x, e.reach) {
			e.farNumber(s, n, x)
			return
		}
	}
	r := e.rat(n)
	if r == nil {
		return
	}
	if s.Minimum != nil && r.Cmp(s.Minimum) < 0 {
		e.emitNumber(s, &kind.Minimum{Got: r, Want: s.Minimum}, n)
	}
	if s.Maximum != nil && r.Cmp(s.Maximum) > 0 {
		e.emitNumber(s, &kind.Maximum{Got: r, Want: s.Maximum}, n)
	}
	if s.ExclusiveMinimum != nil && r.Cmp(s.ExclusiveMinimum) <= 0 {
		e.emitNumber(s, &kind.ExclusiveMinimum{Got: r, Want: s.ExclusiveMinimum}, n)
	}
	if s.ExclusiveMaximum != nil && r.Cmp(s.ExclusiveMaximum) >= 0 {
		e.emitNumber(s, &kind.ExclusiveMaximum{Got: r, Want: s.ExclusiveMaximum}, n)
	}
	if s.MultipleOf != nil {
		if q := new(big.Rat).Quo(r, s.MultipleOf); !q.IsInt() {
			e.emitNumber(s, &kind.MultipleOf{Got: r, Want: s.MultipleOf}, n)
		}
	}
}

// farNumber is number for x, a far number written n: compared with a
// bound of the document, a large one has its own sign, and a tiny one
// the sign 0 has (its own against 0), without big.Rat arithmetic, which
// cost 5 µs a number even on stand-ins. Its verdicts are those the
// validator gives its stand-in.
func (e *explainer) farNumber(s *jsonschema.Schema, n json.Number, x jsonx.Number) {
	own := 1
	if x.Neg {
		own = -1
	}
	cmp := func(b *big.Rat) int {
		if x.Exp > 0 || b.Sign() == 0 {
			return own
		}
		return -b.Sign()
	}
	if s.Minimum != nil && cmp(s.Minimum) < 0 {
		e.emitNumber(s, &kind.Minimum{Want: s.Minimum}, n)
	}
	if s.Maximum != nil && cmp(s.Maximum) > 0 {
		e.emitNumber(s, &kind.Maximum{Want: s.Maximum}, n)
	}
	if s.ExclusiveMinimum != nil && cmp(s.ExclusiveMinimum) <= 0 {
		e.emitNumber(s, &kind.ExclusiveMinimum{Want: s.ExclusiveMinimum}, n)
	}
	if s.ExclusiveMaximum != nil && cmp(s.ExclusiveMaximum) >= 0 {
		e.emitNumber(s, &kind.ExclusiveMaximum{Want: s.ExclusiveMaximum}, n)
	}
	if s.MultipleOf != nil {
		if r := e.rat(n); r != nil && !new(big.Rat).Quo(r, s.MultipleOf).IsInt() {
			e.emitNumber(s, &kind.MultipleOf{Want: s.MultipleOf}, n)
		}
	}
}

// emitNumber emits k, an error of a numeric keyword, quoting n as the
// request wrote it, as violationsOf does.
func (e *explainer) emitNumber(s *jsonschema.Schema, k jsonschema.ErrorKind, n json.Number) {
	what, want := numberKind(k)
	if e.last.what != what || e.last.want != want || e.last.got != n {
		// A hostile body repeats one number: its reason is made once.
		e.last.what, e.last.want, e.last.got = what, want, n
		e.last.why = clipped(string(n)) + what + ratString(want)
	}
	e.emitReason(s, k, e.last.why, "", false)
}

// rat returns the exact value of n, a number within the caps (see
// schema), or the value of its stand-in when it is far (numbers.go), as
// the usual path hands it to the library; nil (and the explanation
// undecided) when it cannot be read.
func (e *explainer) rat(n json.Number) *big.Rat {
	if !shortNumber(string(n)) {
		x, err := jsonx.ReadNumber(string(n))
		if err != nil {
			e.ok = false
			return nil
		}
		if far(x, e.reach) {
			n = standIn(x, e.reach)
		}
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		e.ok = false
		return nil
	}
	return r
}

// integer reports whether n is a whole number, as the validator's
// isInteger does.
func (e *explainer) integer(n json.Number) bool {
	if !strings.ContainsAny(string(n), ".eE") {
		return true
	}
	x, err := jsonx.ReadNumber(string(n))
	if err != nil {
		e.ok = false
		return false
	}
	return x.IsInt() // as big.Rat finds the number or its stand-in
}

// equal reports whether v equals w, a value of a const or an enum, as the
// validator's equals does: numbers by their values, and a number equals
// a string whose text big.Rat reads as the same value.
func (e *explainer) equal(v, w any) bool {
	switch v := v.(type) {
	case map[string]any:
		w, ok := w.(map[string]any)
		if !ok || len(v) != len(w) {
			return false
		}
		for k, x := range v {
			y, ok := w[k]
			if !ok || !e.equal(x, y) {
				return false
			}
		}
		return true
	case []any:
		w, ok := w.([]any)
		if !ok || len(v) != len(w) {
			return false
		}
		for i := range v {
			if !e.equal(v[i], w[i]) {
				return false
			}
		}
		return true
	case nil:
		return w == nil
	case bool:
		w, ok := w.(bool)
		return ok && v == w
	case string:
		w, ok := w.(string)
		return ok && v == w
	case json.Number:
		if wn, ok := w.(json.Number); ok && wn == v {
			return true
		}
		r := e.rat(v)
		if r == nil {
			return false
		}
		r2, ok := new(big.Rat).SetString(fmt.Sprint(w))
		return ok && r.Cmp(r2) == 0
	}
	e.ok = false
	return false
}
