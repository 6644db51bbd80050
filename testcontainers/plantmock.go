// Package plantmock runs plantmock in a container for tests, with
// Testcontainers for Go: Run starts the image with a document, scenarios,
// seed data, an admin token, a Redis store or any flag, waits for
// /__admin/health, and returns a Container whose helpers call the admin
// API (reset, set a scenario, read the journal, count and verify
// requests).
//
//	ctr, err := plantmock.Run(ctx, "ghcr.io/plantmock/plantmock:latest",
//		plantmock.WithDocument("openapi.yaml"),
//		plantmock.WithScenarios("scenarios/first-create-fails.yaml"))
//	testcontainers.CleanupContainer(t, ctr)
//	if err != nil {
//		t.Fatal(err)
//	}
//	base, err := ctr.BaseURL(ctx)
//
// It is a Go module of its own, so that plantmock's module does not
// depend on Docker's libraries.
package plantmock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// Port is the port the image listens on (its PLANTMOCK_ADDR is
// 0.0.0.0:4010).
const Port = "4010/tcp"

// Where Run copies the files it is given, inside the container (whose
// /plantmock is the binary).
const (
	specDir     = "/specs"
	scenarioDir = "/scenarios"
	seedFile    = "/seed-data.json"
)

// Container is a running plantmock.
type Container struct {
	testcontainers.Container
	adminToken string
	client     *http.Client
}

// options gathers what the plantmock options set before Run turns it into
// the container request.
type options struct {
	documents []string // PLANTMOCK_SPEC items: FILE or BASE=FILE
	scenarios bool
	token     string
	flags     []string
}

// Option is an option of Run that belongs to plantmock. It is a
// testcontainers.ContainerCustomizer too, so that it can be passed with
// Testcontainers' own options.
type Option func(*options, *testcontainers.GenericContainerRequest) error

// Customize does nothing by itself: Run applies plantmock's options
// first, then every customizer in order.
func (o Option) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// WithDocument serves the OpenAPI document at path (on the host) instead
// of the image's Plant Store. Given more than once, the documents are
// served side by side, each under the path of its first server URL.
func WithDocument(file string) Option {
	return WithDocumentAt("", file)
}

// WithDocumentAt serves the document at path under base (such as
// "/billing"); an empty base is the path of its first server URL.
func WithDocumentAt(base, file string) Option {
	return func(o *options, req *testcontainers.GenericContainerRequest) error {
		target := path.Join(specDir, fmt.Sprintf("%d-%s", len(o.documents)+1, filepath.Base(file)))
		if err := addFile(req, file, target); err != nil {
			return err
		}
		if base != "" {
			target = base + "=" + target
		}
		o.documents = append(o.documents, target)
		return nil
	}
}

// WithScenarios loads scenario files (on the host) besides the image's
// shipped scenarios. Activate one with SetScenario, or for every request
// with WithFlag("scenario", NAME).
func WithScenarios(files ...string) Option {
	return func(o *options, req *testcontainers.GenericContainerRequest) error {
		for _, f := range files {
			if err := addFile(req, f, path.Join(scenarioDir, filepath.Base(f))); err != nil {
				return err
			}
		}
		o.scenarios = true
		return nil
	}
}

// WithSeedData stores the resources of a JSON seed file (on the host) at
// start.
func WithSeedData(file string) Option {
	return func(o *options, req *testcontainers.GenericContainerRequest) error {
		if err := addFile(req, file, seedFile); err != nil {
			return err
		}
		o.flags = append(o.flags, "--seed-data="+seedFile)
		return nil
	}
}

// WithAdminToken makes every admin call need this bearer token; the
// Container's helpers send it.
func WithAdminToken(token string) Option {
	return func(o *options, _ *testcontainers.GenericContainerRequest) error {
		o.token = token
		o.flags = append(o.flags, "--admin-token="+token)
		return nil
	}
}

// WithRedis keeps the mock's state in Redis at url
// (redis://HOST:PORT/DB), shared by every mock given the same URL. The
// host is as the container sees it.
func WithRedis(url string) Option {
	return WithFlag("store", url)
}

// WithFlag passes any flag of plantmock: WithFlag("seed", "42") is
// --seed=42. Repeat it for repeatable flags.
func WithFlag(name, value string) Option {
	return func(o *options, _ *testcontainers.GenericContainerRequest) error {
		name = strings.TrimLeft(name, "-")
		if name == "" {
			return errors.New("plantmock: WithFlag: no flag name")
		}
		o.flags = append(o.flags, "--"+name+"="+value)
		return nil
	}
}

