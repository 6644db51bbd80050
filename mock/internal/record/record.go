package record

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/option"
)

// redactedText replaces the values of recorded body properties named in
// Options.Proxy.RecordRedact.
const redactedText = "REDACTED"

// SeedDataFile is the file a recording keeps the real service's
// resources in, in the form of --seed-data.
const SeedDataFile = "seed-data.json"

// maxRecording bounds the bytes of exchanges a recording keeps in memory
// from its start: request bodies, JSON answers (each at most
// maxJournalBody and a write), the headers kept, and recordOverhead for
// each. An exchange past it is not recorded: it is counted (see
// Status), and the first one is logged.
const maxRecording = 64 << 20

// recordOverhead is what an exchange is counted for besides its bodies and
// headers: its path parameters, status and the rule it becomes.
const recordOverhead = 256

// Recording keeps what a proxy forwards, to write it as the mock's own
// inputs: a scenario file per operation, whose rules answer as the real
// service did, and seed data of the resources it returned. A request
// only copies what it needs into memory (add); the files are built and
// written by snapshot: on POST /__admin/record/snapshot, when Serve ends,
// and on Close. So proxied requests never wait on the disk nor on each
// other's files, and each exchange is decoded once, not at every write.
// BenchmarkRecordP99 (32 clients; medians of 6 alternating runs on a
// shared 2-core machine) put a recorded exchange's p99 at 120 ms, within
// the noise of the 141 ms of proxying alone, where rewriting the files
// after every exchange gave 2.3 s, and 21.5 ms a request on average
// against 0.66 ms.
type Recording struct {
	dir    string
	redact map[string]bool // canonical header names and body property names
	log    *slog.Logger
	Bound  int64 // maxRecording; tests set less

	Mu      sync.Mutex // guards taken to full; held to append, never over I/O or decoding
	taken   []taken    // exchanges kept since the last snapshot began, in order
	kept    int        // exchanges kept since the start
	size    int64      // their bytes, as maxRecording counts them
	dropped int        // exchanges past the bound, not kept
	full    bool       // the bound was reached (and logged)

	snap  sync.Mutex // serializes snapshots; guards recordFiles, which no request touches
	files recordFiles
}

// taken is one exchange as a request leaves it to the recording: copies
// of what its rule and seed data are built from, nothing decoded yet.
type taken struct {
	name, op string            // the scenario's name (recordedName) and the operation's
	params   map[string]string // the path parameters
	body     []byte            // the request's body
	header   http.Header       // the request's headers, credentials and noise left out
	status   int
	respHead map[string]string
	respBody []byte // the answer's whole body when it is JSON or a stream of items, else nil
	// items is the media type of an answer that is a stream of items
	// (server-sent events, JSON Lines, ...), whose respBody is recorded
	// as the items of a scripted stream; nil for other answers.
	items   *openapi.Media
	itemsCT string // its Content-Type, as sent
	off     bool   // the answer broke the document
	col     string // the collection whose resources the answer holds, or ""
	idProp  string // the collection's identifier property
}

// Headers never written: credentials, cookies, and what each exchange
// has anew.
var unrecorded = map[string]bool{
	"Authorization": true, "Proxy-Authorization": true, "Cookie": true, "Set-Cookie": true,
	"Content-Length": true, "Content-Type": true, "Date": true, "Connection": true, "Keep-Alive": true,
	"Transfer-Encoding": true, "Te": true, "Trailer": true, "Upgrade": true, "User-Agent": true,
	"Accept-Encoding": true, "X-Forwarded-For": true, "X-Forwarded-Host": true, "X-Forwarded-Proto": true,
	journal.ViolationsHeader: true,
}

// New returns a recording kept in memory and written to dir by
// snapshots, with the values of the body properties named in redact
// replaced; log says what it could not write.
func New(dir string, redact []string, log *slog.Logger) (*Recording, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, &option.ProxyError{Err: fmt.Errorf("record: %v", err)}
	}
	r := &Recording{dir: dir, redact: map[string]bool{}, log: log, Bound: maxRecording, files: newRecordFiles()}
	for _, n := range redact {
		r.redact[n] = true
		r.redact[http.CanonicalHeaderKey(n)] = true
	}
	return r, nil
}

