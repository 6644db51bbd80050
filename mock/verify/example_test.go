package verify_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

// Verify a service started in the test (here the mock itself, serving
// the Plant Store) against the Plant Store document.
func ExampleRun() {
	m, err := mock.New(mock.Options{})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(m)
	defer srv.Close()

	rep, err := verify.Run(context.Background(), nil, srv.URL, verify.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.OK(), rep.Requests, "requests")
	fmt.Println(rep.Coverage)
	for _, f := range rep.Failures {
		fmt.Println(f)
	}
	// Output:
	// true 10 requests
	// operations 1/1, declared statuses 2/2, request media types 1/1
}
