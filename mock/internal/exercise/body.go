package exercise

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"sort"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/stream"
)

// Bodies are made in the declared media type that a value can be made
// for, in this order: JSON (with the ranges that admit it), form,
// multipart, text, XML, then any other (bytes). A value is generated from
// the media type's schema and written:
//
//   - JSON as JSON text;
//   - application/x-www-form-urlencoded property by property, by the
//     property's encoding style when it gives one, else as text (JSON
//     text for objects), an array as a repeated name;
//   - multipart/form-data as one part per property (one per item of an
//     array), with the encoding's content type, else application/json
//     for objects and text/plain for the rest;
//   - XML as elements named by the schemas' xml objects;
//   - a sequential media type with an item schema (JSON Lines, a JSON
//     text sequence, multipart/mixed, server-sent events) as two items
//     generated from the item schema, framed as the type frames them;
//   - anything else as the text of a string, or JSON text.
//
// Form and multipart bodies are decoded back and checked against their
// schema, so that only a body the mock reads as valid is sent.

// kind orders the media types a body may be made in.
func kind(mt string) int {
	switch {
	case openapi.IsJSON(mt):
		return 0
	case mt == "application/x-www-form-urlencoded":
		return 1
	case mt == "multipart/form-data":
		return 2
	case strings.HasPrefix(mt, "text/") && !isXML(mt):
		return 3
	case isXML(mt):
		return 4
	}
	return 5
}

func isXML(mt string) bool {
	return mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml")
}

// makeBody makes a body for b: the media type, and the value, or why none
// could be made.
func makeBody(b *openapi.RequestBody, seed uint64) (*openapi.Media, any, string) {
	ms := append([]*openapi.Media(nil), b.Content...)
	sort.SliceStable(ms, func(i, j int) bool { return kind(ms[i].Type) < kind(ms[j].Type) })
	var whys []string
	for _, m := range ms {
		v, why := bodyValue(m, seed)
		if why == "" {
			return m, v, ""
		}
		whys = append(whys, m.Type+": "+why)
	}
	if len(whys) == 0 {
		return nil, nil, "the request body declares no media type"
	}
	return nil, nil, "no body could be made: " + strings.Join(whys, "; ")
}

// bodyValue generates a valid value for media type m, or says why none
// could be made.
func bodyValue(m *openapi.Media, seed uint64) (any, string) {
	var why string
	if m.Schema == nil && m.IsForm() {
		return map[string]any{}, ""
	}
	if m.Itemized() {
		return itemsValue(m, seed)
	}
	for k := uint64(0); k < attempts; k++ {
		v, vs := generate(m.Schema, seed^k*0x632be59bd9b4e019, 0, true)
		if len(vs) > 0 {
			why = fmt.Sprintf("generated %s breaks its schema: %s", clip(string(jsonx.Marshal(v)), 200), vs[0])
			continue
		}
		if why = readsBack(m, v, seed); why != "" {
			continue
		}
		return v, ""
	}
	return nil, why
}

// readsBack says why v, a valid value of m's schema, does not read back
// as valid once written in m, "" when it does: a form or multipart body
// is decoded and checked as the mock reads it; other media types are
// read as written.
func readsBack(m *openapi.Media, v any, seed uint64) string {
	if !m.IsForm() {
		return ""
	}
	data, ct, err := writeBody(m, v, seed)
	if err != nil {
		return err.Error()
	}
	back, vs := m.DecodeForm(data, ct)
	if len(vs) == 0 && m.Schema != nil {
		vs = m.Schema.ValidateRequest(back) // as the mock reads a form
	}
	if len(vs) > 0 {
		return fmt.Sprintf("written as %s it reads back as invalid: %s", clip(string(data), 200), vs[0])
	}
	return ""
}

