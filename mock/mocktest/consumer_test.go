package mocktest_test

// This file plays a consumer of plantmock: a small Plant Store client,
// written as a user would write it with net/http and encoding/json, tested
// against the mock through its happy path, a 400, a 401, a scripted fault
// and a delay.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/mocktest"
)

// NewPlant is what the client sends.
type NewPlant struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Tag  string `json:"tag,omitempty"`
}

// Plant is what the store answers.
type Plant struct {
	Name string `json:"name"`
	Tag  string `json:"tag,omitempty"`
}

// APIError is the store's error answer.
type APIError struct {
	Status  int    `json:"-"`
	Code    int32  `json:"error"`
	Message string `json:"message"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("plant store: %d %d %s", e.Status, e.Code, e.Message)
}

// Client talks to the Plant Store.
type Client struct {
	BaseURL string
	Token   string
	HTTP    *http.Client
}

// CreatePlant adds a plant to the store.
func (c *Client) CreatePlant(ctx context.Context, p NewPlant) (*Plant, error) {
	body, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", c.BaseURL+"/plants", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("create plant %d: %w", p.ID, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		apiErr := &APIError{Status: resp.StatusCode}
		if err := json.NewDecoder(resp.Body).Decode(apiErr); err != nil {
			return nil, fmt.Errorf("create plant %d: status %d: %w", p.ID, resp.StatusCode, err)
		}
		return nil, apiErr
	}
	var out Plant
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("create plant %d: %w", p.ID, err)
	}
	return &out, nil
}

func newClient(srv *mocktest.Server, token string) *Client {
	return &Client{BaseURL: srv.URL, Token: token, HTTP: srv.Client()}
}

func TestClientCreatesPlant(t *testing.T) {
	srv := mocktest.NewServer(t)
	c := newClient(srv, "secret")

	got, err := c.CreatePlant(context.Background(), NewPlant{ID: 7, Name: "Monstera", Tag: "aroid"})
	if err != nil {
		t.Fatal(err)
	}
	if *got != (Plant{Name: "Monstera", Tag: "aroid"}) {
		t.Errorf("CreatePlant = %+v", *got)
	}
	srv.AssertCount(mock.Match{Operation: "POST /plants", Body: map[string]any{"id": 7}}, 1)
	var stored NewPlant
	if !srv.Resource("/plants", "7", &stored) || stored != (NewPlant{ID: 7, Name: "Monstera", Tag: "aroid"}) {
		t.Errorf("stored %+v", stored)
	}
}

func TestClientReportsAnError(t *testing.T) {
	srv := mocktest.NewServer(t)
	c := newClient(srv, "secret")
	if _, err := c.CreatePlant(context.Background(), NewPlant{ID: 7, Name: "Monstera"}); err != nil {
		t.Fatal(err)
	}
	_, err := c.CreatePlant(context.Background(), NewPlant{ID: 7, Name: "Monstera"})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || *apiErr != (APIError{Status: 400, Code: int32(mock.CodeDuplicate), Message: "id 7 already exists in /plants"}) {
		t.Errorf("err = %v", err)
	}
}

func TestClientReportsUnauthorized(t *testing.T) {
	// A rejected token is a contract failure the test expects.
	srv := mocktest.NewServer(t, mocktest.Options{Options: mock.Options{Tokens: []string{"good"}}, AllowContractFailures: true})
	_, err := newClient(srv, "expired").CreatePlant(context.Background(), NewPlant{ID: 1, Name: "Fern"})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 401 || apiErr.Code != int32(mock.CodeTokenRejected) {
		t.Errorf("err = %v", err)
	}
	srv.AssertCount(mock.Match{Status: 401}, 1)
}

func TestClientSurvivesAFault(t *testing.T) {
	srv := mocktest.NewServer(t, mocktest.Options{Options: mock.Options{Scenario: "flaky"}})
	c := newClient(srv, "secret")
	for id := int64(1); id <= 3; id++ {
		_, err := c.CreatePlant(context.Background(), NewPlant{ID: id, Name: "Fern"})
		if id < 3 && err != nil {
			t.Fatalf("create %d: %v", id, err)
		}
		if id == 3 && !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("create 3: err = %v, want a connection reset", err)
		}
	}
	var stored []NewPlant
	srv.DecodeResources("/plants", &stored)
	if len(stored) != 2 {
		t.Errorf("the store holds %d plants; the reset create must not be stored", len(stored))
	}
}

func TestClientTimesOutOnASlowStore(t *testing.T) {
	slow := &mock.Scenario{Name: "slow-create", Rules: []mock.Rule{{
		When: mock.When{Operation: "POST /plants"}, Respond: mock.Respond{Delay: 400 * time.Millisecond},
	}}}
	srv := mocktest.NewServer(t, mocktest.Options{Options: mock.Options{Scenarios: []*mock.Scenario{slow}, Scenario: "slow-create"}})
	c := newClient(srv, "secret")

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.CreatePlant(ctx, NewPlant{ID: 1, Name: "Fern"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("with a 50ms deadline: err = %v, want the deadline", err)
	}
	start := time.Now()
	if _, err := c.CreatePlant(context.Background(), NewPlant{ID: 2, Name: "Ivy"}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 400*time.Millisecond {
		t.Errorf("answered after %v, before the scripted 400ms", d)
	}
}
