package scenario

import (
	"fmt"
	"time"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Stream scripts a streamed answer, for a status whose media type is
// sequential: server-sent events, JSON Lines or a JSON text sequence.
type Stream struct {
	// Items are the first items, in order: values of the media type's
	// item schema (a server-sent event's fields: event, data, id, retry),
	// templates as Respond.Body is, with .item the item's number.
	Items []any `yaml:"items,omitempty" json:"items,omitempty"`
	// Count is how many items the stream has. 0: as many as Items
	// lists, else as many as the answer's example has, else 3. Items
	// past those listed are generated from the item schema.
	Count int `yaml:"count,omitempty" json:"count,omitempty"`
	// Interval is waited before each item but the first, at most 5
	// minutes. In YAML and JSON it is written as a duration: 200ms.
	Interval time.Duration `yaml:"interval,omitempty" json:"-"`
	// IDs numbers server-sent events 1, 2, ...: a client that reconnects
	// with Last-Event-ID: N gets the items after the Nth, and 204 No
	// Content, which stops it, when N is the last.
	IDs bool `yaml:"ids,omitempty" json:"ids,omitempty"`
	// Error is an item sent after the others, an error event say, that
	// ends the stream.
	Error any `yaml:"error,omitempty" json:"error,omitempty"`
	// Drop breaks the connection after this many items of one answer,
	// without ending the stream: the client sees a dropped connection.
	Drop int `yaml:"drop,omitempty" json:"drop,omitempty"`
	// Done ends a stream of server-sent events with the end marker,
	// data: [DONE], after the items and the error item: it is no item,
	// and no item schema need describe it.
	Done bool `yaml:"done,omitempty" json:"done,omitempty"`
}

// MaxStreamItems is the most items a stream may have.
const MaxStreamItems = 1_000_000

// MarshalJSON writes Interval as a duration ("200ms"), as in YAML.
func (s Stream) MarshalJSON() ([]byte, error) {
	type plain Stream
	return withDuration(plain(s), "interval", s.Interval)
}

// StreamScript is a rule's stream, compiled.
type StreamScript struct {
	Items    []any // JSON values and *valueTemplate
	Count    int
	Interval time.Duration
	IDs      bool
	Error    any // JSON values and *valueTemplate; nil when HasError is false
	HasError bool
	Drop     int
	Done     bool
}

// RenderItem renders item n (from 1) of a rule's items, or its error
// item (item 0): templates see .item as the item's number, and what
// Respond.Body's see.
func (st *StreamScript) RenderItem(tree any, n int, data map[string]any, faker func() *gofakeit.Faker) (any, error) {
	data["item"] = n
	return RenderBody(tree, data, faker)
}

// stream compiles the rule's stream, checked against the media types
// of each operation's answer: one must be sequential.
func (b *ruleBuild) stream() {
	def := b.def.Respond.Stream
	if def == nil {
		return
	}
	switch {
	case b.def.Respond.Body != nil:
		b.fail("respond.stream and respond.body cannot both be given: the stream is the body")
	case b.def.Respond.Fault != "":
		b.fail("respond.stream and respond.fault cannot both be given; respond.stream.drop breaks a stream")
	}
	st := &StreamScript{Count: def.Count, Interval: def.Interval, IDs: def.IDs, Drop: def.Drop, Done: def.Done}
	if def.Count < 0 || def.Count > MaxStreamItems {
		b.fail("respond.stream.count %d is not between 0 and %d", def.Count, MaxStreamItems)
	}
	if def.Interval < 0 || def.Interval > maxDelay {
		b.fail("respond.stream.interval %s is not between 0 and %s", def.Interval, maxDelay)
	}
	if def.Drop < 0 {
		b.fail("respond.stream.drop may not be negative")
	}
	for i, it := range def.Items {
		st.Items = append(st.Items, b.streamItem(it, fmt.Sprintf("respond.stream.items[%d]", i)))
	}
	if def.Error != nil {
		st.Error, st.HasError = b.streamItem(def.Error, "respond.stream.error"), true
	}
	for _, op := range b.ops {
		m := StreamMedia(op, b.r.StatusFor(b.sv.Success(op)))
		switch {
		case m == nil && b.def.When.Operation != "":
			b.fail("respond.stream: %s declares no streamed answer (text/event-stream, JSON Lines or application/json-seq) for status %d",
				op.Name, b.r.StatusFor(b.sv.Success(op)))
		case m != nil && def.Done && !m.EventStream() && b.def.When.Operation != "":
			b.fail("respond.stream.done: %s streams %s for status %d; only server-sent events end with data: [DONE]",
				op.Name, m.Type, b.r.StatusFor(b.sv.Success(op)))
		}
	}
	b.r.Stream = st
}

// streamItem compiles one item of a stream: a value with templates.
func (b *ruleBuild) streamItem(v any, at string) any {
	n, err := jsonx.Normalize(v)
	if err != nil {
		b.fail("%s: %v", at, err)
		return nil
	}
	tree, _, err := compileBody(n, at)
	if err != nil {
		b.errs = append(b.errs, err)
		return nil
	}
	return tree
}

// StreamMedia returns the first media type of op's answer with status
// that a stream can be sent in: server-sent events, JSON Lines or a
// JSON text sequence. Nil when there is none.
func StreamMedia(op *openapi.Operation, status int) *openapi.Media {
	r := op.Response(status)
	if r == nil {
		return nil
	}
	for _, m := range r.Content {
		if m.Streams() {
			return m
		}
	}
	return nil
}
