package mock_test

import (
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
