package mock

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// metricsType is what GET /__admin/metrics answers without an Accept
// header: Prometheus's text format 0.0.4, as client_golang negotiates it.
const metricsType = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores"

// scrape reads GET /__admin/metrics with the admin token, checks its
// type and that it is valid exposition text (expfmt's parser), and
// returns plantmock's samples: a counter or gauge by its name and
// labels, a histogram as its _count and _sum.
func scrape(t *testing.T, ts *httptest.Server, token string) map[string]float64 {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+"/__admin/metrics", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != metricsType {
		t.Fatalf("GET /__admin/metrics: %d %q, want 200 %q", resp.StatusCode, resp.Header.Get("Content-Type"), metricsType)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("the metrics are not valid exposition text: %v", err)
	}
	out := map[string]float64{}
	for name, mf := range mfs {
		if !strings.HasPrefix(name, "plantmock_") {
			continue
		}
		if mf.GetHelp() == "" {
			t.Errorf("%s has no help text", name)
		}
		for _, m := range mf.GetMetric() {
			var ls []string
			for _, l := range m.GetLabel() {
				ls = append(ls, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
			}
			labels := "{" + strings.Join(ls, ",") + "}"
			switch {
			case m.GetCounter() != nil:
				out[name+labels] = m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				out[name+labels] = m.GetGauge().GetValue()
			case m.GetHistogram() != nil:
				out[name+"_count"+labels] = float64(m.GetHistogram().GetSampleCount())
				out[name+"_sum"+labels] = m.GetHistogram().GetSampleSum()
			default:
				t.Errorf("%s%s: neither counter, gauge nor histogram", name, labels)
			}
		}
	}
	return out
}

// fromJournal works out, from journal entries, the samples the metrics
// must hold of them: requests, refusals, rule hits, latency counts and
// sums (returned apart, compared within rounding), contract violations,
// webhook attempts, and the journal's size.
func fromJournal(es []journal.Entry) (want map[string]float64, sums map[string]float64) {
	want, sums = map[string]float64{}, map[string]float64{}
	for _, e := range es {
		if e.Direction == "outbound" {
			kind, _, _ := strings.Cut(e.Operation, " ")
			outcome := "rejected"
			switch {
			case e.Attempt == 0:
				outcome = "not_sent"
			case e.Status == 0:
				outcome = "failed"
			case e.Status/100 == 2:
				outcome = "delivered"
			}
			want[fmt.Sprintf("plantmock_outbound_attempts_total{document=%q,kind=%q,outcome=%q}", e.Document, kind, outcome)]++
			continue
		}
		op := fmt.Sprintf("document=%q,operation=%q", e.Document, e.Operation)
		want[fmt.Sprintf("plantmock_requests_total{%s,status=\"%d\"}", op, e.Status)]++
		want["plantmock_request_duration_seconds_count{"+op+"}"]++
		sums["plantmock_request_duration_seconds_sum{"+op+"}"] += e.Duration.Seconds()
		if e.Code != 0 {
			want[fmt.Sprintf("plantmock_refusals_total{code=\"%d\",document=%q}", e.Code, e.Document)]++
		}
		if e.Scenario != "" {
			want[fmt.Sprintf("plantmock_scenario_rule_hits_total{document=%q,rule=\"%d\",scenario=%q}", e.Document, e.Rule, e.Scenario)]++
		}
		sides := map[string]bool{}
		for _, v := range e.Violations {
			side := v.Direction
			if side == "" {
				side = "request"
			}
			sides[side] = true
		}
		if len(e.Violations) == 0 && e.Code.Contract() {
			sides["request"] = true
		}
		for _, side := range []string{"request", "response"} {
			k := "plantmock_contract_violations_total{" + op + ",side=\"" + side + "\"}"
			want[k] += 0 // each operation has both sides, at 0 or more
			if sides[side] {
				want[k]++
			}
		}
	}
	want["plantmock_journal_entries{}"] = float64(len(es))
	return want, sums
}

// compare checks that got holds exactly want, and sums within rounding.
func compare(t *testing.T, got, want, sums map[string]float64) {
	t.Helper()
	for k, v := range sums {
		if g := got[k]; math.Abs(g-v) > 1e-9 {
			t.Errorf("%s = %g, want %g (the journal's durations)", k, g, v)
		}
		delete(got, k)
	}
	var diff []string
	for k, v := range want {
		if got[k] != v {
			diff = append(diff, fmt.Sprintf("%s = %g, want %g", k, got[k], v))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			diff = append(diff, fmt.Sprintf("%s = %g, not wanted", k, v))
		}
	}
	sort.Strings(diff)
	for _, d := range diff {
		t.Error(d)
	}
}

// TestMetricsMatchJournal: after a known sequence of requests (a valid
// create, which sends a webhook, an invalid one, one without a token, one
// a scenario rule answers, one to no operation), GET /__admin/metrics is
// valid exposition text whose counters are what the journal holds, and
// whose sizes are the journal's and the store's. Without the admin token
// it is refused like every admin call.
func TestMetricsMatchJournal(t *testing.T) {
	sub := newSubscriber(t, always(200))
	attempts := make(chan Entry, 4)
	busy := &scenario.Scenario{Name: "busy", Rules: []scenario.Rule{{
		When:    scenario.When{Headers: map[string]string{"X-Case": "busy"}},
		Respond: scenario.Respond{Status: 503, Body: map[string]any{"busy": true}}, OffContract: true,
	}}}
	s, ts := newTestServer(t, Options{
		Spec: webhookSpec(t), Admin: AdminOptions{Token: "adm"}, NoShippedScenarios: true,
		Scenarios: []*scenario.Scenario{busy}, Scenario: "busy",
		Webhooks: WebhookOptions{Subscribers: map[string]session.Subscriber{"/plant/webhook": {URL: sub.URL}}},
		Observe: func(e Entry) {
			if e.Direction == "outbound" {
				attempts <- e
			}
		},
	})
	doc := adminDoc(t)
	callAdmin(t, ts, doc, adminCall{name: "metrics without the token", method: "GET", path: "/__admin/metrics", status: 401,
		want: `{"error":40102,"message":"the admin API needs \"Authorization: Bearer <admin token>\""}`})

	for _, r := range []struct {
		body   string
		header []string
		status int
	}{
		{`{"id":1,"name":"Fern"}`, []string{"Authorization", "Bearer t"}, 200},
		{`{"id":"x"}`, []string{"Authorization", "Bearer t"}, 400},
		{`{"id":2,"name":"Ivy"}`, nil, 401},
		{`{"id":3,"name":"Moss"}`, []string{"Authorization", "Bearer t", "X-Case", "busy"}, 503},
	} {
		if st, body := do(t, ts, "POST", "/plants", r.body, r.header...); st != r.status {
			t.Fatalf("POST /plants %s: %d %s, want %d", r.body, st, body, r.status)
		}
	}
	if st, body := do(t, ts, "GET", "/trees", ""); st != 404 {
		t.Fatalf("GET /trees: %d %s", st, body)
	}
	if e := <-attempts; e.Status != 200 {
		t.Fatalf("webhook attempt: %+v", e)
	}

	callAdmin(t, ts, doc, adminCall{name: "metrics", method: "GET", path: "/__admin/metrics", header: map[string]string{"Authorization": "Bearer adm"}, status: 200,
		contains: "# TYPE plantmock_requests_total counter\n"})
	got := scrape(t, ts, "adm")
	es := s.Journal()
	want, sums := fromJournal(es)
	want["plantmock_store_resources{}"] = 1 // Fern
	// What the journal says, written out: the sequence is what the test
	// sent, so that a journal and metrics wrong alike cannot pass.
	for k, v := range map[string]float64{
		`plantmock_requests_total{document="",operation="POST /plants",status="200"}`:               1,
		`plantmock_requests_total{document="",operation="POST /plants",status="400"}`:               1,
		`plantmock_requests_total{document="",operation="POST /plants",status="401"}`:               1,
		`plantmock_requests_total{document="",operation="POST /plants",status="503"}`:               1,
		`plantmock_requests_total{document="",operation="",status="404"}`:                           1,
		`plantmock_refusals_total{code="40004",document=""}`:                                        1,
		`plantmock_refusals_total{code="40100",document=""}`:                                        1,
		`plantmock_refusals_total{code="40400",document=""}`:                                        1,
		`plantmock_scenario_rule_hits_total{document="",rule="1",scenario="busy"}`:                  1,
		`plantmock_outbound_attempts_total{document="",kind="webhook",outcome="delivered"}`:         1,
		`plantmock_contract_violations_total{document="",operation="POST /plants",side="request"}`:  2,
		`plantmock_contract_violations_total{document="",operation="",side="request"}`:              1,
		`plantmock_request_duration_seconds_count{document="",operation="POST /plants"}`:            4,
		`plantmock_journal_entries{}`:                                                               6,
		`plantmock_store_resources{}`:                                                               1,
		`plantmock_contract_violations_total{document="",operation="POST /plants",side="response"}`: 0,
		`plantmock_request_duration_seconds_count{document="",operation=""}`:                        1,
		`plantmock_contract_violations_total{document="",operation="",side="response"}`:             0,
	} {
		if want[k] != v {
			t.Errorf("the journal gives %s = %g, want %g", k, want[k], v)
		}
	}
	compare(t, got, want, sums)
	st := callAdmin(t, ts, doc, adminCall{name: "store", method: "GET", path: "/__admin/store", header: map[string]string{"Authorization": "Bearer adm"}, status: 200})
	if st != `{"collections":{"/plants":[{"id":1,"name":"Fern"}]}}` {
		t.Errorf("store: %s", st)
	}
}

// TestMetricsPerDocument: the metrics of a mock of two documents name
// each document, and another mock in the same process counts apart.
func TestMetricsPerDocument(t *testing.T) {
	s, ts := newTestServer(t, Options{Documents: []Document{{Spec: example(t, "tasks.yaml"), Base: "/tasks"}, {Spec: example(t, "webhooks.yaml"), Base: "/hooks"}}, NoShippedScenarios: true})
	_, other := newTestServer(t, Options{})
	for _, r := range []struct {
		path, body string
		status     int
	}{{"/tasks/notes", `{"text":"a"}`, 201}, {"/hooks/plants", `{"id":1,"name":"Fern"}`, 200}, {"/hooks/plants", `{"id":"x"}`, 400}} {
		if st, body := do(t, ts, "POST", r.path, r.body, "X-API-Key", "k", "Authorization", "Bearer t"); st != r.status {
			t.Fatalf("POST %s: %d %s, want %d", r.path, st, body, r.status)
		}
	}
	got := scrape(t, ts, "")
	want, sums := fromJournal(s.Journal())
	want["plantmock_store_resources{}"] = 2
	for k, v := range map[string]float64{
		`plantmock_requests_total{document="tasks",operation="POST /notes",status="201"}`:  1,
		`plantmock_requests_total{document="hooks",operation="POST /plants",status="200"}`: 1,
		`plantmock_requests_total{document="hooks",operation="POST /plants",status="400"}`: 1,
		`plantmock_refusals_total{code="40004",document="hooks"}`:                          1,
	} {
		if want[k] != v {
			t.Errorf("the journal gives %s = %g, want %g", k, want[k], v)
		}
	}
	compare(t, got, want, sums)
	compare(t, scrape(t, other, ""), map[string]float64{"plantmock_journal_entries{}": 0, "plantmock_store_resources{}": 0}, nil)
}

// TestMetricsProxy: through the proxy, the upstream's latency is timed
// for the operation, and an answer that breaks the document counts on
// the response's side, as the journal says.
func TestMetricsProxy(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"name":7}`)) // name is a string in the document
	}))
	defer up.Close()
	s, ts := newTestServer(t, Options{Proxy: pipeline.ProxyOptions{URL: up.URL}})
	if st, body := do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, "Authorization", "Bearer t"); st != 200 || body != `{"name":7}` {
		t.Fatalf("proxied: %d %s", st, body)
	}
	got := scrape(t, ts, "")
	k := `plantmock_proxy_upstream_duration_seconds_count{operation="POST /plants"}`
	if got[k] != 1 {
		t.Errorf("%s = %g, want 1", k, got[k])
	}
	es := s.Journal()
	if len(es) != 1 || got[`plantmock_proxy_upstream_duration_seconds_sum{operation="POST /plants"}`] > es[0].Duration.Seconds() {
		t.Errorf("the upstream's time %g s is over the exchange's, %v", got[`plantmock_proxy_upstream_duration_seconds_sum{operation="POST /plants"}`], es)
	}
	delete(got, k)
	delete(got, `plantmock_proxy_upstream_duration_seconds_sum{operation="POST /plants"}`)
	want, sums := fromJournal(es)
	want["plantmock_store_resources{}"] = 0
	if k := `plantmock_contract_violations_total{document="",operation="POST /plants",side="response"}`; want[k] != 1 {
		t.Errorf("the journal gives %s = %g, want 1", k, want[k])
	}
	compare(t, got, want, sums)
}