// writeBody writes v in media type m: the bytes and the Content-Type.
func writeBody(m *openapi.Media, v any, seed uint64) ([]byte, string, error) {
	ct := concrete(m.Type)
	if m.Itemized() {
		return StreamBody(m, v, seed)
	}
	switch kind(m.Type) {
	case 0:
		return jsonx.Marshal(v), ct, nil
	case 1:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, "", fmt.Errorf("the value %s is not an object", clip(string(jsonx.Marshal(v)), 80))
		}
		text, err := urlencoded(m, obj)
		return []byte(text), ct, err
	case 2:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, "", fmt.Errorf("the value %s is not an object", clip(string(jsonx.Marshal(v)), 80))
		}
		return multipartBody(m, obj, seed)
	case 4:
		return xmlBody(m.Schema, v), ct, nil
	}
	if s, ok := v.(string); ok {
		return []byte(s), ct, nil
	}
	return jsonx.Marshal(v), ct, nil
}

// streamItems is how many items a stream's body is made of.
const streamItems = 2

// itemsValue generates the items of a body of a sequential media type
// (see openapi.Media.Itemized), each valid against the item schema: an
// array of them.
func itemsValue(m *openapi.Media, seed uint64) (any, string) {
	out := make([]any, 0, streamItems)
	for i := uint64(0); i < streamItems; i++ {
		var why string
		for k := uint64(0); k < attempts; k++ {
			v, vs := generate(m.ItemSchema, (seed+i)^k*0x632be59bd9b4e019, 0, true)
			if len(vs) == 0 {
				out, why = append(out, v), ""
				break
			}
			why = fmt.Sprintf("generated item %s breaks the item schema: %s", clip(string(jsonx.Marshal(v)), 200), vs[0])
		}
		if why != "" {
			return nil, why
		}
	}
	return out, ""
}

// StreamBody writes the items of v (an array; any other value is one
// item) as a stream of m: JSON Lines, a JSON text sequence, server-sent
// events, or multipart/mixed parts of JSON, with a boundary made from
// the seed.
func StreamBody(m *openapi.Media, v any, seed uint64) ([]byte, string, error) {
	var buf []byte
	switch m.Seq {
	case stream.Lines:
		for _, it := range items(v) {
			buf = stream.AppendLine(buf, jsonx.Marshal(it))
		}
	case stream.Records:
		for _, it := range items(v) {
			buf = stream.AppendRecord(buf, jsonx.Marshal(it))
		}
	case stream.Events:
		for _, it := range items(v) {
			buf = stream.AppendEvent(buf, m.Event(it))
		}
	case stream.Parts:
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		if err := w.SetBoundary(fmt.Sprintf("plantmock-%016x", seed)); err != nil {
			return nil, "", err
		}
		for _, it := range items(v) {
			pw, err := w.CreatePart(textproto.MIMEHeader{"Content-Type": {"application/json"}})
			if err != nil {
				return nil, "", err
			}
			pw.Write(jsonx.Marshal(it))
		}
		if err := w.Close(); err != nil {
			return nil, "", err
		}
		return b.Bytes(), "multipart/mixed; boundary=" + w.Boundary(), nil
	}
	return buf, m.Type, nil
}

// concrete turns a media range into a media type it admits.
func concrete(mt string) string {
	typ, sub, _ := strings.Cut(mt, "/")
	if !strings.Contains(mt, "*") {
		return mt
	}
	switch {
	case openapi.IsJSON(mt) || strings.HasSuffix(sub, "+json"):
		return "application/json"
	case typ == "text":
		return "text/plain"
	case typ == "image":
		return "image/png"
	case typ == "*" || typ == "":
		return "application/octet-stream"
	}
	return typ + "/octet-stream"
}

