package openapi

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/internal/jsonx"
)

// Big numbers. The JSON Schema library works on exact rationals: a number
// costs it the square of its digits, and 10^e the square of e; past an
// exponent of a million it cannot read the number at all, and panics on a
// nil *big.Rat when the schema has a bound or multipleOf. So before the
// library sees a value:
//
//   - a number beyond the caps of jsonx.ReadNumber (1,000 digits, an
//     exponent of 9 digits) is refused, whatever the schema says, and
//     nothing else is checked;
//   - a number whose exponent puts it far beyond every number of the
//     document, above or below, is handed to the library as a stand-in
//     with the same digits and an exponent just beyond the document's
//     reach. Every verdict the library gives is then the same as for the
//     number itself: its sign, whether it is whole (a number is an integer
//     when it has no fraction once its exponent is applied, at any
//     exponent: 1e100000 and 1e10000000 are integers, 1e-10000000 is not),
//     how it compares with every bound, const and enum value of the
//     document (a comparison of exponents), and whether it is a multiple
//     of every multipleOf (which depends on the exponent only through the
//     powers of 2 and 5 of the multipleOf, all below the reach). Two far
//     numbers with the same digits may become one stand-in, so that
//     uniqueItems may find equal two numbers that differ only in a huge
//     exponent.
//
// Messages quote the number as the request wrote it, clipped.
//
// The walk also bounds how deeply a value nests: the library's errors
// carry their whole instance location, so that a deep value's errors
// cost the square of its depth (46 ms and 9 MB at 1,000 levels).

// maxValueDepth is how deeply a value validated may nest: 128 levels of
// arrays and objects, the limit serde_json sets too.
const maxValueDepth = 128

// minReach is the least reach of a document: stand-ins are at least this
// far from 1.
const minReach = 64

// reachOf returns how far from 1, in powers of ten, numbers must be for
// stand-ins to keep their verdicts against every number in n: beyond the
// magnitudes and precisions of them all, and beyond the powers of 2 and
// 5 of their digits (log2 10 < 4).
func reachOf(n *node) int64 {
	reach := int64(minReach)
	var walk func(*node)
	walk = func(n *node) {
		switch n.kind {
		case numberNode:
			x, err := jsonx.ReadNumber(n.str)
			if err != nil {
				// A document number beyond the caps: keep every request
				// number away from it by its length.
				reach = max(reach, 4*int64(len(n.str))+minReach)
				return
			}
			reach = max(reach, 4*(int64(len(x.Digits))+abs(x.Exp))+minReach)
		case arrayNode, objectNode:
			for _, v := range n.vals {
				walk(v)
			}
		}
	}
	if n != nil {
		walk(n)
	}
	return reach
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// far reports whether n is so large or so small that the library must
// not see it: its stand-in is then written as digits and an exponent.
func far(n jsonx.Number, reach int64) bool {
	return !n.IsZero() && (n.Exp > reach || n.Magnitude() < -reach)
}

// standIn returns the stand-in of n, a far number.
func standIn(n jsonx.Number, reach int64) json.Number {
	exp := reach
	if n.Exp < 0 {
		exp = -reach - int64(len(n.Digits))
	}
	var b strings.Builder
	b.Grow(len(n.Digits) + 24)
	if n.Neg {
		b.WriteByte('-')
	}
	b.WriteString(n.Digits)
	b.WriteByte('e')
	b.WriteString(strconv.FormatInt(exp, 10))
	return json.Number(b.String())
}

// shortNumber reports whether lit is certainly within the caps and not
// far from 1: a number of up to 18 characters without an exponent.
func shortNumber(lit string) bool {
	return len(lit) <= 18 && !strings.ContainsAny(lit, "eE")
}

// tamer walks a value before the library sees it.
type tamer struct {
	reach   int64
	refused bool // a number is beyond the caps, or a value too deep
	where   bool // keep loc, and the violations in out
	loc     []string
	out     []Violation
	limit   int  // of out, when where: 0 for none; past it, more
	more    bool // more refusals than out holds, not looked for
}

// tame returns v with its far numbers made stand-ins (v itself when it
// has none; the containers on the way to a stand-in are copied), and the
// violations of its numbers beyond the caps, for which the value must not
// be validated further.
//
// With a limit, it says where for that many refusals at most, the first
// in the order of the walk, which then goes through objects'
// properties in name order, and more is true when there were others.
func tame(v any, reach int64, limit int) (tv any, vs []Violation, more bool) {
	t := tamer{reach: reach}
	tv, _ = t.value(v, 0)
	if t.refused {
		// Walk again, to say where: the first walk keeps no places,
		// which would cost an allocation of every validation.
		t = tamer{reach: reach, where: true, limit: limit}
		t.value(v, 0)
		sortViolations(t.out)
		return nil, t.out, t.more
	}
	return tv, nil, false
}

// enter and leave keep the place walked through, when it is wanted.
func (t *tamer) enter(name string) {
	if t.where {
		t.loc = append(t.loc, name)
	}
}

func (t *tamer) leave() {
	if t.where {
		t.loc = t.loc[:len(t.loc)-1]
	}
}

// refuse records that the value at the place walked through is refused
// for why.
func (t *tamer) refuse(why string) {
	t.refused = true
	switch {
	case !t.where:
	case t.limit > 0 && len(t.out) == t.limit:
		t.more = true
	default:
		t.out = append(t.out, Violation{Path: joinPath(t.loc), Reason: why})
	}
}

// value returns v, within depth containers, tamed, and whether it
// changed.
func (t *tamer) value(v any, depth int) (any, bool) {
	switch x := v.(type) {
	case json.Number:
		if shortNumber(string(x)) {
			return v, false
		}
		n, err := jsonx.ReadNumber(string(x))
		switch {
		case err != nil:
			t.refuse(numberReason(string(x), err))
			return v, false
		case far(n, t.reach):
			return standIn(n, t.reach), true
		}
	case []any:
		if len(x) > 0 && t.tooDeep(depth) {
			return v, false
		}
		var cp []any
		for i, e := range x {
			if t.more {
				break
			}
			if t.where {
				t.enter(strconv.Itoa(i))
			}
			te, changed := t.value(e, depth+1)
			t.leave()
			if changed {
				if cp == nil {
					cp = append([]any(nil), x...)
				}
				cp[i] = te
			}
		}
		if cp != nil {
			return cp, true
		}
	case map[string]any:
		if len(x) > 0 && t.tooDeep(depth) {
			return v, false
		}
		if t.limit > 0 {
			// The walk that says where, which then goes in name order;
			// what it returns is not used.
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if t.more {
					break
				}
				t.enter(k)
				t.value(x[k], depth+1)
				t.leave()
			}
			return v, false
		}
		var cp map[string]any
		for k, e := range x {
			t.enter(k)
			te, changed := t.value(e, depth+1)
			t.leave()
			if changed {
				if cp == nil {
					cp = make(map[string]any, len(x))
					for k2, e2 := range x {
						cp[k2] = e2
					}
				}
				cp[k] = te
			}
		}
		if cp != nil {
			return cp, true
		}
	}
	return v, false
}

// tooDeep reports whether the items of a container within depth others
// are too deep to validate, recording the violation.
func (t *tamer) tooDeep(depth int) bool {
	if depth < maxValueDepth {
		return false
	}
	t.refuse("nested deeper than " + strconv.Itoa(maxValueDepth) + " levels")
	return true
}

// numberReason says why a number literal is refused.
func numberReason(lit string, err error) string {
	return clip.To(lit, clip.Value) + " " + err.Error()
}
