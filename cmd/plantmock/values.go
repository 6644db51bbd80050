package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The flag values of plantmock's own kinds. Each refuses a bad value in
// Set, so that parse reports it as it reports a bad number: in one line
// naming the flag or the variable that gave it.

// tokens is a repeatable flag: each use adds a value (a variable holds
// them with commas between).
type tokens []string

func (t *tokens) String() string { return strings.Join(*t, ",") }
func (t *tokens) Set(v string) error {
	*t = append(*t, v)
	return nil
}

// A size is a number of bytes, written as parseSize reads it.
type size int64

func (s *size) String() string { return sizeText(int64(*s)) }
func (s *size) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*s = size(n)
	return nil
}

// A bound is a size, or 0 for none.
type bound size

func (b *bound) String() string { return sizeText(int64(*b)) }
func (b *bound) Set(v string) error {
	if strings.TrimSpace(v) == "0" {
		*b = 0
		return nil
	}
	return (*size)(b).Set(v)
}

// A choice is one of a few words.
type choice struct {
	value string
	words []string
}

// newChoice returns a choice of words, set to the first.
func newChoice(words ...string) *choice { return &choice{value: words[0], words: words} }

func (c *choice) String() string { return c.value }
func (c *choice) Set(v string) error {
	if !slices.Contains(c.words, v) {
		return fmt.Errorf("want %s or %s", strings.Join(c.words[:len(c.words)-1], ", "), c.words[len(c.words)-1])
	}
	c.value = v
	return nil
}

// sizeText writes a size as parseSize reads it, in MiB when it is a whole
// number of them.
func sizeText(n int64) string {
	if n != 0 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + "MiB"
	}
	return strconv.FormatInt(n, 10)
}

// errSize says what parseSize reads.
var errSize = errors.New("want a size in bytes, or with KiB, MiB or GiB (e.g. 1048576, 512KiB, 1MiB)")

// parseSize reads 1048576, 512KiB, 1MiB or 1GiB.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	num := s
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, errSize
	}
	return n * mult, nil
}
