package mock

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
)

// journaledSpec is replicaSpec with trees too, whose identifiers the mock
// assigns (readOnly): their creates reserve a key and then store.
var journaledSpec = strings.Replace(replicaSpec, "components:\n  schemas:\n", `  /trees:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Tree'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Tree'}}}}
        '400': {$ref: '#/components/responses/Error'}
components:
  schemas:
    Tree:
      type: object
      required: [id, name]
      properties: {id: {type: integer, readOnly: true}, name: {type: string}}
`, 1)

// TestCreateJournaledWithStore: on Redis, a create's journal entry is
// written by the operation that stores the resource (see storeCreate); the journal reads
// as the memory store's does, but for times and durations: the same
// numbers, answers and notes, for creates of given and assigned
// identifiers, refused ones, and a named session's.
func TestCreateJournaledWithStore(t *testing.T) {
	_, mem := newTestServer(t, Options{Spec: []byte(journaledSpec), Seed: 7})
	red := replicas(t, redistest.NewServer(t).URL(0), 1, Options{Spec: []byte(journaledSpec), Seed: 7})[0]
	steps := []struct {
		path, body, session string
		status              int
		answer              string
	}{
		{"/plants", `{"id":1,"name":"fern"}`, "", 201, `{"id":1,"name":"fern"}`},
		{"/plants", `{"id":1,"name":"ivy"}`, "", 409, `{"error":40900,"message":"id 1 already exists in /plants"}`},
		{"/trees", `{"name":"oak"}`, "", 201, `{"id":1,"name":"oak"}`},
		{"/trees", `{"id":9,"name":"elm"}`, "", 201, `{"id":2,"name":"elm"}`},
		{"/plants", `{"id":"x","name":"moss"}`, "", 400, ""},
		{"/plants", `{"id":1,"name":"fern"}`, "s1", 201, `{"id":1,"name":"fern"}`},
		{"/plants", `{"id":2,"name":"sage"}`, "s1", 201, `{"id":2,"name":"sage"}`},
	}
	for _, ts := range []*httptest.Server{mem, red} {
		for _, st := range steps {
			status, body := do(t, ts, "POST", st.path, st.body, SessionHeader, st.session)
			if status != st.status || (st.answer != "" && body != st.answer) {
				t.Errorf("POST %s %s in %q: %d %s, want %d %s", st.path, st.body, st.session, status, body, st.status, st.answer)
			}
		}
	}
	for _, sess := range []string{"", "s1"} {
		want, got := journalOf(t, mem, sess), journalOf(t, red, sess)
		if got != want {
			t.Errorf("journal of session %q on Redis:\n%s\nwant, as in memory:\n%s", sess, got, want)
		}
	}
}

// journalOf returns a session's journal as the admin API gives it,
// without times and durations.
func journalOf(t *testing.T, ts *httptest.Server, sess string) string {
	t.Helper()
	st, body := do(t, ts, "GET", "/__admin/requests", "", SessionHeader, sess)
	var j struct{ Requests []map[string]any }
	if err := json.Unmarshal([]byte(body), &j); st != 200 || err != nil {
		t.Fatalf("journal: %d %s %v", st, body, err)
	}
	for _, e := range j.Requests {
		delete(e, "time")
		delete(e, "duration")
	}
	out, err := json.MarshalIndent(j.Requests, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
