package answer

import (
	"strconv"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/stream"
)

// Items makes the items of one streamed answer, one at a time, in the
// answer's media type (see openapi.Media.Streams): each from a value
// given (an example's, a rule's) or generated from the item schema,
// framed, and checked against the item schema as the client will read
// it.
type Items struct {
	s *Answerer
	x *Turn
	m *openapi.Media
	// IDs numbers server-sent events by their place in the stream.
	IDs bool
	// Lax sends given items that break the item schema (a rule that is
	// off contract).
	Lax   bool
	noted bool // a generated item that breaks the schema was noted
}

// Items returns the maker of the items of x's answer, whose media type
// streams.
func (s *Answerer) Items(x *Turn) *Items { return &Items{s: s, x: x, m: x.Media()} }

// Media is the media type the items are written in.
func (it *Items) Media() *openapi.Media { return it.m }

// Append appends item n (from 1) to buf: v when given, else one
// generated from the item schema. A given item that breaks the schema is
// a problem (unless Lax); a generated one is sent, noted once, as a
// body generated that way is.
func (it *Items) Append(buf []byte, n int, v any, given bool) ([]byte, *problem.Problem) {
	if !given {
		var p *problem.Problem
		if v, p = it.generate(); p != nil {
			return buf, p
		}
	}
	start := len(buf)
	var item stream.Item
	switch it.m.Seq {
	case stream.Events:
		e := it.m.Event(v)
		if it.IDs {
			e.ID, e.HasID = strconv.Itoa(n), true
		}
		buf = stream.AppendEvent(buf, e)
		item = stream.Item{N: n, Event: e}
	case stream.Records:
		buf = append(buf, stream.RS)
		buf = jsonx.Append(buf, v)
		item = stream.Item{N: n, Text: buf[start+1:]}
		buf = append(buf, '\n')
	default:
		buf = jsonx.Append(buf, v)
		item = stream.Item{N: n, Text: buf[start:]}
		buf = append(buf, '\n')
	}
	if it.m.ItemSchema == nil && it.m.Seq != stream.Events {
		return buf, nil
	}
	if vs := it.m.CheckItem(item, false); len(vs) > 0 {
		switch {
		case given && !it.Lax:
			return buf[:start], problem.Internal("item %d does not match the item schema of %s: %s", n, it.m.Type, vs[0])
		case !given && !it.noted:
			it.noted = true
			it.x.Note("answered with generated items that break the item schema, the first item %d: %s", n, vs[0])
		}
	}
	return buf, nil
}

// generate makes one item from the item schema, within a budget of its
// own: a stream's items are as many as it has, each as big as an answer
// may be. Server-sent event data that declares JSON content is made from
// its contentSchema.
func (it *Items) generate() (any, *problem.Problem) {
	x, s := it.x, it.s
	schema := it.m.ItemSchema
	if schema == nil {
		return "", nil // an event with empty data, for a stream that says nothing of its items
	}
	meter := gen.NewMeter(x.R.Context(), s.Budget)
	meter.Refuse(x.Plan.over)
	note := x.Note
	if it.noted {
		note = func(string, ...any) {}
	}
	v, p := generateValue(&meter, schema, x.Fake(s), note)
	if p != nil {
		return nil, p
	}
	if obj, ok := v.(map[string]any); ok {
		if c := it.m.EventContent(v); c != nil {
			d, p := generateValue(&meter, c, x.Fake(s), note)
			if p != nil {
				return nil, p
			}
			obj["data"] = string(jsonx.Append(nil, d))
		}
	}
	return schema.WithoutWriteOnly(v), nil
}

// ExampleItems returns the items of the example of x's streamed answer:
// the named one, else the media type's; an example whose value is an
// array gives its items, in order, and one that is text (a stream as
// sent) the items read from it, done when that text ends with the end
// marker (see openapi.Media.Ends). A media type without an example
// gives none.
func (s *Answerer) ExampleItems(x *Turn, named string) (items []any, done bool, p *problem.Problem) {
	m := x.Media()
	ex, ok := m.Example, m.HasExample
	if named != "" {
		ex, ok = m.Examples[named]
	}
	if !ok {
		return nil, false, nil
	}
	switch v := ex.(type) {
	case []any:
		return v, false, nil
	case string:
		if list, done, err := m.ReadItems([]byte(v), m.Type); err == nil && (len(list) > 0 || done) {
			return list, done, nil
		}
	}
	return []any{ex}, false, nil
}

// AppendEnd appends the end marker of a stream of server-sent events,
// data: [DONE], which is no item: it is not checked against the item
// schema. A stream of another media type has none: buf is returned as
// it is.
func (it *Items) AppendEnd(buf []byte) []byte {
	if !it.m.EventStream() {
		return buf
	}
	return stream.AppendEnd(buf)
}
