package pipeline

import (
	"sync/atomic"
	"time"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// Engine answers the mock's requests: the checks, the answers, and what
// is told of each exchange.
type Engine struct {
	answer.Answerer // how a valid request is answered as its operation behaves

	// Worked out at start; read-only after New. What derives from the
	// documents and scenarios is in Docs, swapped whole by Reload.
	Docs    atomic.Pointer[Mounts]
	Tokens  map[string]struct{}
	MaxBody int64
	Cors    bool
	LogAll  bool
	// Previous, when set, is the previous version of the one document
	// served (Options.PreviousSpec), made by Judging: a request the
	// served document refuses for breaking its contract is judged
	// against it too (see drift). Reload keeps it.
	Previous *Served
	// PreferDefault is what every request to the API prefers, but for
	// what its own Prefer header says (Options.Prefer).
	PreferDefault answer.PreferDefault
	// remoteJournal is set when the journal is kept out of the process
	// (state.Backend.Shared: in Redis), so that writing an entry is a
	// round trip the client must not wait on (see exchange.remote).
	RemoteJournal bool
	late          *lateJournal // set by StartLate where RemoteJournal is
	ClearCreds    bool         // Options.Journal.Credentials is CredentialsClear

	upstream *upstream // Options.Proxy.URL; nil when the mock answers alone
	Timeouts Timeouts  // a connection's, in Serve
	// Upstreamed, if set before NewUpstream, is told of each answer the
	// upstream gave: the operation's name ("" for none) and the time from
	// sending the request to the answer's header.
	Upstreamed func(op string, took time.Duration)

	// State.
	Sessions   session.Sessions  // the default and named sessions
	Contract   journal.Contract  // what the exchanges did to the contract
	Deliveries *deliver.Sender   // webhooks and callbacks under way
	Listeners  deliver.Listeners // what Serve and ServeAdmin serve on
	Emitter    event.Emitter     // what is told of each exchange and attempt (see Listen)
	// Live is told of each item of a streamed answer as it is sent;
	// nil tells no one.
	Live ItemListener
}

// ItemListener is told of the items of streamed answers as they go:
// the dashboard's live journal.
type ItemListener interface {
	// Listening reports whether anyone is listening now: an item is
	// made into a journal.Item only then.
	Listening() bool
	PublishItem(journal.Item)
}

// Timeouts bound how long a client may hold a connection in each phase
// of an exchange: sending the header, sending the whole request, taking
// the answer (see WriteTimeout), and between requests. A client past one
// loses the connection, at most about a tenth of the shortest timeout
// late (see mock's watch).
type Timeouts struct{ Header, Read, Write, Idle time.Duration }

// WriteTimeout returns net/http's WriteTimeout, which counts from the end
// of a request's header: room for the body to come (up to the read
// timeout, so that a body that stalls is still answered), then for the
// answer to be taken. A scripted delay starts the write timeout again
// when it ends (see give), whatever scenarios were loaded when Serve
// began.
func (t Timeouts) WriteTimeout() time.Duration { return t.Read + t.Write }

// OrDefaults returns t with DefaultTimeouts for its zero fields.
func (t Timeouts) OrDefaults() Timeouts {
	d := DefaultTimeouts
	if t.Header <= 0 {
		t.Header = d.Header
	}
	if t.Read <= 0 {
		t.Read = d.Read
	}
	if t.Write <= 0 {
		t.Write = d.Write
	}
	if t.Idle <= 0 {
		t.Idle = d.Idle
	}
	return t
}

// DefaultTimeouts are every Server's; tests set shorter ones.
var DefaultTimeouts = Timeouts{Header: 10 * time.Second, Read: 60 * time.Second, Write: 60 * time.Second, Idle: 120 * time.Second}
