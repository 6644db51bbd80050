package openapi

import (
	"context"
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/plantmock/plantmock/mock/internal/regex"
)

// The fast path for JSON request bodies: a decoder compiled once per
// schema that reads the body once, builds the value jsonx.Decode builds
// and checks the schema as it goes, in the manner of ajv's compiled
// validators. A value that fails a check (or that it does not compare
// exactly) is checked again against the compiled schema, in the order the
// validator checks it (fastexplain.go), to say what is wrong as
// ValidateRequest says it. It answers only when it is certain of its
// answer; anything else (input it is not sure of, violations whose order
// it cannot tell) is for the usual path, jsonx.Decode and then
// ValidateRequest.
//
// The decoder is compiled from the schema as the validator compiled it
// for requests (compileFor), not from the Schema model: the compiled
// schema is what ValidateRequest runs, with the document's dialect already
// applied (3.0's nullable, integer literals and boolean exclusive bounds,
// $ref siblings ignored or applied, annotation formats left out, required
// readOnly properties dropped for requests), allOf members kept apart,
// bounds as exact rationals, and the asserted formats and patterns as the
// functions the validator calls, which the fast path calls too. A schema
// that reaches any keyword the fast path does not check gets no fast path
// at all.
//
// What it buys: paired runs of .ci/bench (BENCH_PAIR_AGAINST=before, 10
// alternate pairs a mix of 3 s after 1 s of warm-up, quiet machine), the
// mock against the same build with no fast path: requests/s 1.117 +/-
// 0.012 on valid creates, 1.118 +/- 0.009 on invalid ones and 1.042 +/-
// 0.008 without a token (which still reads the body); processor time a
// request 33.9 against 40.1 µs, 34.4 against 40.7 and 29.8 against 32.0.
// Its agreement with the validator is held by TestFastPathSuite (the JSON
// Schema Test Suite) and FuzzFastPath.

// fastPath is a schema's request decoder, compiled on first use.
type fastPath struct {
	once     sync.Once
	root     *fastNode // nil: the schema has no fast path
	anything *fastNode // the node that checks nothing
	// schema is the schema compiled for requests, and known the types of
	// each schema it reaches that the fast path checks, for explain.
	schema *jsonschema.Schema
	known  map[*jsonschema.Schema]types
}

// Decoded is what DecodeRequest makes of a body: its value and the
// violations found in it, the first MaxViolations by path; More is true
// when there are more, not looked for.
type Decoded struct {
	Value      any
	Violations []Violation
	More       bool
}

// DecodeRequest decodes a JSON request body and checks it against the
// schema in one pass. When it is certain of its answer, it returns ok and
// what jsonx.Decode and ValidateRequest would: the value jsonx.Decode
// returns for data, and the violations ValidateRequest finds in it (none
// when it is valid), up to MaxViolations. Otherwise ok is false, and the
// caller decodes and validates as usual: data that is not JSON,
// violations whose order the fast path cannot tell, and any data when the
// schema has keywords the fast path does not check. Explaining a bad
// body stops when ctx is done, undecided.
func (s *Schema) DecodeRequest(ctx context.Context, data []byte) (d Decoded, ok bool) {
	fp := s.fastPath()
	if fp == nil {
		return Decoded{}, false
	}
	v, valid, capped, ok := decodeFast(data, fp.root, fp.anything)
	switch {
	case !ok:
		return Decoded{}, false
	case valid:
		return Decoded{Value: v}, true
	case capped:
		if _, vs, more := tame(v, s.comp.reach, MaxViolations); len(vs) > 0 {
			return Decoded{Value: v, Violations: vs, More: more}, true
		}
		// The number beyond the caps was replaced by a later duplicate
		// key ({"a":1e1000000000,"a":0}): the value left is explained as
		// any other.
	}
	vs, more, ok := explain(ctx, fp, v, &s.comp.locations, s.comp.reach)
	if !ok {
		return Decoded{}, false
	}
	return Decoded{Value: v, Violations: vs, More: more}, true
}

// HasFastPath reports whether DecodeRequest can ever answer for the
// schema.
func (s *Schema) HasFastPath() bool { return s.fastPath() != nil }