// names returns an object's names, sorted.
func names(obj map[string]any) []string {
	out := make([]string, 0, len(obj))
	for n := range obj {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// items returns an array's items, or the value alone.
func items(v any) []any {
	if a, ok := v.([]any); ok {
		return a
	}
	return []any{v}
}

// text writes one value of a form property or part: JSON text for JSON
// media types and for arrays and objects, the text of a scalar otherwise.
func text(v any, asJSON bool) string {
	if t, ok := scalar(v); ok && !asJSON {
		return t
	}
	return string(jsonx.Marshal(v))
}

func isJSONList(list string) bool {
	if list == "" {
		return false
	}
	for _, e := range strings.Split(list, ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(e), ";")
		if !openapi.IsJSON(strings.ToLower(strings.TrimSpace(mt))) {
			return false
		}
	}
	return true
}

// urlencoded writes an application/x-www-form-urlencoded body.
func urlencoded(m *openapi.Media, obj map[string]any) (string, error) {
	var out []string
	for _, name := range names(obj) {
		v := obj[name]
		enc, has := m.Encoding[name]
		if has && (enc.Style != "" || enc.Explode != nil || enc.AllowReserved) {
			part, err := queryPart(&openapi.Param{Name: name, In: "query", Style: enc.Style, Explode: enc.Explode}, v)
			if err != nil {
				return "", fmt.Errorf("%s: %v", name, err)
			}
			if part != "" {
				out = append(out, part)
			}
			continue
		}
		for _, it := range items(v) {
			out = append(out, escape(name)+"="+escape(text(it, isJSONList(enc.ContentType))))
		}
	}
	return strings.Join(out, "&"), nil
}

// multipartBody writes a multipart/form-data body, with a boundary made
// from the seed.
func multipartBody(m *openapi.Media, obj map[string]any, seed uint64) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.SetBoundary(fmt.Sprintf("plantmock-%016x", seed)); err != nil {
		return nil, "", err
	}
	for _, name := range names(obj) {
		enc := m.Encoding[name]
		for _, it := range items(obj[name]) {
			ct := "text/plain"
			switch {
			case enc.ContentType != "":
				first, _, _ := strings.Cut(enc.ContentType, ",")
				ct = concrete(strings.ToLower(strings.TrimSpace(first)))
			case isObject(it):
				ct = "application/json"
			}
			h := textproto.MIMEHeader{}
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, name))
			h.Set("Content-Type", ct)
			pw, err := w.CreatePart(h)
			if err != nil {
				return nil, "", err
			}
			mt, _, _ := strings.Cut(ct, ";")
			pw.Write([]byte(text(it, openapi.IsJSON(mt))))
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

func isObject(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// xmlBody writes v as XML, elements and attributes named by the schemas'
// xml objects, else by property and component names.
func xmlBody(s *openapi.Schema, v any) []byte {
	var b bytes.Buffer
	name := "root"
	if s != nil && s.Name != "" {
		name = s.Name
	}
	writeXML(&b, s, v, name, 0)
	return b.Bytes()
}

func xmlName(s *openapi.Schema, def string) string {
	if s != nil && s.XML != nil && s.XML.Name != "" {
		return s.XML.Name
	}
	return def
}

func writeXML(b *bytes.Buffer, s *openapi.Schema, v any, name string, depth int) {
	name = xmlName(s, name)
	if depth > 32 {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		b.WriteString("<" + name)
		var children []string
		for _, n := range names(x) {
			ps := s.Property(n)
			if ps != nil && ps.XML != nil && ps.XML.Attribute {
				t, _ := scalar(x[n])
				b.WriteString(" " + xmlName(ps, n) + `="`)
				xml.EscapeText(b, []byte(t))
				b.WriteString(`"`)
				continue
			}
			children = append(children, n)
		}
		b.WriteString(">")
		for _, n := range children {
			writeXML(b, s.Property(n), x[n], n, depth+1)
		}
		b.WriteString("</" + name + ">")
	case []any:
		var is *openapi.Schema
		if s != nil {
			is = s.Items
		}
		wrapped := s != nil && s.XML != nil && s.XML.Wrapped
		if wrapped {
			b.WriteString("<" + name + ">")
		}
		for _, e := range x {
			writeXML(b, is, e, name, depth+1)
		}
		if wrapped {
			b.WriteString("</" + name + ">")
		}
	default:
		t, _ := scalar(x)
		b.WriteString("<" + name + ">")
		xml.EscapeText(b, []byte(t))
		b.WriteString("</" + name + ">")
	}
}

// clip shortens s to at most n bytes, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
