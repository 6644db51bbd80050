package main

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// lineHandler stands in for slog's TextHandler or JSONHandler (inner) on
// the records the mock writes for every request: a time, a message and
// attributes that are strings, whole numbers, durations, booleans or
// lists of strings, outside any group. It writes each such record as
// inner would, byte for byte, in a fraction of the time, and leaves
// every other record to inner. Both write whole lines to out, one a
// Write.
type lineHandler struct {
	slog.Handler // inner: Enabled, and the records lineHandler leaves
	out          io.Writer
	json         bool
	clock        logClock
}

// newLineHandler returns the handler of --log-format: "text" or "json".
func newLineHandler(out io.Writer, json bool) *lineHandler {
	var inner slog.Handler = slog.NewTextHandler(out, nil)
	if json {
		inner = slog.NewJSONHandler(out, nil)
	}
	return &lineHandler{Handler: inner, out: out, json: json}
}

// WithAttrs and WithGroup return inner's handlers: records of loggers with
// attributes or groups of their own are inner's to write.
func (h *lineHandler) WithAttrs(as []slog.Attr) slog.Handler { return h.Handler.WithAttrs(as) }
func (h *lineHandler) WithGroup(name string) slog.Handler    { return h.Handler.WithGroup(name) }

var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// Handle implements slog.Handler.
func (h *lineHandler) Handle(ctx context.Context, r slog.Record) error {
	t := r.Time.Round(0)
	var st *stamp
	if !t.IsZero() {
		st = h.clock.second(t)
	}
	if st == nil || !st.ok {
		return h.Handler.Handle(ctx, r)
	}
	bp := lineBufs.Get().(*[]byte)
	b := (*bp)[:0]
	if h.json {
		b = append(b, `{"time":"`...)
		b = appendNano(b, st, t)
		b = append(b, `","level":`...)
		b = appendJSONString(b, r.Level.String())
		b = append(b, `,"msg":`...)
		b = appendJSONString(b, r.Message)
	} else {
		b = append(b, "time="...)
		b = appendMillis(b, st, t)
		b = append(b, " level="...)
		b = appendTextString(b, r.Level.String())
		b = append(b, " msg="...)
		b = appendTextString(b, r.Message)
	}
	ok := true
	r.Attrs(func(a slog.Attr) bool {
		if ok = plainAttr(a); !ok {
			return false
		}
		if h.json {
			b = append(b, ',')
			b = appendJSONString(b, a.Key)
			b = append(b, ':')
			b = appendJSONValue(b, a.Value)
		} else {
			b = append(b, ' ')
			b = appendTextString(b, a.Key)
			b = append(b, '=')
			b = appendTextValue(b, a.Value)
		}
		return true
	})
	var err error
	if ok {
		if h.json {
			b = append(b, '}')
		}
		b = append(b, '\n')
		_, err = h.out.Write(b)
	}
	*bp = b
	lineBufs.Put(bp)
	if !ok {
		return h.Handler.Handle(ctx, r)
	}
	return err
}

// plainAttr reports whether lineHandler formats a: a string, a whole
// number, a duration, a boolean or a list of strings, with a key.
func plainAttr(a slog.Attr) bool {
	switch a.Value.Kind() {
	case slog.KindString, slog.KindInt64, slog.KindUint64, slog.KindDuration, slog.KindBool:
	case slog.KindAny:
		if _, ok := a.Value.Any().([]string); !ok {
			return false
		}
	default:
		return false
	}
	return a.Key != ""
}

func appendJSONValue(b []byte, v slog.Value) []byte {
	switch v.Kind() {
	case slog.KindString:
		return appendJSONString(b, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindDuration:
		return strconv.AppendInt(b, int64(v.Duration()), 10) // as json.Marshal writes one
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool())
	}
	ss := v.Any().([]string) // as encoding/json writes it, which the JSONHandler uses
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMarshaledString(b, s)
	}
	return append(b, ']')
}

func appendTextValue(b []byte, v slog.Value) []byte {
	switch v.Kind() {
	case slog.KindString:
		return appendTextString(b, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindDuration:
		return append(b, v.Duration().String()...)
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool())
	}
	// As the TextHandler writes it: fmt's %+v of the list, quoted when
	// that needs it.
	ss := v.Any().([]string)
	n := 2 + len(ss)
	for _, s := range ss {
		n += len(s)
	}
	list := make([]byte, 0, n)
	list = append(list, '[')
	for i, s := range ss {
		if i > 0 {
			list = append(list, ' ')
		}
		list = append(list, s...)
	}
	list = append(list, ']')
	if needsQuoting(string(list)) {
		return strconv.AppendQuote(b, string(list))
	}
	return append(b, list...)
}

// appendTextString writes s as the TextHandler does: as it is, or quoted
// in Go syntax when it is empty or holds a space, '=', a quote, a control
// character, a character that is not printable, or invalid UTF-8.
func appendTextString(b []byte, s string) []byte {
	if needsQuoting(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func needsQuoting(s string) bool {
	if len(s) == 0 {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c != '\\' && (c == ' ' || c == '=' || !jsonSafe(c)) {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}

// jsonSafe reports whether an ASCII byte stands for itself in a JSON
// string.
func jsonSafe(c byte) bool { return c >= 0x20 && c != '"' && c != '\\' }

// appendJSONString writes s quoted as the JSONHandler writes strings,
// which is as jsonx does.
func appendJSONString(b []byte, s string) []byte { return jsonx.AppendString(b, s) }

// appendMarshaledString writes s quoted as encoding/json, without HTML
// escaping, writes strings: as the JSONHandler does, but for \b and \f,
// which it writes short.
func appendMarshaledString(b []byte, s string) []byte {
	if !strings.ContainsAny(s, "\b\f") {
		return jsonx.AppendString(b, s)
	}
	b = append(b, '"')
	for {
		i := strings.IndexAny(s, "\b\f")
		if i < 0 {
			i = len(s)
		}
		n := len(b)
		b = jsonx.AppendString(b, s[:i])
		b = append(b[:n], b[n+1:len(b)-1]...) // without its quotes
		if i == len(s) {
			return append(b, '"')
		}
		if s[i] == '\b' {
			b = append(b, `\b`...)
		} else {
			b = append(b, `\f`...)
		}
		s = s[i+1:]
	}
}