// keeps reports whether a header is written.
func (r *Recording) keeps(name, token string, values []string) bool {
	name = http.CanonicalHeaderKey(name)
	if unrecorded[name] || r.redact[name] || strings.HasPrefix(name, "X-Mock-") {
		return false
	}
	for _, v := range values {
		if token != "" && strings.Contains(v, token) {
			return false // an API key in a header of its own
		}
	}
	return true
}

// add keeps a proxied exchange the real service answered, for the next
// snapshot. It runs on the request path: it copies the bodies and the
// headers kept, and appends them under r.mu; it decodes nothing and
// writes nothing. Past the bound it keeps nothing, counts the exchange,
// and logs the first one.
func (r *Recording) add(a *event.Answered) {
	pl := a.Plan
	t := taken{name: RecordedName(pl.Op.Method, pl.Op.Path), op: pl.Op.Name, status: a.Status,
		header: http.Header{}, respHead: map[string]string{}}
	size := int64(recordOverhead + len(a.Raw))
	if names := pl.Route.Params; len(names) > 0 && len(names) == len(a.Vals) {
		t.params = make(map[string]string, len(names))
		for i, n := range names {
			t.params[n] = a.Vals[i]
		}
	}
	for _, v := range a.E.Violations {
		t.off = t.off || v.Direction == "response"
	}
	for name, vs := range a.Header {
		if r.keeps(name, a.Token, vs) {
			t.header[name] = slices.Clone(vs)
			size += recordedSize(name, vs)
		}
	}
	for name, vs := range a.Answer {
		if r.keeps(name, a.Token, vs) {
			t.respHead[name] = strings.Join(vs, ", ")
			size += recordedSize(name, vs)
		}
	}
	// An answer cut short (over maxJournalBody) is recorded as one that
	// is not JSON: its status and headers.
	ct := a.Answer.Get("Content-Type")
	if m := pl.Op.Stream(a.Status, ct); m != nil {
		// A stream is recorded whole or not at all, as a JSON body is.
		if len(a.Response) == a.Written {
			t.respBody, t.items, t.itemsCT = slices.Clone(a.Response), m, ct
			size += int64(len(t.respBody))
		}
	} else if media.KindOf(ct) == media.JSON && len(a.Response) == a.Written {
		t.respBody = slices.Clone(a.Response)
		size += int64(len(t.respBody))
		if c := pl.Col; c != nil && c.IdProp != "" && t.status >= 200 && t.status <= 299 {
			t.col, t.idProp = c.Key(a.Vals), c.IdProp
		}
	}
	t.body = slices.Clone(a.Raw)

	r.Mu.Lock()
	if r.size+size > r.Bound {
		r.dropped++
		first := !r.full
		r.full = true
		r.Mu.Unlock()
		if first {
			r.log.Warn("the recording is full: exchanges from now on are not recorded; GET /__admin/record counts them",
				"bound_bytes", r.Bound, "operation", pl.Op.Name)
		}
		return
	}
	r.size += size
	r.kept++
	r.taken = append(r.taken, t)
	r.Mu.Unlock()
}

// recordedSize is what a header is counted for in maxRecording.
func recordedSize(name string, values []string) int64 {
	n := len(name)
	for _, v := range values {
		n += len(v) + 2
	}
	return int64(n)
}

// Status reports what the recording holds.
func (r *Recording) Status() RecordStatus {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return RecordStatus{Folder: r.dir, Exchanges: r.kept, Pending: len(r.taken), Dropped: r.dropped, Bytes: r.size, Bound: r.Bound}
}

// RecordStatus is what a recording holds.
type RecordStatus struct {
	Folder    string // the --record folder
	Exchanges int    // kept since the start
	Pending   int    // kept since the last snapshot began, not written yet
	Dropped   int    // past the bound, not recorded
	Bytes     int64  // of the exchanges kept, as the bound counts them
	Bound     int64
}

// Told adds an exchange the real service answered to the recording, in
// memory: snapshots write the files. It is the recording's listener.
func (r *Recording) Told(a *event.Answered) {
	if !a.Proxied || a.Problem != nil || a.Plan == nil || a.Hijacked {
		return
	}
	r.add(a)
}
