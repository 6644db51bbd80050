package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/cmd/plantmock/internal/heapfloor"
)

// initLine is a line of GODEBUG=inittrace=1: a package's init, its bytes.
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, \d+ allocs$`)

// inits runs the binary with GODEBUG=inittrace=1 and the given
// environment besides the test's own (less GOGC, GOMEMLIMIT and GODEBUG),
// and returns the packages in the order they initialized, with the bytes
// each allocated.
func inits(t *testing.T, env ...string) (order []string, bytes map[string]int) {
	t.Helper()
	cmd := exec.Command(plantmockBinary(t), "version")
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "GOGC" && k != "GOMEMLIMIT" && k != "GODEBUG" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, append(env, "GODEBUG=inittrace=1")...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("plantmock version: %v\n%s", err, out)
	}
	bytes = map[string]int{}
	for _, l := range strings.Split(string(out), "\n") {
		if m := initLine.FindStringSubmatch(l); m != nil {
			order = append(order, m[1])
			bytes[m[1]], _ = strconv.Atoi(m[2])
		}
	}
	return order, bytes
}

// TestHeapFloorLaidFirst: the binary lays its heap floor before the JSON
// Schema library initializes (see package heapfloor for why), and lays
// none when the user tunes the collector.
func TestHeapFloorLaidFirst(t *testing.T) {
	const floor, schemas = "github.com/plantmock/plantmock/cmd/plantmock/internal/heapfloor", "github.com/santhosh-tekuri/jsonschema/v6"
	order, bytes := inits(t)
	at := map[string]int{}
	for i, p := range order {
		at[p] = i + 1
	}
	if at[floor] == 0 || at[schemas] == 0 {
		t.Fatalf("inittrace names %d packages; heapfloor at %d, jsonschema at %d (0: missing)", len(order), at[floor], at[schemas])
	}
	if at[floor] > at[schemas] {
		t.Errorf("heapfloor initialized %dth, after jsonschema (%dth)", at[floor], at[schemas])
	}
	if bytes[floor] < heapfloor.Size {
		t.Errorf("heapfloor allocated %d bytes when it initialized, want at least %d", bytes[floor], heapfloor.Size)
	}
	for _, env := range []string{"GOGC=100", "GOMEMLIMIT=1GiB"} {
		if _, bytes := inits(t, env); bytes[floor] >= 1<<20 {
			t.Errorf("with %s: heapfloor allocated %d bytes when it initialized, want no floor", env, bytes[floor])
		}
	}
}
