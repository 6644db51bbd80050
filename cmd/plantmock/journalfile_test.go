package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJournalFile: --journal-file appends every session's entries to the
// file, a JSON object a line with credentials masked as the journal masks
// them, across restarts; diff --traffic reads it, naming each entry by
// its place (sessions repeat numbers). A link in the file's place is
// refused, exit 2.
func TestJournalFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "journal.jsonl")
	send := func(url, session, body string) {
		req, err := http.NewRequest("POST", url+"/plants", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer secret-token-1234")
		req.Header.Set("X-Mock-Session", session)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	in, _ := start(t, nil, "--spec", diffOld, "--journal-file", file)
	send(in.url, "a", `{"name":"fern","light":"sun"}`)
	send(in.url, "b", `{"name":"ivy","light":"partial"}`)
	if code := in.stop(t); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, in.stderr)
	}
	in, _ = start(t, nil, "--spec", diffOld, "--journal-file", file)
	send(in.url, "a", `{"name":"Monstera deliciosa variegata","light":"sun"}`)
	if code := in.stop(t); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, in.stderr)
	}

	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var got []string
	for _, l := range lines {
		var e struct {
			Seq     int                 `json:"seq"`
			Session string              `json:"session"`
			Status  int                 `json:"status"`
			Headers map[string][]string `json:"headers"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		got = append(got, strings.Join([]string{e.Session, e.Headers["Authorization"][0]}, " "))
		if e.Seq != 1 || e.Status != 201 {
			t.Errorf("line %q: seq %d, status %d; want seq 1 (each session's first), status 201", l, e.Seq, e.Status)
		}
	}
	if g, w := strings.Join(got, "\n"), "a Bearer ****1234\nb Bearer ****1234\na Bearer ****1234"; g != w {
		t.Errorf("entries:\n%s\nwant\n%s", g, w)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}

	code, stdout, stderr := runIn([]string{"diff", "--fail-on", "traffic", "--traffic", file, diffOld, diffNew})
	want := "recorded exchanges OLD accepted that NEW breaks:\n" +
		"  " + file + ": entry 2: POST /plants -> 201: request-property-enum-value-removed, response-property-enum-value-removed\n" +
		"    request light: value is not one of the allowed values\n" +
		"    response light: value is not one of the allowed values\n" +
		"  " + file + ": entry 3: POST /plants -> 201: request-property-max-length-decreased, response-property-max-length-decreased\n" +
		"    request name: longer than the maximum length 20\n" +
		"    response name: longer than the maximum length 20\n" +
		"plantmock diff: 5 changes from " + diffOld + " to " + diffNew + ": 3 break clients, 2 break providers, 0 compatible; traffic: of 3 recorded exchanges OLD accepted 3; NEW breaks 2 of them\n"
	if code != 1 || stderr != "" || !strings.HasSuffix(stdout, want) {
		t.Errorf("diff: exit %d, stderr %q, stdout:\n%s\nwant exit 1, ending:\n%s", code, stderr, stdout, want)
	}

	link := filepath.Join(t.TempDir(), "link.jsonl")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runIn([]string{"--addr", "127.0.0.1:0", "--journal-file", link})
	if want := "plantmock: cannot open --journal-file: " + link + ": a symbolic link: name the file itself\n"; code != 2 || stderr != want {
		t.Errorf("a link: exit %d, stderr %q; want exit 2, %q", code, stderr, want)
	}
}
