package stream

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"strconv"
)

// Item is one item read from a
type Item struct {
	// N is the item's place in the stream, from 1.
	N int
	// Text is the item's bytes: the JSON text of a line or a record, the
	// data of an event, the body of a part. It is valid until the next
	// call to Next.
	Text []byte
	// Event is the event read, for a stream of events.
	Event Event
	// Type is the part's Content-Type, for multipart/mixed.
	Type string
}

// ErrTooLong is the error of an item over the Reader's limit.
var ErrTooLong = errors.New("an item is over the limit")

// ErrNotSequential is the error of a media type whose body is one value.
var ErrNotSequential = errors.New("not a sequential media type")

// Reader reads the items of a stream one at a time.
type Reader struct {
	seq   Sequence
	sc    *bufio.Scanner
	parts *multipart.Reader
	max   int
	n     int
	data  []byte // the event being read: its data so far
}

// NewReader reads the items of body, of media type contentType (with
// its parameters: a multipart/mixed boundary), each at most max bytes.
func NewReader(body io.Reader, contentType string, max int) (*Reader, error) {
	r := &Reader{seq: SequenceOf(contentType), max: max}
	switch r.seq {
	case NotSequential:
		return nil, fmt.Errorf("%w: %s", ErrNotSequential, contentType)
	case Parts:
		_, params, err := mime.ParseMediaType(contentType)
		if err != nil || params["boundary"] == "" {
			return nil, fmt.Errorf("multipart/mixed without a boundary: %q", contentType)
		}
		r.parts = multipart.NewReader(body, params["boundary"])
		return r, nil
	}
	r.sc = bufio.NewScanner(body)
	r.sc.Buffer(make([]byte, 0, min(4096, max+1)), max+1)
	switch r.seq {
	case Records:
		r.sc.Split(splitRecords)
	default:
		r.sc.Split(splitLines)
	}
	return r, nil
}

// Next returns the next item. At the end of the stream it returns io.EOF;
// a stream cut inside an event returns io.ErrUnexpectedEOF (the event is
// not dispatched, as a browser would not); an item over the limit,
// ErrTooLong.
func (r *Reader) Next() (Item, error) {
	switch r.seq {
	case Parts:
		return r.nextPart()
	case Events:
		return r.nextEvent()
	}
	for r.sc.Scan() {
		t := bytes.TrimSpace(r.sc.Bytes())
		if len(t) == 0 {
			continue // a blank line, or the text before a sequence's first RS
		}
		r.n++
		return Item{N: r.n, Text: t}, nil
	}
	return Item{}, r.end(false)
}

func (r *Reader) end(cut bool) error {
	switch err := r.sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("%w: item %d is over %d bytes", ErrTooLong, r.n+1, r.max)
	case err != nil:
		return err
	case cut:
		return io.ErrUnexpectedEOF
	}
	return io.EOF
}

// nextEvent reads lines until an event is dispatched, by the event
// stream format's rules: a blank line dispatches the event read so far,
// unless it has no data; lines starting with a colon are comments;
// fields other than event, data, id and retry are ignored.
func (r *Reader) nextEvent() (Item, error) {
	var e Event
	r.data = r.data[:0]
	hasData, seen := false, false
	for r.sc.Scan() {
		line := r.sc.Bytes()
		if r.n == 0 && !seen {
			line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
		}
		seen = true
		if len(line) == 0 {
			if !hasData {
				e = Event{}
				continue
			}
			r.n++
			e.Data = string(r.data[:len(r.data)-1])
			return Item{N: r.n, Text: r.data[:len(r.data)-1], Event: e}, nil
		}
		if line[0] == ':' {
			continue
		}
		name, value, found := bytes.Cut(line, []byte{':'})
		if found && len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(name) {
		case "event":
			e.Event = string(value)
		case "data":
			if len(r.data)+len(value)+1 > r.max {
				return Item{}, fmt.Errorf("%w: event %d is over %d bytes", ErrTooLong, r.n+1, r.max)
			}
			r.data = append(append(r.data, value...), '\n')
			hasData = true
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				e.ID, e.HasID = string(value), true
			}
		case "retry":
			if n, err := strconv.ParseInt(string(value), 10, 64); err == nil && n >= 0 && isDigits(value) {
				e.Retry, e.HasRetry = n, true
			}
		}
	}
	return Item{}, r.end(hasData)
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

func (r *Reader) nextPart() (Item, error) {
	p, err := r.parts.NextPart()
	if err != nil {
		return Item{}, err
	}
	body, err := io.ReadAll(io.LimitReader(p, int64(r.max)+1))
	if err != nil {
		return Item{}, err
	}
	if len(body) > r.max {
		return Item{}, fmt.Errorf("%w: part %d is over %d bytes", ErrTooLong, r.n+1, r.max)
	}
	r.n++
	ct := p.Header.Get("Content-Type")
	if ct == "" {
		ct = "text/plain" // RFC 2046, section 5.1
	}
	return Item{N: r.n, Text: body, Type: ct}, nil
}

// splitLines splits at a line feed, a carriage return, or both: the
// three line ends of the event stream format (JSON Lines uses the first
// and the last). A carriage return at the end of what has arrived waits
// for the next byte, which may be its line feed.
func splitLines(data []byte, atEOF bool) (int, []byte, error) {
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0:
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	case data[i] == '\n':
		return i + 1, data[:i], nil
	case i+1 < len(data):
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	case atEOF:
		return i + 1, data[:i], nil
	}
	return 0, nil, nil
}

// splitRecords splits a JSON text sequence at its record separators: a
// record is complete when the next one starts, or at the end.
func splitRecords(data []byte, atEOF bool) (int, []byte, error) {
	start := 0
	for start < len(data) && data[start] == RS {
		start++
	}
	if i := bytes.IndexByte(data[start:], RS); i >= 0 {
		return start + i, data[start : start+i], nil
	}
	if atEOF {
		if start < len(data) {
			return len(data), data[start:], nil
		}
		return len(data), nil, nil
	}
	return start, nil, nil
}