// fastPath returns the schema's fast path, compiled on first use, or nil
// when it has none.
func (s *Schema) fastPath() *fastPath {
	if s == nil || s.comp == nil {
		return nil
	}
	s.fast.once.Do(func() {
		if cs := s.comp.compileFor(s, inRequest); cs != nil {
			s.fast.compile(cs)
		}
	})
	if s.fast.root == nil {
		return nil
	}
	return &s.fast
}

// kinds of JSON value, as the fast path tells them apart: a number is
// whole when it is written without a fraction or an exponent.
const (
	kindNull uint8 = 1 << iota
	kindBool
	kindWhole // a number written without fraction or exponent
	kindOther // any other number
	kindString
	kindArray
	kindObject

	kindAny    = kindNull | kindBool | kindWhole | kindOther | kindString | kindArray | kindObject
	kindNumber = kindWhole | kindOther
)

// kindsOf returns the kinds of value that types allow. An integer is a
// whole number as written: 1.0 and 1e3, integers in 3.1, are left to the
// validator.
func kindsOf(t types) uint8 {
	var k uint8
	for _, m := range [...]struct {
		t types
		k uint8
	}{{typeNull, kindNull}, {typeBoolean, kindBool}, {typeNumber, kindNumber}, {typeInteger, kindWhole},
		{typeString, kindString}, {typeArray, kindArray}, {typeObject, kindObject}} {
		if t&m.t != 0 {
			k |= m.k
		}
	}
	return k
}

// fastNode is what a value at one place of a body must satisfy: the
// conjunction of the compiled schemas that apply there (a schema, its
// $ref and its allOf members, and for a property each object schema's
// property or additional properties schema).
type fastNode struct {
	kinds uint8 // the kinds a valid value may be; 0: none

	// exact is true when a whole number must be within int64 and checked
	// against lo, hi, multiples and enums.
	exact     bool
	lo, hi    int64
	multiples []int64
	enums     []*fastEnum
	formats   []*jsonschema.Format

	minLen, maxLen int // -1: no bound
	patterns       []*regex.Pattern

	items              *fastNode
	minItems, maxItems int // -1: no bound

	props              []fastProp
	index              map[string]int // props by name, when there are many
	extra              *fastNode      // the schema of other properties
	required           uint64         // the bits of the required props
	minProps, maxProps int            // -1: no bound
}

// fastProp is a property an object schema names (in properties or
// required).
type fastProp struct {
	name string
	node *fastNode
	bit  uint64 // its bit in fastNode.required, 0 when not required
}

// fastEnum is an enum or const, as far as scalars go: composite values
// are not compared (a node with an enum declines objects and arrays).
type fastEnum struct {
	strs                       []string
	ints                       []int64
	hasNull, hasTrue, hasFalse bool
}

// prop returns the index of the property named key, or -1.
func (n *fastNode) prop(key []byte) int {
	if n.index != nil {
		if i, ok := n.index[string(key)]; ok {
			return i
		}
		return -1
	}
	for i := range n.props {
		if n.props[i].name == string(key) {
			return i
		}
	}
	return -1
}

// Limits of compilation: beyond them a schema gets no fast path.
const (
	maxFastNodes = 4096 // distinct conjunctions in one schema
	maxFastIndex = 8    // props looked up by a scan up to this many
)

// compile compiles the decoder of cs, leaving fp.root nil when cs reaches
// a keyword the fast path does not check (or is the schema false).
func (fp *fastPath) compile(cs *jsonschema.Schema) {
	f := false
	b := &fastBuilder{
		ids:   map[*jsonschema.Schema]int{},
		own:   map[*jsonschema.Schema]bool{},
		memo:  map[string]*fastNode{},
		never: &fastNode{},
		falsy: &jsonschema.Schema{Bool: &f},
	}
	n, ok := b.node([]*jsonschema.Schema{cs})
	if !ok || n == b.never {
		return
	}
	anything, ok := b.node(nil)
	if !ok {
		return
	}
	fp.root, fp.anything, fp.schema = n, anything, cs
	fp.known = make(map[*jsonschema.Schema]types, len(b.own))
	for s, ok := range b.own {
		if ok {
			fp.known[s] = typesOf(s)
		}
	}
}