// addFile has the container request copy a host file into the
// container, readable by the image's user.
func addFile(req *testcontainers.GenericContainerRequest, host, target string) error {
	abs, err := filepath.Abs(host)
	if err != nil {
		return fmt.Errorf("plantmock: %s: %w", host, err)
	}
	req.Files = append(req.Files, testcontainers.ContainerFile{HostFilePath: abs, ContainerFilePath: target, FileMode: 0o644})
	return nil
}

// Run starts a plantmock container of image with the options, and waits
// until GET /__admin/health answers 200. Where it fails after the
// container was created, it returns the container with the error, so
// that testcontainers.CleanupContainer can remove it.
func Run(ctx context.Context, image string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	req, token, err := newRequest(image, opts)
	if err != nil {
		return nil, err
	}
	ctr, err := testcontainers.GenericContainer(ctx, req)
	var c *Container
	if ctr != nil {
		c = &Container{Container: ctr, adminToken: token, client: &http.Client{Timeout: 30 * time.Second}}
	}
	if err != nil {
		return c, fmt.Errorf("plantmock: %w", err)
	}
	return c, nil
}

// newRequest is Run's container request, and the admin token: plantmock's
// options first, in order, then every customizer, so that Testcontainers'
// own options see (and may change) what plantmock's set.
func newRequest(image string, opts []testcontainers.ContainerCustomizer) (testcontainers.GenericContainerRequest, string, error) {
	req := testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        image,
			ExposedPorts: []string{Port},
			WaitingFor: wait.ForHTTP("/__admin/health").WithPort(Port).
				WithStatusCodeMatcher(func(status int) bool { return status == http.StatusOK }).
				WithStartupTimeout(60 * time.Second),
		},
		Started: true,
	}
	var o options
	for _, opt := range opts {
		if po, ok := opt.(Option); ok {
			if err := po(&o, &req); err != nil {
				return req, "", err
			}
		}
	}
	if len(o.documents) > 0 {
		o.flags = append(o.flags, "--spec="+strings.Join(o.documents, ","))
	}
	if o.scenarios {
		o.flags = append(o.flags, "--scenarios="+scenarioDir)
	}
	req.Cmd = append(req.Cmd, o.flags...)
	for _, opt := range opts {
		if err := opt.Customize(&req); err != nil {
			return req, "", fmt.Errorf("plantmock: customize: %w", err)
		}
	}
	return req, o.token, nil
}

// BaseURL is where the mocked API answers from the host: http://HOST:PORT.
func (c *Container) BaseURL(ctx context.Context) (string, error) {
	return c.PortEndpoint(ctx, Port, "http")
}

// AdminURL is the admin API's root: BaseURL followed by /__admin.
func (c *Container) AdminURL(ctx context.Context) (string, error) {
	base, err := c.BaseURL(ctx)
	if err != nil {
		return "", err
	}
	return base + "/__admin", nil
}

// An Entry is a journal entry: a request the mock received (or, with
// Direction "outbound", a webhook or callback it sent) and its answer.
// The admin API's document (/__admin/openapi.yaml) describes every field.
type Entry struct {
	Seq        int                 `json:"seq"`
	Time       time.Time           `json:"time"`
	Duration   time.Duration       `json:"duration,omitempty"`
	Method     string              `json:"method"`
	Path       string              `json:"path"`
	Query      string              `json:"query,omitempty"`
	Headers    map[string][]string `json:"headers,omitempty"`
	Body       json.RawMessage     `json:"body,omitempty"`
	Token      string              `json:"token,omitempty"`
	Operation  string              `json:"operation,omitempty"`
	Document   string              `json:"document,omitempty"`
	Scenario   string              `json:"scenario,omitempty"`
	Rule       int                 `json:"rule,omitempty"`
	Session    string              `json:"session,omitempty"`
	Status     int                 `json:"status"`
	Response   json.RawMessage     `json:"response,omitempty"`
	Code       int                 `json:"code,omitempty"`
	Violations []Violation         `json:"violations,omitempty"`
	Direction  string              `json:"direction,omitempty"`
}

