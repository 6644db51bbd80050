package jsonx

import (
	"errors"
	"strings"
	"testing"
)

func TestReadNumber(t *testing.T) {
	tests := []struct {
		lit  string
		want Number
		err  error
	}{
		{"0", Number{}, nil},
		{"-0.000e5", Number{Neg: true}, nil},
		{"120", Number{Digits: "12", Exp: 1}, nil},
		{"-1.50", Number{Neg: true, Digits: "15", Exp: -1}, nil},
		{"0.0012", Number{Digits: "12", Exp: -4}, nil},
		{"1e100000", Number{Digits: "1", Exp: 100000}, nil},
		{"1E-0010000000", Number{Digits: "1", Exp: -10000000}, nil},
		{"25.5e+3", Number{Digits: "255", Exp: 2}, nil},
		{"1e999999999", Number{Digits: "1", Exp: 999999999}, nil},
		{"1e1000000000", Number{}, ErrExponentTooLarge},
		{strings.Repeat("9", 1000), Number{Digits: strings.Repeat("9", 1000)}, nil},
		{strings.Repeat("9", 1001), Number{}, ErrTooManyDigits},
		{"1." + strings.Repeat("0", 1000), Number{}, ErrTooManyDigits},
		{"01", Number{}, ErrNotANumber},
		{"1.", Number{}, ErrNotANumber},
		{"1e", Number{}, ErrNotANumber},
		{"1x", Number{}, ErrNotANumber},
	}
	for _, tt := range tests {
		got, err := ReadNumber(tt.lit)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ReadNumber(%.30s) = %+v, %v; want %+v, %v", tt.lit, got, err, tt.want, tt.err)
		}
	}
}

func TestNumberCmpAndIsInt(t *testing.T) {
	// In ascending order, no two equal.
	lits := []string{"-1e10000000", "-12.5", "-12", "-1e-9", "0", "1e-10000000", "0.5", "1", "1.0001", "1.9", "2", "10", "12e0", "1.5e1", "1e100000"}
	for i, a := range lits {
		for j, b := range lits {
			na, _ := ReadNumber(a)
			nb, _ := ReadNumber(b)
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := Cmp(na, nb); got != want {
				t.Errorf("Cmp(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
	for lit, want := range map[string]bool{"1e100000": true, "1e10000000": true, "1.5e1": true, "1.5e0": false, "15e-1": false, "150e-1": true, "0.0": true, "1e-10000000": false} {
		if n, _ := ReadNumber(lit); n.IsInt() != want {
			t.Errorf("IsInt(%s) = %v, want %v", lit, !want, want)
		}
	}
}
