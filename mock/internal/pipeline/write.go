package pipeline

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/answer"
)

// writeBody sends the success status with the operation's required
// headers and body; a nil body sends none.
func (s *Engine) writeBody(x *exchange, body []byte) {
	pl := x.Plan
	h := x.W.Header()
	s.setHeaders(x)
	if pl.Location {
		// A create names the new item (set by create); a redirect points
		// elsewhere (a client following it must not come back here);
		// other answers name what they are about: the request's own path.
		loc := h.Get("Location")
		if loc == "" {
			loc = x.Sv.Mount + x.R.URL.EscapedPath()
			if pl.Success >= 300 && pl.Success < 400 {
				loc = "https://example.com" + loc
			}
		}
		if pl.LocationURI && strings.HasPrefix(loc, "/") {
			scheme := "http"
			if x.R.TLS != nil {
				scheme = "https"
			}
			loc = scheme + "://" + x.R.Host + loc
		}
		h.Set("Location", loc)
	}
	s.writeStatus(x, pl.Success, body)
}

// writeStatus sends a status and body in the answer's media type; a nil
// body sends none.
func (s *Engine) writeStatus(x *exchange, status int, body []byte) {
	if status < 200 {
		x.W.WriteHeader(status) // an interim answer
		status, body = answer.SentAs(status, body)
	}
	h := x.W.Header()
	if body != nil && x.Offer != nil {
		setContentType(x)
		setLength(h, len(body), x.flushes(status))
	}
	x.W.WriteHeader(status)
	if body != nil {
		x.W.Write(body)
	}
}

// setHeaders sets the success answer's required headers.
func (s *Engine) setHeaders(x *exchange) {
	for i := range x.Plan.Headers {
		x.W.Header().Set(x.Plan.Headers[i].Name, x.Plan.Headers[i].Value(&s.Answerer, &x.Turn))
	}
}

// setContentType sets the Content-Type of the media type the answer is
// written in: the offer's header value, made at start, where the answer
// sends the type the offer names.
func setContentType(x *exchange) {
	if x.CT == x.Offer.CT {
		x.W.Header()["Content-Type"] = x.Offer.CTH
	} else {
		x.W.Header().Set("Content-Type", x.CT)
	}
}

// writeJSON sends a status with a JSON body of the given content type;
// flushed says whether the answer is flushed before the handler returns
// (see setLength).
func writeJSON(w http.ResponseWriter, status int, contentType string, body []byte, flushed bool) {
	h := w.Header()
	h["Content-Type"] = []string{contentType}
	setLength(h, len(body), flushed)
	w.WriteHeader(status)
	w.Write(body)
}

// HeldBody is the most of a body net/http holds until the handler returns
// (its bufferBeforeChunkingSize): it then sends such a body with its
// Content-Length, worked out itself.
const HeldBody = 2048

// setLength puts the Content-Length of a body of n bytes in h where
// net/http would not send it itself: a body longer than it holds, or an
// answer flushed before the handler returns (one that webhooks follow,
// see afterAnswer), which would go chunked. Every other answer leaves it
// to net/http, which then has one header less to copy, sort and write.
func setLength(h http.Header, n int, flushed bool) {
	if n > HeldBody || flushed {
		h["Content-Length"] = []string{strconv.Itoa(n)}
	}
}
