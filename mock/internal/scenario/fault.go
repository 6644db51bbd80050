package scenario

import (
	"fmt"
	"net"
	"strings"

	"github.com/brianvoe/gofakeit/v6"
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
// does it, on the answer it breaks.
type faultKind struct {
	Name  Fault
	Sees  string
	Apply func(b breakable, status int)
}

// breakable is an answer a fault breaks, as the request path gives it.
type breakable interface {
	// TakeOver takes the connection over, the exchange recorded first.
	TakeOver() net.Conn
	// WriteJSON answers with status and a body said to be JSON.
	WriteJSON(status int, body []byte)
	// Faker gives the answer's generated values.
	Faker() *gofakeit.Faker
}

// Faults is every fault a rule can script. Adding a fault is adding an
// entry (and its constant above).
var Faults = []*faultKind{
	{FaultConnectionReset, "TCP reset, no answer", func(b breakable, _ int) {
		conn := b.TakeOver()
		if tc, ok := conn.(interface{ SetLinger(int) error }); ok { // TCP, watched by Serve or not
			tc.SetLinger(0) // close sends RST
		}
		conn.Close()
	}},
	{FaultEmptyResponse, "EOF before a status line", func(b breakable, _ int) {
		b.TakeOver().Close()
	}},
	{FaultMalformedBody, "status and JSON Content-Type, body not JSON", func(b breakable, status int) {
		b.WriteJSON(status, []byte(`{"name":"Monstera","tag":`))
	}},
	{FaultRandomDataThenClose, "64 bytes that are not HTTP, then close", func(b breakable, _ int) {
		junk := make([]byte, 64)
		f := b.Faker()
		for i := range junk {
			junk[i] = byte(f.Uint8())
		}
		junk[0] = 0xff // never the start of a status line
		conn := b.TakeOver()
		conn.Write(junk)
		conn.Close()
	}},
}

// lookupFault finds a fault of the table by name.
func lookupFault(name Fault) (*faultKind, error) {
	for _, f := range Faults {
		if f.Name == name {
			return f, nil
		}
	}
	names := make([]string, len(Faults))
	for i, f := range Faults {
		names[i] = string(f.Name)
	}
	return nil, fmt.Errorf("unknown fault %q; use %s", name, strings.Join(names, ", "))
}
