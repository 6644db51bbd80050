package openapi

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"

	"github.com/plantmock/plantmock/mock/internal/stream"
)

// MaxItem bounds one item of a stream that is checked item by item: a
// longer item is a violation, and the stream is not read further.
const MaxItem = 1 << 20

// ItemCheck checks a sequential body item by item, as it is read: it
// holds one item at a time, so that a stream that never ends can be
// checked for as long as its reader cares to.
type ItemCheck struct {
	m       *Media
	r       *stream.Reader
	src     *sourceErr
	request bool
	bad     *Violation // why the reader could not be made
	n       int        // the items read
	done    bool
}

// Items returns a check of body, a stream of m whose Content-Type
// (with its parameters: a multipart boundary) is contentType. request
// says whether a client sent it.
func (m *Media) Items(body io.Reader, contentType string, request bool) *ItemCheck {
	c := &ItemCheck{m: m, src: &sourceErr{r: body}, request: request}
	r, err := stream.NewReader(c.src, contentType, MaxItem)
	if err != nil {
		c.bad = &Violation{Path: "header.Content-Type", Reason: err.Error()}
		return c
	}
	c.r = r
	return c
}

// Next reads and checks the next item. It returns the item's place
// (from 1) and its violations, nil for an item that keeps the item
// schema; or the stream's violations, at the place of the item that
// would have come next: an item over MaxItem, a stream that ends inside
// an event, a malformed multipart body. After a violation of the stream,
// and at its end (the end of the body, or the end marker of server-sent
// events: see Media.Ends), Next returns io.EOF. An error reading body (a
// connection lost, a read its caller cut short) is returned as it is.
func (c *ItemCheck) Next() (int, []Violation, error) {
	switch {
	case c.done:
		return 0, nil, io.EOF
	case c.bad != nil:
		c.done = true
		return 0, []Violation{*c.bad}, nil
	}
	it, err := c.r.Next()
	if err == nil && c.m.Ends(it) {
		c.done = true
		return 0, nil, io.EOF // the end marker: the stream's end
	}
	if err == nil {
		c.n = it.N
		return it.N, c.m.CheckItem(it, c.request), nil
	}
	if c.src.err != nil && c.src.err != io.EOF {
		return 0, nil, c.src.err
	}
	c.done = true
	if err == io.EOF {
		return 0, nil, io.EOF
	}
	v := Violation{Path: "item[" + strconv.Itoa(c.n+1) + "]"}
	switch {
	case errors.Is(err, stream.ErrTooLong):
		v.Reason = fmt.Sprintf("the item is over %d bytes", MaxItem)
	case err == io.ErrUnexpectedEOF && c.m.Seq == stream.Events:
		v.Reason = "the stream ends inside an event"
	case err == io.ErrUnexpectedEOF:
		v.Reason = "the stream ends inside an item"
	default:
		v.Reason = "the stream is malformed: " + err.Error()
	}
	return c.n + 1, []Violation{v}, nil
}

// CheckItems checks body, a stream of m, item by item to its end, and
// returns the violations of the first item that breaks the item schema
// (or of the stream: see ItemCheck.Next); none when every item keeps
// it. The error is one of reading body.
func (m *Media) CheckItems(body io.Reader, contentType string, request bool) ([]Violation, error) {
	c := m.Items(body, contentType, request)
	for {
		_, vs, err := c.Next()
		if err == io.EOF {
			return nil, nil
		}
		if err != nil || len(vs) > 0 {
			return vs, err
		}
	}
}

// Stream returns the media type an answer of o with status and
// Content-Type ct is read item by item in, when it is declared and
// sequential (its items checked against the item schema, where it has
// one); nil otherwise (for a HEAD, too).
func (o *Operation) Stream(status int, ct string) *Media {
	r := o.Response(status)
	if r == nil || o.Method == http.MethodHead || !slices.ContainsFunc(r.Content, (*Media).Itemized) {
		return nil // most answers: no media type parsed
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil
	}
	m := r.media(mt)
	if m == nil || !m.Itemized() {
		return nil // a range matched: no range is sequential
	}
	return m
}

// Itemized reports whether a body of m is a stream read item by item:
// m is sequential. Each item is checked against the item schema where m
// has one, and against the framing of its media type always (a JSON
// Lines line must be JSON): a stream of a type the document says
// nothing more of is still passed on, and bounded, an item at a time.
func (m *Media) Itemized() bool { return m.Seq != stream.NotSequential }

// sourceErr remembers the error its reader returned, so that an error
// of the body (a lost connection) is told from one of its framing.
type sourceErr struct {
	r   io.Reader
	err error
}

func (s *sourceErr) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil {
		s.err = err
	}
	return n, err
}