// fastBuilder compiles the nodes of one schema.
type fastBuilder struct {
	ids   map[*jsonschema.Schema]int  // a number for each schema met, for memo keys
	own   map[*jsonschema.Schema]bool // whether a schema's own keywords are all supported
	memo  map[string]*fastNode        // nodes by the conjunction they check
	never *fastNode                   // the node no value satisfies
	falsy *jsonschema.Schema          // the schema false, for additionalProperties: false
}

// node returns the node of the conjunction of roots (any value, for
// none), and false when it cannot be compiled.
func (b *fastBuilder) node(roots []*jsonschema.Schema) (*fastNode, bool) {
	var set []*jsonschema.Schema
	stack := map[*jsonschema.Schema]bool{}
	for _, r := range roots {
		never, ok := b.flatten(r, &set, stack)
		if !ok {
			return nil, false
		}
		if never {
			return b.never, true
		}
	}
	slices.SortFunc(set, func(x, y *jsonschema.Schema) int { return b.id(x) - b.id(y) })
	set = slices.Compact(set)
	var key strings.Builder
	for _, s := range set {
		key.WriteString(strconv.Itoa(b.id(s)))
		key.WriteByte(',')
	}
	if n, ok := b.memo[key.String()]; ok {
		return n, true
	}
	if len(b.memo) >= maxFastNodes {
		return nil, false
	}
	n := &fastNode{kinds: kindAny, lo: math.MinInt64, hi: math.MaxInt64, minLen: -1, maxLen: -1,
		minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
	b.memo[key.String()] = n // before the children, for recursive schemas
	for _, s := range set {
		n.add(s)
	}
	if n.exact || len(n.enums) > 0 {
		n.kinds &^= kindOther // not compared exactly: declined
	}
	if n.kinds&kindArray != 0 {
		var items []*jsonschema.Schema
		for _, s := range set {
			if it := itemsOf(s); it != nil {
				items = append(items, it)
			}
		}
		var ok bool
		if n.items, ok = b.node(items); !ok {
			return nil, false
		}
	}
	if n.kinds&kindObject != 0 {
		if !b.object(n, set) {
			return nil, false
		}
	}
	return n, true
}

func (b *fastBuilder) id(s *jsonschema.Schema) int {
	id, ok := b.ids[s]
	if !ok {
		id = len(b.ids)
		b.ids[s] = id
	}
	return id
}

// flatten adds s, and what applies to the same value through $ref and
// allOf, to set. never is true when one of them is the schema false; ok
// is false when one has keywords the fast path does not check, or when a
// schema applies to the value through itself (which the validator
// reports as a cycle).
func (b *fastBuilder) flatten(s *jsonschema.Schema, set *[]*jsonschema.Schema, stack map[*jsonschema.Schema]bool) (never, ok bool) {
	if s.Bool != nil {
		return !*s.Bool, true
	}
	if stack[s] {
		return false, false
	}
	if !b.supported(s) {
		return false, false
	}
	stack[s] = true
	defer delete(stack, s)
	*set = append(*set, s)
	var subs []*jsonschema.Schema
	if s.Ref != nil {
		subs = append(subs, s.Ref)
	}
	if !refOnly(s) {
		subs = append(subs, s.AllOf...)
	}
	for _, sub := range subs {
		if never, ok := b.flatten(sub, set, stack); never || !ok {
			return never, ok
		}
	}
	return false, true
}

// refOnly reports whether the validator reads no more of s than type,
// const, enum, format and $ref: a $ref in drafts before 2019-09, whose
// siblings are ignored.
func refOnly(s *jsonschema.Schema) bool { return s.Ref != nil && s.DraftVersion < 2019 }

// fastFields are the fields of a compiled schema the fast path checks or
// that do not constrain values (identifiers and annotations; dynamic
// anchors matter only to $dynamicRef and $recursiveRef, which are not
// supported). Any other field that is set keeps a schema off the fast
// path, fields of later versions of the library included.
var fastFields = words(`DraftVersion Location Bool ID Ref Anchor RecursiveAnchor DynamicAnchor
	Types Enum Const AllOf Format MaxProperties MinProperties Required Properties AdditionalProperties
	MinItems MaxItems Items Items2020 MinLength MaxLength Pattern Maximum Minimum ExclusiveMaximum
	ExclusiveMinimum MultipleOf Extensions Title Description Default Comment ReadOnly WriteOnly Examples
	Deprecated`)

// supported reports whether the fast path checks all of s's own keywords.
func (b *fastBuilder) supported(s *jsonschema.Schema) bool {
	if ok, seen := b.own[s]; seen {
		return ok
	}
	ok := ownSupported(s)
	b.own[s] = ok
	return ok
}

func ownSupported(s *jsonschema.Schema) bool {
	switch {
	case s.Format != nil && s.Format.Name == "regex":
		return false // validated with the regexp engine, not Format.Validate
	case s.Enum != nil && !jsonValues(s.Enum.Values), s.Const != nil && !jsonValues([]any{*s.Const}):
		return false
	case refOnly(s):
		return true // the validator reads nothing else of it
	}
	v := reflect.ValueOf(s).Elem()
	t := v.Type()
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && !fastFields[f.Name] && !v.Field(i).IsZero() {
			return false
		}
	}
	if _, tuple := s.Items.([]*jsonschema.Schema); tuple {
		return false
	}
	for _, ext := range s.Extensions {
		if _, ok := ext.(integerOnly); !ok {
			return false
		}
	}
	if s.MultipleOf != nil {
		if _, ok := wholeInt64(s.MultipleOf); !ok || s.MultipleOf.Sign() <= 0 {
			return false
		}
	}
	return true
}

