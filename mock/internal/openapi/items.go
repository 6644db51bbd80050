package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/stream"
)

// items reads what a sequential media type says of its items: the item
// schema, and for server-sent events how an event's fields map onto it.
// itemSchema is 3.2's; a 3.0 or 3.1 document's is read too, with a
// warning, since it says what the author means.
func (l *loader) items(m *Media, mn *node, ptr string) error {
	m.Seq = stream.SequenceOf(m.Type)
	is := mn.get("itemSchema")
	if is != nil && !l.doc.v32 {
		l.warn("itemSchema before 3.2", at(child(ptr, "itemSchema"), is),
			fmt.Sprintf("itemSchema is an OpenAPI 3.2 field, in a %s document: it is read as 3.2 reads it", l.doc.OpenAPI))
	}
	switch {
	case m.Seq == stream.NotSequential:
		return nil
	case is != nil:
		s, err := l.schemas.build(is, child(ptr, "itemSchema"))
		if err != nil {
			return err
		}
		l.schemas.validated(s)
		m.ItemSchema = s
	case m.Schema != nil && m.Schema.Items != nil && slices.Equal(m.Schema.Types, []string{"array"}):
		m.ItemSchema = m.Schema.Items
	default:
		m.ItemSchema = m.Schema
	}
	if m.Seq == stream.Events {
		m.events = shapeOf(m.ItemSchema)
	}
	return nil
}

// Streams reports whether answers in m are sent as streams: it is
// sequential, and not multipart/mixed, which requests may send but the
// mock does not.
func (m *Media) Streams() bool {
	return m != nil && m.Seq != stream.NotSequential && m.Seq != stream.Parts
}

// eventShape is how the item schema of text/event-stream reads an
// event. A schema that declares a data property describes the event's
// fields, as OpenAPI 3.2 models them: data, event, id and retry (the
// others are not sent). Any other schema describes the data alone.
type eventShape struct {
	fields bool // the schema describes the event's fields
	// json is true when the data is JSON text of the value the schema
	// (or its data property) describes: that schema is not a string's.
	json bool
	// contents are the schemas of the JSON text a data string holds
	// (contentMediaType JSON and contentSchema): the item schema's own,
	// or those of the alternatives of its anyOf or oneOf (an event
	// schema a type of event, nil for one whose data declares none),
	// each with the schema an event must fit for it to apply. Empty
	// where no data declares JSON content.
	contents []eventContent
}

type eventContent struct {
	when, content *Schema
}

func shapeOf(s *Schema) eventShape {
	if s == nil {
		return eventShape{}
	}
	data := dataProperty(s)
	if data == nil && !slices.Contains(s.Required, "data") {
		return eventShape{json: !textual(s)}
	}
	sh := eventShape{fields: true, json: data != nil && !textual(data)}
	if c := contentOf(s.Property("data")); c != nil {
		sh.contents = []eventContent{{s, c}}
		return sh
	}
	for _, a := range s.AnyOf {
		sh.contents = append(sh.contents, eventContent{a, contentOf(a.Property("data"))})
	}
	if !slices.ContainsFunc(sh.contents, func(c eventContent) bool { return c.content != nil }) {
		sh.contents = nil
	}
	return sh
}

// contentOf returns the schema of the JSON a data property's string
// holds, or nil.
func contentOf(data *Schema) *Schema {
	if data != nil && data.ContentSchema != nil && IsJSON(data.ContentMediaType) {
		return data.ContentSchema
	}
	return nil
}

// dataProperty is the schema of an event schema's data property: its
// own, or the one every alternative of its anyOf or oneOf declares
// alike, for a schema that lists one event schema a type of event.
func dataProperty(s *Schema) *Schema {
	if p := s.Property("data"); p != nil {
		return p
	}
	var data *Schema
	for _, a := range s.AnyOf {
		p := a.Property("data")
		if p == nil {
			return nil
		}
		if data == nil || textual(data) && !textual(p) {
			data = p
		}
	}
	return data
}

// textual reports whether a value of s is written as text, not JSON: a
// string schema, or one that says nothing of the type.
func textual(s *Schema) bool {
	if len(s.Types) == 0 {
		return len(s.Properties) == 0 && s.Items == nil && len(s.AnyOf) == 0
	}
	for _, t := range s.Types {
		if t != "string" && t != "null" {
			return false
		}
	}
	return true
}

// EventContent returns the schema of the JSON text the data of an event
// of value v holds, where the item schema's data property (or that of
// the alternative v fits) is a string that declares it: an answer
// generates the data from it. Nil otherwise.
func (m *Media) EventContent(v any) *Schema {
	for _, c := range m.events.contents {
		if c.content != nil && (c.when == m.ItemSchema || len(c.when.Validate(v)) == 0) {
			return c.content
		}
	}
	return nil
}

// checkContent checks the data of an event of value v against the
// content its schema declares: an event fits when it fits an
// alternative whose data declares none, or the content of one that does.
// The violations are the first alternative's that it fits but whose
// content it breaks.
func (m *Media) checkContent(where string, v any, data string) []Violation {
	var out []Violation
	for _, c := range m.events.contents {
		if c.when != m.ItemSchema && len(c.when.Validate(v)) > 0 {
			continue
		}
		if c.content == nil {
			return nil
		}
		d, err := jsonx.Decode([]byte(data))
		if err != nil {
			if out == nil {
				out = []Violation{{Path: where + ".data", Reason: "the data is not JSON, as its contentMediaType says: " + err.Error()}}
			}
			continue
		}
		vs := c.content.Validate(d)
		if len(vs) == 0 {
			return nil
		}
		if out == nil {
			for _, vi := range vs {
				vi.Path = joinParam(where+".data", vi.Path)
				out = append(out, vi)
			}
		}
	}
	return out
}

