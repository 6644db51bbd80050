package pipeline

import (
	"net"
	"net/http"

	"github.com/brianvoe/gofakeit/v6"
)

// broken is the answer of an exchange a fault breaks (see scenario's breakable, which the faults are done through).
type broken struct {
	s *Engine
	x *exchange
}

func (b broken) TakeOver() net.Conn { return b.s.takeOver(b.x) }

func (b broken) WriteJSON(status int, body []byte) {
	writeJSON(&b.x.W, status, "application/json", body, b.x.flushes(status))
}

func (b broken) Faker() *gofakeit.Faker { return b.x.Fake(&b.s.Answerer) }

// takeOver hijacks the connection of an exchange, recording the exchange
// first so that the journal has it before the client sees the fault. On
// HTTP/2, where there is no connection to take, the stream is reset.
func (s *Engine) takeOver(x *exchange) net.Conn {
	conn, _, err := x.W.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	s.record(x)
	return conn
}
