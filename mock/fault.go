package mock

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// Fault is a way of not answering properly, scripted by a rule's
// respond.fault. The table faults lists them.
type Fault string

// The faults a rule can script.
const (
	// FaultConnectionReset closes the connection with a TCP reset, without
	// an answer: the client's read fails with "connection reset by peer".
	FaultConnectionReset Fault = "connection_reset"
	// FaultEmptyResponse closes the connection without an answer: the
	// client reads EOF before a status line.
	FaultEmptyResponse Fault = "empty_response"
	// FaultMalformedBody answers with the status and a JSON Content-Type,
	// but a body that is not JSON.
	FaultMalformedBody Fault = "malformed_body"
	// FaultRandomDataThenClose writes bytes that are not HTTP and closes.
	FaultRandomDataThenClose Fault = "random_data_then_close"
)

// faultKind is one entry of the table of faults: its name, what the
// client sees (as the scenario table of docs/scenarios.md says it), and how the mock
// does it.
type faultKind struct {
	name  Fault
	sees  string
	apply func(s *Server, x *exchange, status int)
}

// faults is every fault a rule can script. Adding a fault is adding an
// entry (and its constant above).
var faults = []*faultKind{
	{FaultConnectionReset, "TCP reset, no answer", func(s *Server, x *exchange, _ int) {
		conn := s.takeOver(x)
		if tc, ok := conn.(interface{ SetLinger(int) error }); ok { // TCP, watched by Serve or not
			tc.SetLinger(0) // close sends RST
		}
		conn.Close()
	}},
	{FaultEmptyResponse, "EOF before a status line", func(s *Server, x *exchange, _ int) {
		s.takeOver(x).Close()
	}},
	{FaultMalformedBody, "status and JSON Content-Type, body not JSON", func(s *Server, x *exchange, status int) {
		writeJSON(&x.w, status, "application/json", []byte(`{"name":"Monstera","tag":`), x.flushes(status))
	}},
	{FaultRandomDataThenClose, "64 bytes that are not HTTP, then close", func(s *Server, x *exchange, _ int) {
		junk := make([]byte, 64)
		f := x.fake(s)
		for i := range junk {
			junk[i] = byte(f.Uint8())
		}
		junk[0] = 0xff // never the start of a status line
		conn := s.takeOver(x)
		conn.Write(junk)
		conn.Close()
	}},
}

// lookupFault finds a fault of the table by name.
func lookupFault(name Fault) (*faultKind, error) {
	for _, f := range faults {
		if f.name == name {
			return f, nil
		}
	}
	names := make([]string, len(faults))
	for i, f := range faults {
		names[i] = string(f.name)
	}
	return nil, fmt.Errorf("unknown fault %q; use %s", name, strings.Join(names, ", "))
}

// takeOver hijacks the connection of an exchange, recording the exchange
// first so that the journal has it before the client sees the fault. On
// HTTP/2, where there is no connection to take, the stream is reset.
func (s *Server) takeOver(x *exchange) net.Conn {
	conn, _, err := x.w.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	s.record(x)
	return conn
}
