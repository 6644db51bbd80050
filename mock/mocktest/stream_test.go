package mocktest_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/mocktest"
)

// chatRequest asks the chat example for a streamed completion, with
// Prefer's stream preferences.
func chatRequest(url, prefer string) (*http.Response, error) {
	req, _ := http.NewRequest("POST", url+"/v1/chat/completions", strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"Hi"}]}`))
	req.Header.Set("Authorization", "Bearer sk-test")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if prefer != "" {
		req.Header.Set("Prefer", prefer)
	}
	return http.DefaultClient.Do(req)
}

// ReadStream reads a streamed answer an item at a time: here the chat
// example's scripted tokens.
func ExampleReadStream() {
	t := &exampleT{} // in a test: the *testing.T
	defer t.end()

	sc, _ := mock.LoadScenarios(os.DirFS("../../examples"), "chat-scenarios")
	srv := mocktest.NewServer(t, mocktest.Options{SpecFile: "../../examples/chat.yaml", Options: mock.Options{Scenarios: sc, Scenario: "chat-tokens"}})
	resp, err := chatRequest(srv.URL, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := mocktest.ReadStream(resp)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	for {
		it, err := s.Next()
		if err != nil {
			fmt.Println(err)
			break
		}
		var chunk struct {
			Choices []struct{ Delta struct{ Content string } }
		}
		if it.Decode(&chunk) != nil {
			fmt.Printf("%s: %s\n", it.ID, it.Text)
			continue
		}
		fmt.Printf("%s: %q\n", it.ID, chunk.Choices[0].Delta.Content)
	}
	// Output:
	// 1: "Hello"
	// 2: " there"
	// : [DONE]
	// EOF
}

// TestReadStreamDropped: a stream the mock drops ends in an error
// wrapping io.ErrUnexpectedEOF after the items sent, not in io.EOF.
func TestReadStreamDropped(t *testing.T) {
	srv := mocktest.NewServer(t, mocktest.Options{SpecFile: "../../examples/chat.yaml"})
	resp, err := chatRequest(srv.URL, "stream-items=5, stream-drop=2, stream-ids=true")
	if err != nil {
		t.Fatal(err)
	}
	s, err := mocktest.ReadStream(resp)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for n := 1; n <= 2; n++ {
		it, err := s.Next()
		if err != nil || it.N != n || it.ID != fmt.Sprint(n) {
			t.Fatalf("item %d: %+v, %v", n, it, err)
		}
	}
	if _, err := s.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("after the drop: %v, want io.ErrUnexpectedEOF", err)
	}
	if _, err := mocktest.ReadStream(&http.Response{Header: http.Header{"Content-Type": {"application/json"}}, Body: http.NoBody}); err == nil {
		t.Fatal("ReadStream took a JSON answer")
	}
}
