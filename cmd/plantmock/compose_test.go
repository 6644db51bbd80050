package main

import (
	"bytes"
	"context"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// composeFile is the part of compose.yaml the test reads.
type composeFile struct {
	Services map[string]struct {
		Image       string
		Build       string
		Environment map[string]string
		Ports       []string
		DependsOn   map[string]struct{ Condition string } `yaml:"depends_on"`
		Healthcheck struct{ Test []string }
		Volumes     []string
		Configs     []struct{ Source, Target string }
	}
	Configs map[string]struct{ Content string }
}

// TestComposeFile checks compose.yaml against the command and the image:
// docs/service.md shows it as it is, every PLANTMOCK_ variable names a flag,
// the replicas share one Redis and wait for it, and nginx sends to each
// replica and waits for them all.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("../../compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../docs/service.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte("```yaml\n"+string(raw)+"```\n")) {
		t.Error("docs/service.md does not show compose.yaml as it is")
	}
	dockerfile, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^HEALTHCHECK .*CMD \["/plantmock", "health"\]$`).Match(dockerfile) {
		t.Error("the Dockerfile's HEALTHCHECK is not plantmock health: compose.yaml relies on it")
	}
	var usage bytes.Buffer
	run(context.Background(), []string{"-h"}, nil, &usage, &usage)

	var c composeFile
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	redis := c.Services["redis"]
	if redis.Image != "redis:7" || !slices.Equal(redis.Healthcheck.Test, []string{"CMD", "redis-cli", "ping"}) {
		t.Errorf("redis: image %q, health check %q", redis.Image, redis.Healthcheck.Test)
	}
	var replicas []string
	for _, name := range slices.Sorted(maps.Keys(c.Services)) {
		s := c.Services[name]
		if !strings.HasPrefix(name, "plantmock") {
			continue
		}
		replicas = append(replicas, name)
		if s.Build != "." {
			t.Errorf("%s: build %q, not the Dockerfile's folder", name, s.Build)
		}
		for _, v := range slices.Sorted(maps.Keys(s.Environment)) {
			flag := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(v, "PLANTMOCK_"), "_", "-"))
			if !strings.HasPrefix(v, "PLANTMOCK_") || !regexp.MustCompile(`\n  --`+regexp.QuoteMeta(flag)+`[ \n]`).MatchString(usage.String()) {
				t.Errorf("%s: %s is not the variable of a flag", name, v)
			}
		}
		// Two documents: the Plant Store at / and the task board at /tasks,
		// files of the repository mounted read-only.
		if got := s.Environment["PLANTMOCK_SPEC"]; got != "/specs/openapi.yaml,/tasks=/specs/tasks.yaml" {
			t.Errorf("%s: PLANTMOCK_SPEC is %q", name, got)
		}
		for _, v := range s.Volumes {
			host, _, _ := strings.Cut(v, ":")
			if _, err := os.Stat("../../" + host); err != nil || !strings.HasSuffix(v, ":ro") {
				t.Errorf("%s: volume %q: %v, or not read-only", name, v, err)
			}
		}
		if !slices.Equal(s.Volumes, []string{"./openapi.yaml:/specs/openapi.yaml:ro", "./examples/tasks.yaml:/specs/tasks.yaml:ro"}) {
			t.Errorf("%s: volumes %q", name, s.Volumes)
		}
		if got := s.Environment["PLANTMOCK_STORE"]; got != "redis://redis:6379/0" {
			t.Errorf("%s: PLANTMOCK_STORE is %q", name, got)
		}
		if s.Environment["PLANTMOCK_STORE_WAIT"] == "" {
			t.Errorf("%s: does not wait for Redis at start", name)
		}
		if s.DependsOn["redis"].Condition != "service_healthy" {
			t.Errorf("%s: does not wait for Redis to be healthy", name)
		}
	}
	if !slices.Equal(replicas, []string{"plantmock-1", "plantmock-2", "plantmock-3"}) {
		t.Errorf("replicas: %q", replicas)
	}

	nginx := c.Services["nginx"]
	if !slices.Equal(nginx.Ports, []string{"4010:4010"}) {
		t.Errorf("nginx publishes %q", nginx.Ports)
	}
	if len(nginx.Configs) != 1 || nginx.Configs[0].Target != "/etc/nginx/conf.d/default.conf" {
		t.Fatalf("nginx configs: %+v", nginx.Configs)
	}
	conf := c.Configs[nginx.Configs[0].Source].Content
	upstreams := regexp.MustCompile(`(?m)^\s*server (\S+);$`).FindAllStringSubmatch(conf, -1)
	var servers []string
	for _, m := range upstreams {
		servers = append(servers, m[1])
	}
	var want []string
	for _, r := range replicas {
		want = append(want, r+":4010")
		if nginx.DependsOn[r].Condition != "service_healthy" {
			t.Errorf("nginx does not wait for %s to be healthy", r)
		}
	}
	if !slices.Equal(servers, want) || !strings.Contains(conf, "listen 4010;") || !strings.Contains(conf, "proxy_pass http://plantmock;") {
		t.Errorf("nginx configuration, upstream servers %q:\n%s", servers, conf)
	}
	// Compose would replace a $ in the inline configuration.
	if strings.Contains(conf, "$") {
		t.Errorf("nginx configuration has a $ that compose would interpolate:\n%s", conf)
	}
}
