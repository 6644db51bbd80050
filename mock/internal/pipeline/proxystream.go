package pipeline

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// checkedStream is the body of an upstream's answer that is a stream
// (openapi.Operation.Stream): the reverse proxy reads it and passes each
// chunk to the client as it arrives, and each chunk goes on to a
// checker, which judges the stream's items as they complete, holding
// one at a time. The checker runs in a goroutine of its own, from the
// first Read to Close, which the reverse proxy calls before forward
// returns; Close waits for it and records the first broken item's
// violations in the exchange.
//
// The proxy timeout bounds each wait for the upstream's next bytes: the
// timer of the exchange is reset before each read of the upstream and
// stopped after it.
type checkedStream struct {
	body    io.ReadCloser
	x       *exchange
	timer   *time.Timer
	timeout time.Duration
	m       *openapi.Media
	ct      string
	pr      *io.PipeReader
	pw      *io.PipeWriter
	done    chan struct{}
	started bool
	ended   bool // the upstream's body ended (io.EOF)
	checked bool // the checker takes no more: it found a broken item, or stopped
	found   []openapi.Violation
}

// errStreamCut is what the checker reads when the stream is cut short
// (the client went, the upstream broke off): no item is judged then.
var errStreamCut = errors.New("the stream was cut short")

func newCheckedStream(fw *forwarding, timeout time.Duration, m *openapi.Media, resp *http.Response) *checkedStream {
	fw.timer.Stop() // the header came: from now on, each read has the timeout
	return &checkedStream{body: resp.Body, x: fw.x, timer: fw.timer, timeout: timeout, m: m, ct: resp.Header.Get("Content-Type")}
}

func (c *checkedStream) start() {
	c.started = true
	c.pr, c.pw = io.Pipe()
	c.done = make(chan struct{})
	go func() {
		defer close(c.done)
		items := c.m.Items(c.pr, c.ct, false)
		for {
			_, vs, err := items.Next()
			if err != nil {
				break // the end, or the stream cut short
			}
			if len(vs) > 0 {
				c.found = vs
				break
			}
		}
		c.pr.CloseWithError(errStreamCut) // the tee's writes end
	}()
}

// Read reads from the upstream and hands what came to the checker,
// which takes it before Read returns.
func (c *checkedStream) Read(p []byte) (int, error) {
	if !c.started {
		c.start()
	}
	c.timer.Reset(c.timeout)
	n, err := c.body.Read(p)
	c.timer.Stop()
	if n > 0 && !c.checked {
		if _, werr := c.pw.Write(p[:n]); werr != nil {
			c.checked = true
		}
	}
	if err == io.EOF && !c.ended {
		c.ended = true
		c.pw.Close()
	}
	return n, err
}

// Close closes the upstream's body, ends the checker and records what
// it found.
func (c *checkedStream) Close() error {
	err := c.body.Close()
	if !c.started {
		return err
	}
	if !c.ended {
		c.pw.CloseWithError(errStreamCut)
	}
	<-c.done
	if len(c.found) > 0 {
		c.x.violations = append(c.x.violations, journal.Violations(c.found, "response")...)
		c.found = nil
	}
	return err
}
