package gen

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// bounds returns the range numbers are drawn from: the schema's bounds,
// or lo and hi where it has none (a bound alone gets a range of 1000 on
// its other side).
func bounds(in *interval, lo, hi float64) (float64, float64) {
	if in.hasLo {
		lo = in.lo
		if !in.hasHi {
			hi = lo + 1000
		}
	}
	if in.hasHi {
		hi = in.hi
		if !in.hasLo && hi < lo {
			lo = hi - 1000
		}
	}
	return lo, hi
}

// integer makes a whole number within the bounds and the int32 or int64
// range of the format, a multiple of every multipleOf.
func (g *gen) integer(w *want, fa *facts) any {
	in := fa.interval
	lo, hi := bounds(&in, 1, 10000)
	step := int64(1)
	if fa.multipleOf {
		var ok bool
		if step, ok = wholeMultiple(w); !ok {
			return g.multiple(&in, fa.format, lo, hi, multiple(w, true))
		}
	}
	l, h := int64(math.Max(math.Ceil(lo), -maxWhole)), int64(math.Min(math.Floor(hi), maxWhole))
	if in.exclLo && float64(l) == lo {
		l++
	}
	if in.exclHi && float64(h) == hi {
		h--
	}
	switch fa.format {
	case "int32":
		l, h = max(l, math.MinInt32), min(h, math.MaxInt32)
	}
	if step > 1 {
		l, h = ceilDiv(l, step), floorDiv(h, step) // in steps
		if h < l {
			return g.multiple(&in, fa.format, lo, hi, multiple(w, true))
		}
	}
	if h < l {
		h = l
	}
	v := l + int64(g.f.Uint64()%(uint64(h)-uint64(l)+1))
	return json.Number(strconv.FormatInt(v*step, 10))
}

// wholeMultiple returns the least common multiple of the multipleOf of
// w's parts when they are all whole numbers under 2^31 (and the multiple
// is under 2^53), the usual case, without big numbers.
func wholeMultiple(w *want) (int64, bool) {
	m := int64(1)
	for p := range w.parts {
		if p.MultipleOf == nil {
			continue
		}
		x := *p.MultipleOf
		if x < 1 || x >= 1<<31 || x != math.Trunc(x) {
			return 0, false
		}
		n := int64(x)
		a, b := m, n
		for b != 0 {
			a, b = b, a%b
		}
		m = m / a * n
		if m >= 1<<53 {
			return 0, false
		}
	}
	return m, true
}

// ceilDiv and floorDiv divide, rounding up and down.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// maxWhole is the largest float64 that converts to an int64 (2^63 - 1024).
const maxWhole = float64(math.MaxInt64 - 1023)

// number makes a number within the bounds, with at most two decimals
// where the bounds leave room, a multiple of every multipleOf; not a
// whole number when the parts refuse those.
func (g *gen) number(w *want, fa *facts) any {
	in := fa.interval
	lo, hi := bounds(&in, 0, 1000)
	if fa.multipleOf {
		if m := multiple(w, fa.types&tInteger == 0); m != nil {
			return g.multiple(&in, fa.format, lo, hi, m)
		}
	}
	ok := func(v float64) bool {
		return (v > lo || v == lo && !in.exclLo) && (v < hi || v == hi && !in.exclHi) &&
			(fa.types&tInteger != 0 || v != math.Trunc(v))
	}
	v := math.Round(g.f.Float64Range(lo, hi)*100) / 100
	if !ok(v) {
		v = lo + (hi-lo)/2
	}
	if !ok(v) && ok(v+0.5) {
		v += 0.5
	}
	if !ok(v) {
		v = lo
	}
	return json.Number(strconv.FormatFloat(v, 'f', -1, 64))
}

// multiple returns the least common multiple of the multipleOf of w's
// parts (and 1 for whole numbers when whole is true), or nil when no
// part has multipleOf.
func multiple(w *want, whole bool) *big.Rat {
	var m *big.Rat
	for p := range w.parts {
		if p.MultipleOf == nil || *p.MultipleOf <= 0 {
			continue
		}
		r, ok := new(big.Rat).SetString(strconv.FormatFloat(*p.MultipleOf, 'g', -1, 64))
		if !ok {
			continue
		}
		m = lcm(m, r)
	}
	if m != nil && whole {
		m = lcm(m, big.NewRat(1, 1))
	}
	return m
}

// lcm returns the least common multiple of two positive rationals (b
// when a is nil): lcm(p/q, r/s) = lcm(p, r) / gcd(q, s).
func lcm(a, b *big.Rat) *big.Rat {
	if a == nil {
		return b
	}
	g := new(big.Int).GCD(nil, nil, a.Num(), b.Num())
	num := new(big.Int).Mul(a.Num(), b.Num())
	num.Quo(num, g)
	den := new(big.Int).GCD(nil, nil, a.Denom(), b.Denom())
	return new(big.Rat).SetFrac(num, den)
}

// multiple makes k·m for a whole k that puts it within the bounds (the
// least such k when the bounds are far apart for m).
func (g *gen) multiple(in *interval, format string, lo, hi float64, m *big.Rat) any {
	mf, _ := m.Float64()
	kLo, kHi := math.Ceil(lo/mf), math.Floor(hi/mf)
	if in.exclLo && kLo*mf <= lo {
		kLo++
	}
	if in.exclHi && kHi*mf >= hi {
		kHi--
	}
	if format == "int32" {
		kLo, kHi = math.Max(kLo, math.Ceil(math.MinInt32/mf)), math.Min(kHi, math.Floor(math.MaxInt32/mf))
	}
	if kHi < kLo {
		kHi = kLo
	}
	k := kLo
	if span := kHi - kLo; span > 0 && span < 1<<53 && !math.IsInf(span, 0) {
		k += float64(g.f.Uint64() % (uint64(span) + 1))
	}
	kr, ok := new(big.Rat).SetString(strconv.FormatFloat(k, 'f', -1, 64))
	if !ok {
		kr = big.NewRat(1, 1)
	}
	return json.Number(decimal(kr.Mul(kr, m)))
}

// decimal writes r exactly: a whole number without a fraction, a
// fraction with as many decimals as its denominator needs (a product of
// multipleOf values written in decimal has a denominator of 2s and 5s).
func decimal(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	d := new(big.Int).Set(r.Denom())
	digits := 0
	for _, p := range []int64{2, 5} {
		n, q, rem := 0, new(big.Int), new(big.Int)
		for {
			q.QuoRem(d, big.NewInt(p), rem)
			if rem.Sign() != 0 {
				break
			}
			d.Set(q)
			n++
		}
		digits = max(digits, n)
	}
	if d.Cmp(big.NewInt(1)) != 0 {
		digits = 20 // not a decimal fraction: as near as 20 decimals come
	}
	s := r.FloatString(digits)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// isInteger reports whether a JSON number is a whole number.
func isInteger(n string) bool {
	if !strings.ContainsAny(n, ".eE") {
		return true
	}
	r, ok := new(big.Rat).SetString(n)
	return ok && r.IsInt()
}
