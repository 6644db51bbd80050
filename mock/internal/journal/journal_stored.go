package journal

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// EntryCodec is how the state keeps journal entries (see state.Codec):
// weighed by EntrySize, stored as storedEntry.
type EntryCodec struct{}

func (EntryCodec) Weight(e Entry) int                { return EntrySize(&e) }
func (EntryCodec) Number(e *Entry, seq uint64)       { e.Seq = seq }
func (EntryCodec) Append(buf []byte, e Entry) []byte { return appendStored(buf, &e) }
func (EntryCodec) Decode(data []byte, e *Entry) error {
	return json.Unmarshal(data, (*storedEntry)(e))
}

// storedEntry is how an Entry is kept in Redis: Entry's own fields,
// bodies as base64 strings, without the JSON form the admin API gives it.
// It is read with encoding/json and written by appendStored.
type storedEntry Entry

// appendStored appends e as encoding/json writes a storedEntry, but for
// the escaping of <, > and &, which it leaves as they are. It is written
// out because every request on a shared store is journaled this way, and
// reflection took a twentieth of such a mock's processor time.
func appendStored(buf []byte, e *Entry) []byte {
	buf = append(buf, `{"seq":`...)
	buf = strconv.AppendUint(buf, e.Seq, 10)
	buf = append(buf, `,"time":"`...)
	buf = e.Time.AppendFormat(buf, time.RFC3339Nano)
	buf = append(buf, `","duration":`...)
	buf = strconv.AppendInt(buf, int64(e.Duration), 10)
	buf = appendField(buf, "method", e.Method)
	buf = appendField(buf, "path", e.Path)
	buf = appendOmit(buf, "query", e.Query)
	buf = append(buf, `,"headers":`...)
	if e.Header == nil {
		buf = append(buf, "null"...)
	} else {
		var on [16]string // on the stack for the usual number of headers
		names := on[:0]
		for name := range e.Header {
			names = append(names, name)
		}
		slices.Sort(names)
		buf = append(buf, '{')
		for i, name := range names {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = jsonx.AppendString(buf, name)
			buf = append(buf, ':')
			buf = appendStrings(buf, e.Header[name])
		}
		buf = append(buf, '}')
	}
	buf = appendBytes(buf, "body", e.Body)
	buf = appendOmit(buf, "token", e.Token)
	buf = appendOmit(buf, "operation", e.Operation)
	buf = appendOmit(buf, "document", e.Document)
	buf = appendOmit(buf, "scenario", e.Scenario)
	buf = appendInt(buf, "rule", int64(e.Rule))
	buf = appendOmit(buf, "session", e.Session)
	buf = append(buf, `,"status":`...)
	buf = strconv.AppendInt(buf, int64(e.Status), 10)
	buf = appendBytes(buf, "response", e.Response)
	buf = appendInt(buf, "code", int64(e.Code))
	if len(e.Violations) > 0 {
		buf = append(buf, `,"violations":[`...)
		for i, v := range e.Violations {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `{"path":`...)
			buf = jsonx.AppendString(buf, v.Path)
			buf = appendField(buf, "reason", v.Reason)
			buf = appendOmit(buf, "direction", v.Direction)
			buf = appendOmit(buf, "schema", v.Schema)
			buf = append(buf, '}')
		}
		buf = append(buf, ']')
	}
	if len(e.Notes) > 0 {
		buf = append(buf, `,"notes":`...)
		buf = appendStrings(buf, e.Notes)
	}
	buf = appendOmit(buf, "drift", e.Drift)
	buf = appendOmit(buf, "direction", e.Direction)
	buf = appendOmit(buf, "url", e.URL)
	if e.Trigger != 0 {
		buf = append(buf, `,"trigger":`...)
		buf = strconv.AppendUint(buf, e.Trigger, 10)
	}
	buf = appendInt(buf, "attempt", int64(e.Attempt))
	buf = appendOmit(buf, "error", e.Error)
	if c := e.Clipped; c != nil {
		buf = append(buf, `,"clipped":{`...)
		open := len(buf)
		buf = appendInt(buf, "path", int64(c.Path))
		buf = appendInt(buf, "query", int64(c.Query))
		buf = appendInt(buf, "headers", int64(c.Headers))
		buf = appendInt(buf, "body", int64(c.Body))
		buf = appendInt(buf, "response", int64(c.Response))
		buf = appendInt(buf, "violations", int64(c.Violations))
		if c.Unchecked {
			buf = append(buf, `,"unchecked":true`...)
		}
		if len(buf) > open {
			buf = append(buf[:open], buf[open+1:]...) // the first field's comma
		}
		buf = append(buf, '}')
	}
	return append(buf, '}')
}

// appendField appends ,"name":s.
func appendField(buf []byte, name, s string) []byte {
	buf = append(buf, ',', '"')
	buf = append(buf, name...)
	buf = append(buf, '"', ':')
	return jsonx.AppendString(buf, s)
}

// appendOmit appends ,"name":s unless s is empty.
func appendOmit(buf []byte, name, s string) []byte {
	if s == "" {
		return buf
	}
	return appendField(buf, name, s)
}

// appendInt appends ,"name":n unless n is 0.
func appendInt(buf []byte, name string, n int64) []byte {
	if n == 0 {
		return buf
	}
	buf = append(buf, ',', '"')
	buf = append(buf, name...)
	buf = append(buf, '"', ':')
	return strconv.AppendInt(buf, n, 10)
}

// appendBytes appends ,"name":"base64 of b" unless b is empty.
func appendBytes(buf []byte, name string, b []byte) []byte {
	if len(b) == 0 {
		return buf
	}
	buf = append(buf, ',', '"')
	buf = append(buf, name...)
	buf = append(buf, '"', ':', '"')
	buf = base64.StdEncoding.AppendEncode(buf, b)
	return append(buf, '"')
}

// appendStrings appends ss as a JSON array; null when ss is nil.
func appendStrings(buf []byte, ss []string) []byte {
	if ss == nil {
		return append(buf, "null"...)
	}
	buf = append(buf, '[')
	for i, s := range ss {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = jsonx.AppendString(buf, s)
	}
	return append(buf, ']')
}
