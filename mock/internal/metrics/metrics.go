// Package metrics counts what a mock does, for Prometheus: the requests
// it answered and refused and how long they took, the scenario rules
// that answered, the webhooks and callbacks it sent, the contract its
// clients and its upstream broke, the upstream's latency, and what its
// journal and store hold. GET /__admin/metrics serves them
// (docs/metrics.md lists them).
//
// Each mock has a registry of its own, not the process's default one, so
// that mocks in one process (tests, mocktest) count apart. The counting
// is a listener of the emitter (journal.Emitter), told of each exchange
// once its answer is written, and it looks nothing up by name on the
// request path: each operation's series are resolved on its first
// answer and kept in its plan (answer.Plan.Tally), and each status and
// error code of an operation in a list that is copied when it grows, so
// that an answer counts with atomic adds alone. The sizes of the journal
// and the store are read when the metrics are, from the state itself.
package metrics

import (
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
)

// Buckets are the bounds of the latency histograms, in seconds: a mock
// answers in tens of microseconds, a scripted delay or a real service
// behind the proxy in up to seconds.
var Buckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// Metrics are one mock's metrics and the registry that holds them.
type Metrics struct {
	reg     *prometheus.Registry
	handler http.Handler

	requests   *prometheus.CounterVec   // document, operation, status
	refusals   *prometheus.CounterVec   // document, code
	latency    *prometheus.HistogramVec // document, operation
	violations *prometheus.CounterVec   // document, operation, side
	rules      *prometheus.CounterVec   // document, scenario, rule
	outbound   *prometheus.CounterVec   // document, kind, outcome
	upstream   *prometheus.HistogramVec // operation

	mu        sync.RWMutex                   // guards unmatched and hits
	unmatched map[string]*series             // requests that matched no operation, by document
	hits      map[ruleKey]prometheus.Counter // scenario rules that answered
}

// ruleKey names a scenario rule of a document.
type ruleKey struct {
	doc, scenario string
	rule          int
}

// State is what the metrics read of the mock's state when they are
// gathered: state.Backend's Sizes.
type State interface {
	Sizes() (entries, resources int64, ok bool)
}

// New returns a mock's metrics, their registry holding them, the sizes
// of st (read when they are gathered) and the process's own (go_*,
// process_*); log has what gathering them could not do.
func New(log *slog.Logger, st State) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "plantmock_requests_total",
			Help: "Requests the mock answered, by document, operation (empty: none matched) and status (0: a fault left no answer)."},
			[]string{"document", "operation", "status"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "plantmock_refusals_total",
			Help: "Requests the mock answered with an error of its own, by document and error code (as in the answer's body and the journal)."},
			[]string{"document", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "plantmock_request_duration_seconds",
			Help: "Time from a request's arrival to the end of its answer, by document and operation, as the journal's duration.", Buckets: Buckets},
			[]string{"document", "operation"}),
		violations: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "plantmock_contract_violations_total",
			Help: "Exchanges that broke the document, by document, operation and side: request (the client's) or response (the real service's, through the proxy)."},
			[]string{"document", "operation", "side"}),
		rules: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "plantmock_scenario_rule_hits_total",
			Help: "Requests a scenario rule answered, by document, scenario and rule (1-based, as in the journal)."},
			[]string{"document", "scenario", "rule"}),
		outbound: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "plantmock_outbound_attempts_total",
			Help: "Attempts to send a webhook or callback, by document, kind (webhook or callback) and outcome: delivered (2xx), rejected (another status), failed (no answer), not_sent."},
			[]string{"document", "kind", "outcome"}),
		upstream: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "plantmock_proxy_upstream_duration_seconds",
			Help: "With a proxy: time from sending a request to the real service to its answer's header, by operation.", Buckets: Buckets},
			[]string{"operation"}),
		unmatched: map[string]*series{},
		hits:      map[ruleKey]prometheus.Counter{},
	}
	m.reg.MustRegister(m.requests, m.refusals, m.latency, m.violations, m.rules, m.outbound, m.upstream,
		sizes{st}, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.handler = promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ErrorHandling: promhttp.ContinueOnError, // what could be gathered, and the error logged
	})
	return m
}

// ServeHTTP answers GET /__admin/metrics: the metrics in the exposition
// format the caller's Accept asks for, Prometheus's text format (0.0.4)
// by default.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) { m.handler.ServeHTTP(w, r) }

// Told returns the listener that counts: register it with the engine's
// emitter.
func (m *Metrics) Told() event.Listener {
	return event.Listener{Answered: m.answered, Attempted: m.attempted}
}

// answered counts an exchange the mock answered. It allocates nothing
// once the operation has answered with that status (and error code)
// before.
func (m *Metrics) answered(a *event.Answered) {
	e := &a.E
	s := m.seriesOf(a, e.Document)
	s.statuses.get(e.Status, m.requests, s, true).Inc()
	s.latency.Observe(e.Duration.Seconds())
	if e.Code != 0 {
		s.codes.get(int(e.Code), m.refusals, s, false).Inc()
	}
	if e.Scenario != "" {
		m.hit(ruleKey{e.Document, e.Scenario, e.Rule}).Inc()
	}
	req, resp := broke(a)
	if req {
		s.sides[0].Inc()
	}
	if resp {
		s.sides[1].Inc()
	}
}

