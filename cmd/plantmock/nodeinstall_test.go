package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocNodeInstall: docs/testcontainers.md installs the Node package
// so that it can be imported, and says how to build the image and what
// the package needs, as the package and the Dockerfile have it. Running
// the install is .ci/testcontainers's: it takes the page's command.
func TestDocNodeInstall(t *testing.T) {
	page, err := os.ReadFile("../../docs/testcontainers.md")
	if err != nil {
		t.Fatal(err)
	}
	dockerfile, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../../clients/node/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Type    string            `json:"type"`
		Engines map[string]string `json:"engines"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatal(err)
	}
	text := string(page)

	t.Run("install with its dependencies", func(t *testing.T) {
		// npm install of a folder without --install-links links it and
		// installs none of its dependencies: the import then fails with
		// ERR_MODULE_NOT_FOUND 'testcontainers'.
		installs := regexp.MustCompile(`npm install[^\n`+"`"+`]*clients/node`).FindAllString(text, -1)
		if len(installs) == 0 {
			t.Fatal("the page installs clients/node nowhere")
		}
		for _, in := range installs {
			if !strings.Contains(in, "--install-links") {
				t.Errorf("%q links the folder without its dependencies", in)
			}
		}
	})
	t.Run("build the image", func(t *testing.T) {
		// The Dockerfile's comment gives the two commands.
		var build []string
		for _, line := range strings.Split(string(dockerfile), "\n") {
			cmd, ok := strings.CutPrefix(line, "#   ")
			if !ok {
				continue
			}
			cmd, _, _ = strings.Cut(cmd, "  ")
			build = append(build, strings.TrimSpace(cmd))
		}
		if len(build) != 2 {
			t.Fatalf("the Dockerfile's comment gives %q, want the binary's and the image's build", build)
		}
		for _, cmd := range build {
			if !strings.Contains(text, "\n"+cmd) {
				t.Errorf("the page does not give %q", cmd)
			}
		}
	})
	t.Run("Node.js and ES modules", func(t *testing.T) {
		version := strings.TrimPrefix(pkg.Engines["node"], ">=")
		if version == "" || !strings.Contains(text, "**Node.js "+version+" or later**") {
			t.Errorf("the page does not say Node.js %s or later (engines %q)", version, pkg.Engines["node"])
		}
		if pkg.Type != "module" || !strings.Contains(text, "**ES modules**") {
			t.Errorf("the page does not say the package is an ES module (type %q)", pkg.Type)
		}
	})
}
