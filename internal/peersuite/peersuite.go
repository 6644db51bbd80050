// Package peersuite holds what the runs against peers' own test data
// (internal/stripesuite, internal/oasdiffsuite) share: fetching a pinned
// module of the peer through the Go module proxy, and reading the
// section of the docs that lists where plantmock answers differently.
package peersuite

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Download fetches module ("path@version") into the module cache, from
// the Go module proxy unless it is there, and returns its directory.
func Download(module string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", module).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("%v: %s%s", err, exit.Stderr, out)
		}
		return "", fmt.Errorf("go mod download %s: %w", module, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no directory (%v %s)", module, err, info.Error)
	}
	return info.Dir, nil
}

// Section returns the text of doc's section under the line heading, up
// to the next heading of any level; false when doc has no such line.
func Section(doc, heading string) (string, bool) {
	_, section, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		return "", false
	}
	if end := strings.Index(section, "\n#"); end >= 0 {
		section = section[:end]
	}
	return section, true
}