// A Violation is a way an exchange broke the document.
type Violation struct {
	Path      string `json:"path"`
	Reason    string `json:"reason"`
	Direction string `json:"direction,omitempty"`
	Schema    string `json:"schema,omitempty"`
}

// A Match selects journal entries; the zero Match selects them all.
type Match struct {
	// Operation is METHOD /path/template as the document writes it
	// ("POST /tasks", "GET /tasks/{taskId}").
	Operation string `json:"operation,omitempty"`
	// Document is the name of the document that answered, where the
	// mock serves several.
	Document string `json:"document,omitempty"`
	// Direction is "inbound" or "outbound"; empty for both.
	Direction string `json:"direction,omitempty"`
	// Status is the answer's status; 0 for any.
	Status int `json:"status,omitempty"`
	// Body is a JSON subset of the request body; its strings may be
	// /regex/.
	Body any `json:"body,omitempty"`
}

// An AdminError is an admin call the mock refused, with its answer.
type AdminError struct {
	Method, Path string
	Status       int
	Body         string
}

func (e *AdminError) Error() string {
	return fmt.Sprintf("plantmock: %s %s: %d %s", e.Method, e.Path, e.Status, e.Body)
}

// admin makes an admin call with the admin token, if any. in is sent as
// JSON when it is not nil; the answer, when out is not nil, is read into
// it. An answer other than want is an *AdminError.
func (c *Container) admin(ctx context.Context, method, p string, in, out any, want int) error {
	root, err := c.AdminURL(ctx)
	if err != nil {
		return err
	}
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("plantmock: %s %s: %w", method, p, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, root+p, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.adminToken != "" {
		req.Header.Set("Authorization", "Bearer "+c.adminToken)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return fmt.Errorf("plantmock: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("plantmock: %s %s: %w", method, p, err)
	}
	if resp.StatusCode != want {
		return &AdminError{Method: method, Path: "/__admin" + p, Status: resp.StatusCode, Body: string(raw)}
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("plantmock: %s %s: %w", method, p, err)
		}
	}
	return nil
}

// Reset empties the store and the journal and restarts the scenarios'
// rule counters (POST /__admin/reset).
func (c *Container) Reset(ctx context.Context) error {
	return c.admin(ctx, http.MethodPost, "/reset", nil, nil, http.StatusNoContent)
}

// SetScenario makes the scenario of this name active; an empty name
// makes none active (PUT /__admin/scenario).
func (c *Container) SetScenario(ctx context.Context, name string) error {
	var body struct {
		Name *string `json:"name"`
	}
	if name != "" {
		body.Name = &name
	}
	return c.admin(ctx, http.MethodPut, "/scenario", body, nil, http.StatusOK)
}

// Journal returns the journal, oldest first (GET /__admin/requests).
func (c *Container) Journal(ctx context.Context) ([]Entry, error) {
	var out struct {
		Requests []Entry `json:"requests"`
	}
	if err := c.admin(ctx, http.MethodGet, "/requests", nil, &out, http.StatusOK); err != nil {
		return nil, err
	}
	return out.Requests, nil
}

// FindRequests returns the journal entries that match, oldest first
// (POST /__admin/requests/find).
func (c *Container) FindRequests(ctx context.Context, m Match) ([]Entry, error) {
	var out struct {
		Requests []Entry `json:"requests"`
	}
	if err := c.admin(ctx, http.MethodPost, "/requests/find", m, &out, http.StatusOK); err != nil {
		return nil, err
	}
	return out.Requests, nil
}

// CountRequests counts the journal entries that match
// (POST /__admin/requests/count).
func (c *Container) CountRequests(ctx context.Context, m Match) (int, error) {
	var out struct {
		Count int `json:"count"`
	}
	if err := c.admin(ctx, http.MethodPost, "/requests/count", m, &out, http.StatusOK); err != nil {
		return 0, err
	}
	return out.Count, nil
}

// Verify checks that the operation of method and path (the document's
// path template, such as /tasks/{taskId}) was requested exactly times
// times; otherwise its error says how many times it was.
func (c *Container) Verify(ctx context.Context, method, pathTemplate string, times int) error {
	op := strings.ToUpper(method) + " " + pathTemplate
	n, err := c.CountRequests(ctx, Match{Operation: op})
	if err != nil {
		return err
	}
	if n != times {
		return fmt.Errorf("plantmock: %s was requested %d times, not %d", op, n, times)
	}
	return nil
}