// EventValue returns the value an event stands for, which the item
// schema describes: an object of its fields, or its data alone. Data
// that the schema says is JSON is decoded; data that is not JSON is an
// error.
func (m *Media) EventValue(e stream.Event) (any, error) {
	var data any = e.Data
	if m.events.json {
		v, err := jsonx.Decode([]byte(e.Data))
		if err != nil {
			return nil, fmt.Errorf("the data is not JSON: %w", err)
		}
		data = v
	}
	if !m.events.fields {
		return data, nil
	}
	obj := map[string]any{"data": data}
	if e.Event != "" {
		obj["event"] = e.Event
	}
	if e.HasID {
		obj["id"] = e.ID
	}
	if e.HasRetry {
		obj["retry"] = json.Number(strconv.FormatInt(e.Retry, 10))
	}
	return obj, nil
}

// Event returns the event that a value of the item schema stands for:
// the inverse of EventValue. Fields of the wrong type are left out, and
// data the schema says is JSON is written as JSON.
func (m *Media) Event(v any) stream.Event {
	if !m.events.fields {
		return stream.Event{Data: m.dataText(v)}
	}
	obj, _ := v.(map[string]any)
	e := stream.Event{Data: m.dataText(obj["data"])}
	e.Event, _ = obj["event"].(string)
	switch id := obj["id"].(type) {
	case string:
		e.ID, e.HasID = id, true
	case json.Number:
		e.ID, e.HasID = id.String(), true
	}
	if r, ok := obj["retry"].(json.Number); ok {
		if n, err := strconv.ParseInt(r.String(), 10, 64); err == nil && n >= 0 {
			e.Retry, e.HasRetry = n, true
		}
	}
	return e
}

func (m *Media) dataText(v any) string {
	if s, ok := v.(string); ok && !m.events.json {
		return s
	}
	if v == nil && !m.events.json {
		return ""
	}
	return string(jsonx.Append(nil, v))
}

// ItemValue returns the value an item stands for, which the item
// schema describes: an event's (see EventValue), a line's or a
// record's JSON text decoded, a part's JSON decoded, or a part's text
// as a string.
func (m *Media) ItemValue(it stream.Item) (any, error) {
	switch {
	case m.Seq == stream.Events:
		return m.EventValue(it.Event)
	case m.Seq == stream.Parts && !IsJSON(it.Type):
		return string(it.Text), nil
	}
	return jsonx.Decode(it.Text)
}

// ReadItems returns the values of the items of body, a whole stream of
// m sent as contentType (see ItemValue): an example written as the
// stream's text, or a stream recorded. done reports that the stream
// ends with the end marker (see Ends), which is no item: what follows
// it is not read.
func (m *Media) ReadItems(body []byte, contentType string) (items []any, done bool, err error) {
	r, err := stream.NewReader(bytes.NewReader(body), contentType, len(body))
	if err != nil {
		return nil, false, err
	}
	items = []any{}
	for {
		it, err := r.Next()
		if errors.Is(err, io.EOF) {
			return items, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		if m.Ends(it) {
			return items, true, nil
		}
		v, err := m.ItemValue(it)
		if err != nil {
			return nil, false, err
		}
		items = append(items, v)
	}
}

// EventStream reports whether m is server-sent events, the one
// sequential media type whose streams may end with the end marker.
func (m *Media) EventStream() bool { return m.Seq == stream.Events }

// Ends reports whether it is the end marker of a stream of m: an event
// whose data is [DONE] (stream.Done), as OpenAI's API ends its streams.
// It is the stream's end, not an item, whatever the item schema says:
// a document of any version need not describe it, and readers stop
// there, as OpenAI's SDKs do.
func (m *Media) Ends(it stream.Item) bool {
	return m.Seq == stream.Events && it.Event.Ends()
}

// CheckItem checks one item of a sequential media type against the item
// schema: a line's or a record's JSON text, an event by the value it
// stands for (and its data against the data's contentSchema), a part
// of JSON by its value; the end marker (see Ends) is not checked. request says whether a client sent it (a
// required readOnly property need not be there). Violations' paths
// start with the item's place: item[3].name.
func (m *Media) CheckItem(it stream.Item, request bool) []Violation {
	if m.Ends(it) {
		return nil // the end marker, no item
	}
	where := "item[" + strconv.Itoa(it.N) + "]"
	if m.Seq == stream.Parts && !IsJSON(it.Type) && (m.ItemSchema == nil || !textual(m.ItemSchema)) {
		return nil // octets no JSON value describes
	}
	v, err := m.ItemValue(it)
	if err != nil {
		return []Violation{{Path: where, Reason: err.Error()}}
	}
	out := m.validateItem(where, v, request)
	if len(out) > 0 || m.Seq != stream.Events {
		return out
	}
	return m.checkContent(where, v, it.Event.Data)
}

func (m *Media) validateItem(where string, v any, request bool) []Violation {
	var vs []Violation
	if request {
		vs = m.ItemSchema.ValidateRequest(v)
	} else {
		vs = m.ItemSchema.Validate(v)
	}
	for i := range vs {
		vs[i].Path = joinParam(where, vs[i].Path)
	}
	return vs
}
