package main

import (
	"sync/atomic"
	"time"
)

// logClock writes the times of log lines as slog's handlers do, RFC 3339,
// formatting the date, the time to the second and the zone once a second
// rather than once a line: the lines of one second share them.
type logClock struct {
	last atomic.Pointer[stamp] // the second of the line written last
}

// stamp is one second of one location, as time.RFC3339 writes it.
type stamp struct {
	sec  int64          // t.Unix()
	loc  *time.Location // t.Location()
	date []byte         // "2006-01-02T15:04:05"
	zone []byte         // "Z" or "-07:00"
	ok   bool           // the year is within 0-9999, which slog's handlers write as RFC 3339
}

// second returns t's stamp: the last one when t is in the same second and
// location, else a new one, kept as the last.
func (c *logClock) second(t time.Time) *stamp {
	sec, loc := t.Unix(), t.Location()
	if st := c.last.Load(); st != nil && st.sec == sec && st.loc == loc {
		return st
	}
	st := &stamp{sec: sec, loc: loc}
	if y := t.Year(); y >= 0 && y < 10000 {
		f := t.AppendFormat(make([]byte, 0, len(time.RFC3339)), time.RFC3339)
		const dateLen = len("2006-01-02T15:04:05")
		st.date, st.zone, st.ok = f[:dateLen], f[dateLen:], true
	}
	c.last.Store(st)
	return st
}

// appendNano appends t as t.AppendFormat(b, time.RFC3339Nano) does (the
// JSONHandler's time), given its stamp: the fraction has no trailing
// zeros, and none at all for a whole second.
func appendNano(b []byte, st *stamp, t time.Time) []byte {
	b = append(b, st.date...)
	if ns := t.Nanosecond(); ns != 0 {
		var d [10]byte
		d[0] = '.'
		for i := 9; i > 0; i-- {
			d[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for d[n-1] == '0' {
			n--
		}
		b = append(b, d[:n]...)
	}
	return append(b, st.zone...)
}

// appendMillis appends t as the TextHandler writes it, given its stamp:
// RFC 3339 with exactly three digits of milliseconds.
func appendMillis(b []byte, st *stamp, t time.Time) []byte {
	ms := t.Nanosecond() / int(time.Millisecond)
	b = append(b, st.date...)
	b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	return append(b, st.zone...)
}
