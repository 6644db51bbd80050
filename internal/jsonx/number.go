package jsonx

import (
	"errors"
	"strings"
)

// Caps on the numbers a request may hold. Beyond them a number is refused
// before any arithmetic: a literal's digits cost the square of their count
// in big.Rat, and its exponent the square of its value.
const (
	// MaxNumberDigits is the most digits a number may have before its
	// exponent.
	MaxNumberDigits = 1000
	// MaxExponentDigits is the most digits its exponent may have, leading
	// zeros aside: at most 999,999,999.
	MaxExponentDigits = 9
)

// Errors of ReadNumber.
var (
	ErrTooManyDigits    = errors.New("has more than 1000 digits")
	ErrExponentTooLarge = errors.New("has an exponent of more than 9 digits")
	ErrNotANumber       = errors.New("is not a JSON number")
)

// Number is the value of a number literal as its digits and an exponent,
// read without arithmetic: ±Digits × 10^Exp, where Digits has no leading
// or trailing zero ("" for zero, whose Exp is 0).
type Number struct {
	Neg    bool
	Digits string
	Exp    int64
}

// ReadNumber reads lit, a JSON number literal, within the caps
// (MaxNumberDigits, MaxExponentDigits). It allocates only when the
// literal has digits on both sides of its point.
func ReadNumber(lit string) (Number, error) {
	var n Number
	i := 0
	if i < len(lit) && lit[i] == '-' {
		n.Neg = true
		i++
	}
	// The digits are counted up to the cap and no further: a literal of
	// 900,000 digits is refused without reading it, where reading it took
	// a millisecond on each of the walks that refuse it
	// (BenchmarkHostileBody, a 900,000-digit id).
	start := i
	i = digitsUpTo(lit, i, MaxNumberDigits+1)
	intPart := lit[start:i]
	if len(intPart) == 0 || len(intPart) > 1 && intPart[0] == '0' {
		return Number{}, ErrNotANumber
	}
	if len(intPart) > MaxNumberDigits {
		return Number{}, ErrTooManyDigits
	}
	var frac string
	if i < len(lit) && lit[i] == '.' {
		j := digitsUpTo(lit, i+1, MaxNumberDigits-len(intPart)+1)
		if j == i+1 {
			return Number{}, ErrNotANumber
		}
		frac, i = lit[i+1:j], j
	}
	if len(intPart)+len(frac) > MaxNumberDigits {
		return Number{}, ErrTooManyDigits
	}
	var exp int64
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		neg := false
		if i < len(lit) && (lit[i] == '+' || lit[i] == '-') {
			neg = lit[i] == '-'
			i++
		}
		j := digits(lit, i)
		if j == i {
			return Number{}, ErrNotANumber
		}
		e := strings.TrimLeft(lit[i:j], "0")
		if len(e) > MaxExponentDigits {
			return Number{}, ErrExponentTooLarge
		}
		for k := 0; k < len(e); k++ {
			exp = exp*10 + int64(e[k]-'0')
		}
		if neg {
			exp = -exp
		}
		i = j
	}
	if i != len(lit) {
		return Number{}, ErrNotANumber
	}
	// ±intPart.frac × 10^exp = ±(intPart frac) × 10^(exp-len(frac)).
	intPart = strings.TrimLeft(intPart, "0")
	exp -= int64(len(frac))
	if intPart == "" {
		frac = strings.TrimLeft(frac, "0")
	}
	d := intPart + frac // no copy unless both are there
	trimmed := strings.TrimRight(d, "0")
	exp += int64(len(d) - len(trimmed))
	if trimmed == "" {
		return Number{Neg: n.Neg}, nil
	}
	n.Digits, n.Exp = trimmed, exp
	return n, nil
}

// IsZero reports whether n is zero.
func (n Number) IsZero() bool { return n.Digits == "" }

// IsInt reports whether n is a whole number.
func (n Number) IsInt() bool { return n.Digits == "" || n.Exp >= 0 }

// Magnitude is the power of ten of n's leading digit: 2 for 123, -3 for
// 0.00123. It is meaningless for zero.
func (n Number) Magnitude() int64 { return int64(len(n.Digits)) - 1 + n.Exp }

// Cmp compares a and b by value: -1, 0 or +1.
func Cmp(a, b Number) int {
	sa, sb := a.sign(), b.sign()
	switch {
	case sa != sb:
		if sa < sb {
			return -1
		}
		return 1
	case sa == 0:
		return 0
	}
	c := cmpAbs(a, b)
	if sa < 0 {
		return -c
	}
	return c
}

func (n Number) sign() int {
	switch {
	case n.Digits == "":
		return 0
	case n.Neg:
		return -1
	}
	return 1
}

// cmpAbs compares the absolute values of a and b, both not zero.
func cmpAbs(a, b Number) int {
	if ma, mb := a.Magnitude(), b.Magnitude(); ma != mb {
		if ma < mb {
			return -1
		}
		return 1
	}
	// Same leading power: the digits, aligned at the left, decide.
	return strings.Compare(a.Digits, b.Digits)
}

// digitsUpTo returns the end of the digits from i, after at most n.
func digitsUpTo(s string, i, n int) int {
	end := len(s)
	if i+n < end {
		end = i + n
	}
	for i < end && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
