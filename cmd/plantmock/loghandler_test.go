package main

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestLineHandlerWritesAsSlog: for records it writes itself and records
// it leaves to slog, lineHandler's lines are byte for byte those of
// slog's TextHandler and JSONHandler.
func TestLineHandlerWritesAsSlog(t *testing.T) {
	strs := []string{"", "POST", "/plants", "a b", "a=b", `q"uote`, `back\slash`, "tab\there", "nl\n", "cr\r",
		"\b\f\x01\x1f\x7f", "<>&", "é ü", "\u2028\u2029", "\xff\xfe", "\u00a0nbsp", "zero\u200bwidth", "emoji 🌱", "x\\=y"}
	rnd := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		if rnd.IntN(3) == 0 {
			return strs[rnd.IntN(len(strs))]
		}
		var b strings.Builder
		for range rnd.IntN(6) {
			b.WriteString(strs[rnd.IntN(len(strs))])
		}
		return b.String()
	}
	var records []slog.Record
	for _, tm := range []time.Time{
		time.Date(2026, 11, 24, 21, 5, 7, 0, time.UTC),
		time.Date(2026, 11, 24, 21, 5, 7, 120_000_000, time.UTC),
		time.Date(2026, 11, 24, 21, 5, 7, 999_999_999, time.FixedZone("X", 3600+1800)),
		time.Date(2026, 11, 24, 21, 5, 7, 999_999_999, time.UTC).In(time.FixedZone("Y", -7*3600)), // the instant above, another zone
		time.Date(2026, 11, 24, 21, 5, 8, 1_000, time.UTC),
		time.Date(2026, 11, 24, 21, 5, 8, 500_000, time.Local),
		time.Date(9999, 12, 31, 23, 30, 0, 5, time.UTC), time.Date(9999, 12, 31, 23, 30, 0, 5, time.UTC).In(time.FixedZone("Z1", 3600)), // year 10000 there
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(0, 1, 1, 0, 30, 0, 0, time.UTC).In(time.FixedZone("W", -3600)), // year -1 there
		time.Now(), {}, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		for _, lv := range []slog.Level{slog.LevelInfo, slog.LevelWarn, slog.LevelError, slog.LevelDebug, slog.LevelInfo + 2} {
			r := slog.NewRecord(tm, lv, word(), 0)
			r.AddAttrs(slog.String("method", "POST"), slog.String("path", word()), slog.Int("status", 400),
				slog.Duration("duration", time.Duration(rnd.Int64N(int64(time.Hour)))), slog.Uint64("trigger", rnd.Uint64()),
				slog.Bool("ok", rnd.IntN(2) == 0), slog.Any("violations", []string{word(), word()}))
			records = append(records, r)
		}
	}
	for range 500 {
		r := slog.NewRecord(time.Now(), slog.LevelInfo, word(), 0)
		for range rnd.IntN(8) {
			switch rnd.IntN(6) {
			case 0:
				r.AddAttrs(slog.String(word(), word()))
			case 1:
				r.AddAttrs(slog.Int(word(), rnd.IntN(1000)-500))
			case 2:
				r.AddAttrs(slog.Duration(word(), time.Duration(rnd.Int64())))
			case 3:
				r.AddAttrs(slog.Any(word(), []string{word()}))
			case 4:
				r.AddAttrs(slog.Any(word(), []string(nil)))
			case 5: // left to slog
				r.AddAttrs(slog.Float64(word(), rnd.Float64()), slog.Group("g", slog.String("a", word())))
			}
		}
		records = append(records, r)
	}
	mine, theirs := 0, 0
	for _, json := range []bool{false, true} {
		// One handler for all records, as in the mock: consecutive
		// records share a second, or not, or a second in another zone.
		var got, want bytes.Buffer
		h := newLineHandler(&got, json)
		var ref slog.Handler = slog.NewTextHandler(&want, nil)
		if json {
			ref = slog.NewJSONHandler(&want, nil)
		}
		for _, r := range records {
			got.Reset()
			want.Reset()
			if plain(r) {
				mine++
			} else {
				theirs++
			}
			h.Handle(context.Background(), r)
			ref.Handle(context.Background(), r)
			if got.String() != want.String() {
				t.Fatalf("json=%v:\n got %q\nwant %q", json, got.String(), want.String())
			}
		}
	}
	if mine < 400 || theirs < 400 {
		t.Errorf("%d records written by lineHandler, %d by slog: the test does not try both enough", mine, theirs)
	}
}

// plain reports whether lineHandler writes r itself: a time inner writes
// as RFC 3339 (a year within 0-9999), and attributes of the kinds it
// formats, each with a key.
func plain(r slog.Record) bool {
	if y := r.Time.Year(); r.Time.IsZero() || y < 0 || y >= 10000 {
		return false
	}
	ok := true
	r.Attrs(func(a slog.Attr) bool {
		ok = plainAttr(a)
		return ok
	})
	return ok
}

func BenchmarkLineHandler(b *testing.B) {
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("method", "POST"), slog.String("path", "/plants"), slog.Int("status", 400),
		slog.Duration("duration", 61234), slog.Int("error", 40004),
		slog.Any("violations", []string{"id: expected integer, got string", "name: expected string, got number"}))
	for _, json := range []bool{false, true} {
		name := map[bool]string{false: "text", true: "json"}[json]
		var ref slog.Handler = slog.NewTextHandler(discard{}, nil)
		if json {
			ref = slog.NewJSONHandler(discard{}, nil)
		}
		b.Run(name+"/lineHandler", func(b *testing.B) {
			h := newLineHandler(discard{}, json)
			b.ReportAllocs()
			for b.Loop() {
				h.Handle(context.Background(), r)
			}
		})
		b.Run(name+"/slog", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ref.Handle(context.Background(), r)
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
