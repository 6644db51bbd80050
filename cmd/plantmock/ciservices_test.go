package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// githubWorkflow is the part of a GitHub Actions workflow the test reads.
type githubWorkflow struct {
	Jobs map[string]struct {
		Services map[string]struct {
			Image string
			Ports []string
			Env   map[string]string
		}
		Steps []struct{ Env map[string]string }
	}
}

// gitlabJob is the part of a GitLab CI job the test reads.
type gitlabJob struct {
	Services []struct {
		Name      string
		Alias     string
		Command   []string
		Variables map[string]string
	}
	Variables map[string]string
}

// A ciService is a plantmock service of a CI example, as the test runs
// it: its variables, its command, and the URL the job's tests are given.
type ciService struct {
	name    string
	env     map[string]string
	command []string
	url     string
}

// TestCIServices checks the GitHub Actions and GitLab CI examples of
// docs/testcontainers.md against the command and the image: the service
// is the released image; every PLANTMOCK_ variable names a flag, and so
// does every argument of its command; the URL the job's tests get
// reaches port 4010, the image's, by the service's host name; and a mock
// started with the same variables and command answers its health call
// and the admin API through that host name, with the admin token, and
// has the scenario named active, with no warning on stderr.
func TestCIServices(t *testing.T) {
	page, err := os.ReadFile("../../docs/testcontainers.md")
	if err != nil {
		t.Fatal(err)
	}
	dockerfile, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"EXPOSE 4010", "ENV PLANTMOCK_ADDR=0.0.0.0:4010"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(line) + `$`).Match(dockerfile) {
			t.Errorf("the Dockerfile has no %q: the examples rely on it", line)
		}
	}
	var usage bytes.Buffer
	run(context.Background(), []string{"-h"}, nil, &usage, &usage)
	isFlag := func(name string) bool {
		return regexp.MustCompile(`\n  --` + regexp.QuoteMeta(name) + `[ \n]`).MatchString(usage.String())
	}

	var services []ciService
	blocks := regexp.MustCompile("(?s)\n```yaml\n(.*?)\n```\n").FindAllStringSubmatch(string(page), -1)
	var github, gitlab int
	for _, b := range blocks {
		text := b[1]
		switch {
		case strings.HasPrefix(text, "jobs:"):
			github++
			var w githubWorkflow
			if err := yaml.Unmarshal([]byte(text), &w); err != nil {
				t.Fatalf("the GitHub Actions example: %v", err)
			}
			for job, j := range w.Jobs {
				for name, s := range j.Services {
					if !strings.HasPrefix(s.Image, "ghcr.io/plantmock/plantmock:") {
						continue
					}
					if !slices.Contains(s.Ports, "4010:4010") {
						t.Errorf("GitHub job %s: service %s publishes %q, not 4010:4010", job, name, s.Ports)
					}
					svc := ciService{name: "GitHub job " + job + ", service " + name, env: s.Env}
					for _, st := range j.Steps {
						for _, v := range st.Env {
							if strings.HasPrefix(v, "http://") {
								svc.url = v
							}
						}
					}
					services = append(services, svc)
				}
			}
		case regexp.MustCompile(`(?m)^  services:\n    - name: `).MatchString(text):
			gitlab++
			var jobs map[string]gitlabJob
			if err := yaml.Unmarshal([]byte(text), &jobs); err != nil {
				t.Fatalf("the GitLab CI example: %v", err)
			}
			for job, j := range jobs {
				for _, s := range j.Services {
					if !strings.HasPrefix(s.Name, "ghcr.io/plantmock/plantmock:") {
						continue
					}
					svc := ciService{name: "GitLab job " + job + ", service " + s.Alias, env: s.Variables, command: s.Command}
					for _, v := range j.Variables {
						if strings.HasPrefix(v, "http://") {
							svc.url = v
						}
					}
					if u, err := url.Parse(svc.url); err != nil || u.Hostname() != s.Alias {
						t.Errorf("%s: the job's URL %q does not name the alias %q", svc.name, svc.url, s.Alias)
					}
					services = append(services, svc)
				}
			}
		}
	}
	if github != 1 || gitlab != 1 {
		t.Fatalf("docs/testcontainers.md has %d GitHub Actions and %d GitLab CI examples, not one of each", github, gitlab)
	}
	if len(services) != 2 {
		t.Fatalf("plantmock services in the examples: %d, not 2", len(services))
	}

	for _, s := range services {
		t.Run(s.name, func(t *testing.T) {
			u, err := url.Parse(s.url)
			if err != nil || u.Scheme != "http" || u.Port() != "4010" {
				t.Fatalf("the job's URL %q does not reach port 4010", s.url)
			}
			var env []string
			for v, value := range s.env {
				flag := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(v, "PLANTMOCK_"), "_", "-"))
				if !strings.HasPrefix(v, "PLANTMOCK_") || !isFlag(flag) {
					t.Errorf("%s is not the variable of a flag", v)
				}
				env = append(env, v+"="+value)
			}
			for _, arg := range s.command {
				name, _, _ := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
				if !strings.HasPrefix(arg, "--") || !isFlag(name) {
					t.Errorf("the command's %q is not a flag", arg)
				}
			}
			token := s.env["PLANTMOCK_ADMIN_TOKEN"]
			if token == "" {
				t.Fatal("the service has no admin token: its admin API would be open to the job's network")
			}

			// The image's address is replaced by a free loopback port.
			in, _ := startIn(t, "../..", env, s.command...)
			get := func(path string) (int, string) {
				t.Helper()
				req, err := http.NewRequest("GET", in.url+path, nil)
				if err != nil {
					t.Fatal(err)
				}
				req.Host = u.Host
				req.Header.Set("Authorization", "Bearer "+token)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, string(b)
			}
			if status, body := get("/__admin/health"); status != 200 || !strings.Contains(body, `"status":"ok"`) {
				t.Errorf("health through Host %s: %d %s", u.Host, status, body)
			}
			if status, body := get("/__admin/requests"); status != 200 || body != `{"requests":[]}` {
				t.Errorf("the journal through Host %s: %d %s", u.Host, status, body)
			}
			scenario := s.env["PLANTMOCK_SCENARIO"]
			for _, arg := range s.command {
				if v, ok := strings.CutPrefix(arg, "--scenario="); ok {
					scenario = v
				}
			}
			if scenario != "" {
				if status, body := get("/__admin/scenarios"); status != 200 || !strings.Contains(body, `"active":"`+scenario+`"`) {
					t.Errorf("scenarios: %d %s; %s is not active", status, body, scenario)
				}
			}
			if code := in.stop(t); code != 0 {
				t.Errorf("the mock exited %d", code)
			}
			if strings.Contains(in.stderr.String(), "warning") {
				t.Errorf("the mock warned:\n%s", in.stderr)
			}
		})
	}
}