// jsonValues reports whether vs are all JSON values as the compiler
// gives them.
func jsonValues(vs []any) bool {
	for _, v := range vs {
		switch v.(type) {
		case nil, bool, string, json.Number, map[string]any, []any:
		default:
			return false
		}
	}
	return true
}

// itemsOf returns the schema of s's items, or nil.
func itemsOf(s *jsonschema.Schema) *jsonschema.Schema {
	if refOnly(s) {
		return nil
	}
	if s.DraftVersion < 2020 {
		it, _ := s.Items.(*jsonschema.Schema)
		return it
	}
	return s.Items2020
}

// add adds the value keywords of s, a member of the node's conjunction,
// to n.
func (n *fastNode) add(s *jsonschema.Schema) {
	if s.Types != nil {
		n.kinds &= kindsOf(typesOf(s))
	}
	if s.Enum != nil {
		n.addEnum(s.Enum.Values)
	}
	if s.Const != nil {
		n.addEnum([]any{*s.Const})
	}
	if s.Format != nil && !slices.Contains(n.formats, s.Format) {
		n.formats = append(n.formats, s.Format)
	}
	if refOnly(s) {
		return
	}
	for range s.Extensions {
		n.kinds &^= kindOther // integerOnly: an integer has no fraction or exponent
	}
	if s.Minimum != nil {
		n.atLeast(ceil(s.Minimum))
	}
	if s.ExclusiveMinimum != nil {
		n.atLeast(new(big.Int).Add(floor(s.ExclusiveMinimum), big.NewInt(1)))
	}
	if s.Maximum != nil {
		n.atMost(floor(s.Maximum))
	}
	if s.ExclusiveMaximum != nil {
		n.atMost(new(big.Int).Sub(ceil(s.ExclusiveMaximum), big.NewInt(1)))
	}
	if s.MultipleOf != nil {
		m, _ := wholeInt64(s.MultipleOf)
		n.exact = true
		n.multiples = append(n.multiples, m)
	}
	n.minLen = tighter(n.minLen, s.MinLength, true)
	n.maxLen = tighter(n.maxLen, s.MaxLength, false)
	if p := patternOf(s.Pattern); p != nil {
		n.patterns = append(n.patterns, p)
	}
	n.minItems = tighter(n.minItems, s.MinItems, true)
	n.maxItems = tighter(n.maxItems, s.MaxItems, false)
	n.minProps = tighter(n.minProps, s.MinProperties, true)
	n.maxProps = tighter(n.maxProps, s.MaxProperties, false)
}

// tighter returns the tighter of bound cur (-1: none) and the schema's
// bound v (nil: none): the greater of lower bounds, the lesser of upper
// ones.
func tighter(cur int, v *int, lower bool) int {
	switch {
	case v == nil:
		return cur
	case cur < 0:
		return *v
	case lower:
		return max(cur, *v)
	}
	return min(cur, *v)
}

