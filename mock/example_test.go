package mock_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/plantmock/plantmock/mock"
)

// The mock is an http.Handler: serve it with httptest in a Go test.
func ExampleNew() {
	srv, err := mock.New(mock.Options{})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	for _, body := range []string{`{"id":1,"name":"Monstera"}`, `{"id":1,"name":"Fern"}`} {
		req, _ := http.NewRequest("POST", ts.URL+"/plants", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer any-token")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, string(answer))
	}
	// Output:
	// 200 {"name":"Monstera"}
	// 400 {"error":40900,"message":"id 1 already exists in /plants"}
}

// Reload takes a function that gives the new content, or the error that
// keeps the mock serving what it served (a file that does not read).
func ExampleServer_Reload() {
	srv, err := mock.New(mock.Options{NoShippedScenarios: true})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	busy, err := mock.ParseScenario("busy.yaml", []byte(`name: busy
rules:
  - when: {operation: POST /plants}
    respond: {status: 400, body: {error: 1, message: busy}}
`))
	if err != nil {
		panic(err)
	}

	status, err := srv.Reload(func() (mock.Content, error) {
		return mock.Content{NoShippedScenarios: true, Scenarios: []*mock.Scenario{busy}}, nil
	})
	fmt.Println(status.Reloads, err, srv.ScenarioNames())

	status, err = srv.Reload(func() (mock.Content, error) {
		return mock.Content{}, errors.New("cannot read api.yaml")
	})
	fmt.Println(status.Reloads, status.Problem, srv.ScenarioNames())
	// Output:
	// 1 <nil> [busy]
	// 1 cannot read api.yaml [busy]
}
