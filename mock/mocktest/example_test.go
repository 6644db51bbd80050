package mocktest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/mocktest"
)

// exampleT stands in for the *testing.T a real test has: it prints what
// would fail the test, and runs the cleanups at the end.
type exampleT struct{ cleanups []func() }

func (t *exampleT) Helper()          {}
func (t *exampleT) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) Errorf(format string, args ...any) {
	fmt.Printf("test fails: "+format+"\n", args...)
}
func (t *exampleT) Fatalf(format string, args ...any) {
	fmt.Printf("test stops: "+format+"\n", args...)
}
func (t *exampleT) end() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

// createPlant is what a client under test would do.
func createPlant(url, body string) string {
	req, _ := http.NewRequest("POST", url+"/plants", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer my-token")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return fmt.Sprintf("%d %s", resp.StatusCode, b)
}

// One line starts a mock of the Plant Store for the test; it stops when
// the test ends.
func ExampleNewServer() {
	t := &exampleT{} // in a test: the *testing.T
	defer t.end()

	srv := mocktest.NewServer(t)
	fmt.Println(createPlant(srv.URL, `{"id":7,"name":"Monstera","tag":"aroid"}`))
	fmt.Println(createPlant(srv.URL, `{"id":7,"name":"Monstera"}`))
	// Output:
	// 200 {"name":"Monstera","tag":"aroid"}
	// 400 {"error":40900,"message":"id 7 already exists in /plants"}
}

// AssertCount fails the test with what the mock received when the count
// is wrong.
func ExampleServer_AssertCount() {
	t := &exampleT{}
	defer t.end()

	srv := mocktest.NewServer(t)
	createPlant(srv.URL, `{"id":8,"name":"Fern"}`)
	srv.AssertCount(mock.Match{Operation: "POST /plants", Body: map[string]any{"id": 7}}, 1)
	// Output:
	// test fails: expected 1 request(s) POST /plants with body {"id":7}, got 0; received:
	//   POST /plants {"id":8,"name":"Fern"} -> 200 {"name":"Fern"}
}

// Find and Count select recorded requests by operation, status, a subset
// of the body (strings may be /regex/) or a predicate.
func ExampleServer_Find() {
	t := &exampleT{}
	defer t.end()

	srv := mocktest.NewServer(t)
	createPlant(srv.URL, `{"id":1,"name":"Fern"}`)
	createPlant(srv.URL, `{"id":2,"name":"Ferocactus"}`)
	createPlant(srv.URL, `{"id":1,"name":"Fern again"}`)
	for _, e := range srv.Find(mock.Match{Body: map[string]any{"name": "/^Fer/"}, Status: 200}) {
		fmt.Println(e.Seq, e.Operation, string(e.Body), e.Status)
	}
	fmt.Println(srv.Count(mock.Match{Func: func(e mock.Entry) bool { return e.Code == mock.CodeDuplicate }}))
	// Output:
	// 1 POST /plants {"id":1,"name":"Fern"} 200
	// 2 POST /plants {"id":2,"name":"Ferocactus"} 200
	// 1
}

// The store can be read into the caller's own types.
func ExampleServer_DecodeResources() {
	t := &exampleT{}
	defer t.end()

	srv := mocktest.NewServer(t)
	createPlant(srv.URL, `{"id":1,"name":"Fern","tag":"green"}`)
	createPlant(srv.URL, `{"id":2,"name":"Ivy"}`)
	var plants []struct {
		ID   int64
		Name string
		Tag  string
	}
	srv.DecodeResources("/plants", &plants)
	fmt.Printf("%+v\n", plants)
	// Output:
	// [{ID:1 Name:Fern Tag:green} {ID:2 Name:Ivy Tag:}]
}

// A scenario built in Go is checked against the contract like a YAML one.
func ExampleOptions_scenario() {
	t := &exampleT{}
	defer t.end()

	busy := &mock.Scenario{Name: "busy", Rules: []mock.Rule{{
		When:    mock.When{Operation: "POST /plants"},
		Times:   1,
		Respond: mock.Respond{Status: 400, Body: map[string]any{"error": 503, "message": "busy, retry {{ .body.name }}"}},
	}}}
	srv := mocktest.NewServer(t, mocktest.Options{Options: mock.Options{Scenarios: []*mock.Scenario{busy}, Scenario: "busy"}})
	fmt.Println(createPlant(srv.URL, `{"id":1,"name":"Fern"}`))
	fmt.Println(createPlant(srv.URL, `{"id":1,"name":"Fern"}`))

	wrong := &mock.Scenario{Name: "wrong", Rules: []mock.Rule{{Respond: mock.Respond{Status: 404}}}}
	mocktest.NewServer(t, mocktest.Options{Options: mock.Options{Scenarios: []*mock.Scenario{wrong}}})
	// Output:
	// 400 {"error":503,"message":"busy, retry Fern"}
	// 200 {"name":"Fern"}
	// test stops: mocktest: scenario wrong: rule 1: status 404 is not declared for POST /plants (declared: 200, 400); set off_contract: true to send it anyway
}

// A request the mock rejects for breaking the contract fails the test when
// it ends, even if the client ignored the 400.
func ExampleNewServer_contractFailure() {
	t := &exampleT{}
	srv := mocktest.NewServer(t)
	createPlant(srv.URL, `{"id":"7","name":"Monstera"}`)
	t.end()
	// Output:
	// test fails: plantmock: the client sent 1 request(s) that break the contract:
	//   POST /plants {"id":"7","name":"Monstera"} -> 400 {"error":40004,"message":"request body does not match the schema: id: expected integer, got string"}
	//       id: expected integer, got string
	// (set Options.AllowContractFailures to allow them)
}

// Reset empties the store and the journal, and restarts rule counters.
func ExampleServer_Reset() {
	t := &exampleT{}
	defer t.end()

	srv := mocktest.NewServer(t, mocktest.Options{Options: mock.Options{Scenario: "first-create-fails"}})
	fmt.Println(createPlant(srv.URL, `{"id":1,"name":"Fern"}`))
	fmt.Println(createPlant(srv.URL, `{"id":1,"name":"Fern"}`))
	srv.Reset()
	fmt.Println(len(srv.Requests()), len(srv.Resources("/plants")))
	fmt.Println(createPlant(srv.URL, `{"id":1,"name":"Fern"}`))
	// Output:
	// 400 {"error":50300,"message":"the store refused plant 1: please retry"}
	// 200 {"name":"Fern"}
	// 0 0
	// 400 {"error":50300,"message":"the store refused plant 1: please retry"}
}

// plantHooks is a Plant Store whose webhook /plant/webhook carries every
// plant created.
const plantHooks = `
openapi: 3.1.0
info: {title: Plant Store, version: 1.0.0}
paths:
  /plants:
    post:
      requestBody:
        content: {application/json: {schema: {$ref: '#/components/schemas/NewPlant'}}}
      responses:
        '200': {description: the plant, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
webhooks:
  /plant/webhook:
    post:
      requestBody:
        content: {application/json: {schema: {$ref: '#/components/schemas/NewPlant'}}}
      responses:
        '200': {description: received}
components:
  schemas:
    NewPlant:
      type: object
      required: [id, name]
      properties: {id: {type: integer}, name: {type: string}, tag: {type: string}}
    Plant:
      type: object
      required: [name]
      properties: {name: {type: string}, tag: {type: string}}
`

// Receive stands in for the subscriber of a webhook: the test reads what
// the mock sent it, and Deliveries shows every attempt.
func ExampleServer_Receive() {
	t := &exampleT{}
	defer t.end()

	srv := mocktest.NewServer(t, mocktest.Options{Options: mock.Options{Spec: []byte(plantHooks)}})
	hook := srv.Receive("/plant/webhook")
	fmt.Println(createPlant(srv.URL, `{"id":7,"name":"Monstera","tag":"aroid"}`))
	d := hook.Next(5 * time.Second)
	fmt.Println(d.Method, d.Header.Get("Content-Type"), string(d.Body))
	for _, e := range srv.Deliveries() {
		fmt.Println(e.Operation, "attempt", e.Attempt, "->", e.Status)
	}
	// Output:
	// 200 {"name":"Monstera","tag":"aroid"}
	// POST application/json {"id":7,"name":"Monstera","tag":"aroid"}
	// webhook /plant/webhook attempt 1 -> 200
}