// atLeast raises the least whole number the node accepts to lo.
func (n *fastNode) atLeast(lo *big.Int) {
	n.exact = true
	switch {
	case !lo.IsInt64():
		if lo.Sign() > 0 {
			n.kinds &^= kindNumber // no int64 is that large
		}
	case lo.Int64() > n.lo:
		n.lo = lo.Int64()
	}
}

// atMost lowers the greatest whole number the node accepts to hi.
func (n *fastNode) atMost(hi *big.Int) {
	n.exact = true
	switch {
	case !hi.IsInt64():
		if hi.Sign() < 0 {
			n.kinds &^= kindNumber // no int64 is that small
		}
	case hi.Int64() < n.hi:
		n.hi = hi.Int64()
	}
}

// floor and ceil of a rational.
func floor(r *big.Rat) *big.Int {
	// Euclidean division, which for the positive denominator rounds
	// towards minus infinity.
	return new(big.Int).Div(r.Num(), r.Denom())
}

func ceil(r *big.Rat) *big.Int {
	q := floor(r)
	if !r.IsInt() {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// wholeInt64 returns r when it is a whole number within int64.
func wholeInt64(r *big.Rat) (int64, bool) {
	if !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// addEnum adds an enum (or a const, as an enum of one value): a valid
// value is one of vs. The node then declines objects and arrays, which it
// does not compare, and numbers that are not whole within int64.
func (n *fastNode) addEnum(vs []any) {
	e := &fastEnum{}
	kinds := uint8(0)
	for _, v := range vs {
		switch x := v.(type) {
		case nil:
			e.hasNull, kinds = true, kinds|kindNull
		case bool:
			if x {
				e.hasTrue = true
			} else {
				e.hasFalse = true
			}
			kinds |= kindBool
		case string:
			e.strs, kinds = append(e.strs, x), kinds|kindString
		case json.Number:
			// A number that is not a whole int64 equals no value the
			// node accepts: only those are compared.
			if r, ok := new(big.Rat).SetString(string(x)); ok {
				if i, ok := wholeInt64(r); ok {
					e.ints, kinds = append(e.ints, i), kinds|kindWhole
				}
			}
		}
	}
	n.kinds &= kinds
	n.exact = true
	n.enums = append(n.enums, e)
}

// object compiles the properties of n, an object node checking set.
func (b *fastBuilder) object(n *fastNode, set []*jsonschema.Schema) bool {
	var names, required []string
	for _, s := range set {
		if refOnly(s) {
			continue
		}
		for name := range s.Properties {
			names = append(names, name)
		}
		names = append(names, s.Required...)
		required = append(required, s.Required...)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	slices.Sort(required)
	required = slices.Compact(required)
	if len(required) > 64 {
		return false
	}
	// rootsOf returns the schemas a property's value must satisfy: for
	// each object schema, the property's schema, else its additional
	// properties' (false: none may be there). An empty name stands for
	// names no schema declares.
	rootsOf := func(name string, declared bool) []*jsonschema.Schema {
		var roots []*jsonschema.Schema
		for _, s := range set {
			if refOnly(s) {
				continue
			}
			if p, ok := s.Properties[name]; ok && declared {
				roots = append(roots, p)
				continue
			}
			switch ap := s.AdditionalProperties.(type) {
			case *jsonschema.Schema:
				roots = append(roots, ap)
			case bool:
				if !ap {
					roots = append(roots, b.falsy)
				}
			}
		}
		return roots
	}
	n.props = make([]fastProp, len(names))
	bit := uint64(1)
	for i, name := range names {
		pn, ok := b.node(rootsOf(name, true))
		if !ok {
			return false
		}
		n.props[i] = fastProp{name: name, node: pn}
		if _, req := slices.BinarySearch(required, name); req {
			n.props[i].bit = bit
			n.required |= bit
			bit <<= 1
		}
	}
	if len(n.props) > maxFastIndex {
		n.index = make(map[string]int, len(n.props))
		for i, p := range n.props {
			n.index[p.name] = i
		}
	}
	var ok bool
	n.extra, ok = b.node(rootsOf("", false))
	return ok
}
