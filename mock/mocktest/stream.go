package mocktest

import (
	"encoding/json"
	"net/http"

	"github.com/plantmock/plantmock/mock/internal/stream"
)

// Item is one item of a streamed answer.
type Item struct {
	// N is the item's place in the stream, from 1.
	N int
	// Text is a JSON Lines line or a JSON text sequence's record, or a
	// server-sent event's data.
	Text []byte
	// Event, ID and Retry are a server-sent event's fields: its type
	// ("" for a message), its id (HasID says whether it had one) and
	// its reconnection time in milliseconds (HasRetry).
	Event    string
	ID       string
	HasID    bool
	Retry    int64
	HasRetry bool
}

// Decode decodes the item's text, JSON, into v.
func (it Item) Decode(v any) error { return json.Unmarshal(it.Text, v) }

// Stream reads the items of a streamed answer (server-sent events, JSON
// Lines, a JSON text sequence) one at a time, as the mock flushes them.
type Stream struct {
	resp *http.Response
	r    *stream.Reader
}

// maxItem is the most bytes an item may have.
const maxItem = 16 << 20

// ReadStream reads the items of resp, whose Content-Type says how they
// are framed. The caller closes the stream (or the response's body).
func ReadStream(resp *http.Response) (*Stream, error) {
	r, err := stream.NewReader(resp.Body, resp.Header.Get("Content-Type"), maxItem)
	if err != nil {
		return nil, err
	}
	return &Stream{resp: resp, r: r}, nil
}

// Next returns the next item as soon as it arrives; the end marker of
// server-sent events, data: [DONE], is returned as it was sent, an item
// whose Text is [DONE]. At the end of the stream it returns io.EOF; where the connection dropped before the end
// (a scripted drop, say), an error wrapping io.ErrUnexpectedEOF.
func (s *Stream) Next() (Item, error) {
	it, err := s.r.Next()
	if err != nil {
		return Item{}, err
	}
	e := it.Event
	return Item{N: it.N, Text: append([]byte(nil), it.Text...), Event: e.Event, ID: e.ID, HasID: e.HasID, Retry: e.Retry, HasRetry: e.HasRetry}, nil
}

// Close closes the response's body: the mock's answer ends there.
func (s *Stream) Close() error { return s.resp.Body.Close() }