// broke reports on which sides an exchange broke the document, as the
// contract report counts it: the sides of its violations (those of the
// mock's own refusals are the request's), or the request's for a
// refusal of the contract's that lists none (no credentials, no route).
func broke(a *event.Answered) (req, resp bool) {
	for _, v := range a.E.Violations {
		if v.Direction == "response" {
			resp = true
		} else {
			req = true
		}
	}
	return req || a.RefusedUnlisted(), resp
}

// attempted counts an attempt of a webhook or callback.
func (m *Metrics) attempted(t *journal.Attempt) {
	e := &t.E
	kind, _, _ := strings.Cut(e.Operation, " ") // "webhook NAME", "callback NAME"
	m.outbound.WithLabelValues(e.Document, kind, outcome(e)).Inc()
}

// outcome says how an attempt went.
func outcome(e *journal.Entry) string {
	switch {
	case e.Attempt == 0:
		return "not_sent"
	case e.Status == 0:
		return "failed"
	case e.Status >= 200 && e.Status < 300:
		return "delivered"
	}
	return "rejected"
}

// Upstreamed counts an answer of the proxy's upstream (see
// the proxy's Upstreamed).
func (m *Metrics) Upstreamed(op string, took time.Duration) {
	m.upstream.WithLabelValues(op).Observe(took.Seconds())
}

// series are the metrics of one operation of one document, or of the
// requests of a document that matched none.
type series struct {
	doc, op  string
	latency  prometheus.Observer
	sides    [2]prometheus.Counter // request, response
	statuses byInt                 // requests, by status
	codes    byInt                 // refusals, by error code
}

func newSeries(m *Metrics, doc, op string) *series {
	return &series{doc: doc, op: op, latency: m.latency.WithLabelValues(doc, op),
		sides: [2]prometheus.Counter{m.violations.WithLabelValues(doc, op, "request"), m.violations.WithLabelValues(doc, op, "response")}}
}

// seriesOf returns the series of an exchange's operation, made on its
// first answer; of doc's requests that matched none when it has none.
func (m *Metrics) seriesOf(a *event.Answered, doc string) *series {
	if a.Plan == nil {
		return m.unmatchedOf(doc)
	}
	if s, ok := a.Plan.Tally.Load().(*series); ok {
		return s
	}
	s := newSeries(m, doc, a.Plan.Op.Name)
	if !a.Plan.Tally.CompareAndSwap(nil, s) {
		s = a.Plan.Tally.Load().(*series) // another request's, made first
	}
	return s
}

// unmatchedOf returns the series of doc's requests that matched no
// operation.
func (m *Metrics) unmatchedOf(doc string) *series {
	m.mu.RLock()
	s := m.unmatched[doc]
	m.mu.RUnlock()
	if s != nil {
		return s
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s = m.unmatched[doc]; s == nil {
		s = newSeries(m, doc, "")
		m.unmatched[doc] = s
	}
	return s
}

// hit returns the counter of a scenario rule's answers.
func (m *Metrics) hit(k ruleKey) prometheus.Counter {
	m.mu.RLock()
	c := m.hits[k]
	m.mu.RUnlock()
	if c != nil {
		return c
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if c = m.hits[k]; c == nil {
		c = m.rules.WithLabelValues(k.doc, k.scenario, strconv.Itoa(k.rule))
		m.hits[k] = c
	}
	return c
}

// byInt holds the counters of one series by a number (a status, an
// error code), in a list read without a lock and copied when it grows:
// an operation answers with few.
type byInt struct {
	mu   sync.Mutex // guards growing list
	list atomic.Pointer[[]intCounter]
}

type intCounter struct {
	k int
	c prometheus.Counter
}

// get returns the counter of k, made in vec the first time: its labels
// are s's document, s's operation when op is set, and k.
func (b *byInt) get(k int, vec *prometheus.CounterVec, s *series, op bool) prometheus.Counter {
	if l := b.list.Load(); l != nil {
		for _, e := range *l {
			if e.k == k {
				return e.c
			}
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var l []intCounter
	if p := b.list.Load(); p != nil {
		l = *p
	}
	for _, e := range l {
		if e.k == k {
			return e.c
		}
	}
	var c prometheus.Counter
	if op {
		c = vec.WithLabelValues(s.doc, s.op, strconv.Itoa(k))
	} else {
		c = vec.WithLabelValues(s.doc, strconv.Itoa(k))
	}
	l = append(slices.Clip(l), intCounter{k, c})
	b.list.Store(&l)
	return c
}

// sizes collects, when the metrics are gathered, what the state holds:
// the journals' entries and the store's resources. Only a state kept in
// this process says (State.Sizes): a shared one (Redis) is every
// replica's, and is read from one place, not from each replica.
type sizes struct{ st State }

var (
	journalDesc = prometheus.NewDesc("plantmock_journal_entries",
		"Entries the journals keep, of the default session and the named sessions alive; absent when the state is in Redis.", nil, nil)
	storeDesc = prometheus.NewDesc("plantmock_store_resources",
		"Resources the store holds in all sessions, as they count against --max-resources; absent when the state is in Redis.", nil, nil)
)

func (sizes) Describe(ch chan<- *prometheus.Desc) {
	ch <- journalDesc
	ch <- storeDesc
}

func (z sizes) Collect(ch chan<- prometheus.Metric) {
	entries, resources, ok := z.st.Sizes()
	if !ok {
		return
	}
	ch <- prometheus.MustNewConstMetric(journalDesc, prometheus.GaugeValue, float64(entries))
	ch <- prometheus.MustNewConstMetric(storeDesc, prometheus.GaugeValue, float64(resources))
}
