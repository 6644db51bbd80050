package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock"
)

// TestJournalFile: --journal-file appends every session's entries to the
// file, a JSON object a line with credentials masked as the journal masks
// them, across restarts (the second with --journal-file-max 0, no
// bound); diff --traffic reads it, naming each entry by its place
// (sessions repeat numbers). A link in the file's place is refused,
// exit 2.
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
	in, _ = start(t, nil, "--spec", diffOld, "--journal-file", file, "--journal-file-max", "0")
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

// TestJournalFileMax: a journal file that would pass its bound is moved
// to FILE.1, replacing the one there, and a new one started: the two
// hold the newest entries, each whole. An entry over the bound alone
// goes whole to a file of its own. A file that cannot be moved is
// written on, and nothing is lost.
func TestJournalFileMax(t *testing.T) {
	entry := func(seq uint64, path string) mock.Entry {
		return mock.Entry{Seq: seq, Method: "GET", Path: path, Status: 200}
	}
	lineOf := func(e mock.Entry) string {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return string(b)
	}
	es := []mock.Entry{entry(1, "/plants/1"), entry(2, "/plants/2"), entry(3, "/plants/3"), entry(4, "/plants/4"), entry(5, "/plants/5")}
	size := int64(len(lineOf(es[0])))

	t.Run("rotated", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "journal.jsonl")
		if err := os.WriteFile(file+".1", []byte("older\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		j, err := openJournalFile(file, 2*size, untimed(&logs))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			j.observe(e)
		}
		// An entry over the bound on its own: in a file of its own.
		big := entry(6, "/plants/"+strings.Repeat("x", int(3*size)))
		j.observe(big)
		j.observe(es[0])
		j.Close()
		if got, want := read(file+".1"), lineOf(big); got != want {
			t.Errorf("%s.1:\n%s\nwant:\n%s", file, got, want)
		}
		if got, want := read(file), lineOf(es[0]); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", file, got, want)
		}
		moved := fmt.Sprintf("level=INFO msg=\"the journal file is full: moved to %s.1, a new one started\" file=%s max=%d\n", file, file, 2*size)
		if want := strings.Repeat(moved, 4); logs.String() != want {
			t.Errorf("log:\n%s\nwant:\n%s", logs.String(), want)
		}
	})

	t.Run("kept when full", func(t *testing.T) {
		// The file holds two entries already, from a run before.
		file := filepath.Join(t.TempDir(), "journal.jsonl")
		if err := os.WriteFile(file, []byte(lineOf(es[0])+lineOf(es[1])), 0o600); err != nil {
			t.Fatal(err)
		}
		j, err := openJournalFile(file, 3*size, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		j.observe(es[2])
		j.observe(es[3])
		j.Close()
		if got, want := read(file+".1"), lineOf(es[0])+lineOf(es[1])+lineOf(es[2]); got != want {
			t.Errorf("%s.1:\n%s\nwant:\n%s", file, got, want)
		}
		if got, want := read(file), lineOf(es[3]); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", file, got, want)
		}
	})

	t.Run("no bound", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "journal.jsonl")
		j, err := openJournalFile(file, 0, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		for _, e := range es {
			j.observe(e)
			want += lineOf(e)
		}
		j.Close()
		if got := read(file); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", file, got, want)
		}
		if _, err := os.Stat(file + ".1"); !os.IsNotExist(err) {
			t.Errorf("%s.1: %v; want none", file, err)
		}
	})

	t.Run("cannot be moved", func(t *testing.T) {
		// A folder at FILE.1: the rename fails, and the file grows on.
		file := filepath.Join(t.TempDir(), "journal.jsonl")
		if err := os.MkdirAll(filepath.Join(file+".1", "kept"), 0o700); err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		j, err := openJournalFile(file, size, untimed(&logs))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es[:3] {
			j.observe(e)
		}
		j.Close()
		if got, want := read(file), lineOf(es[0])+lineOf(es[1])+lineOf(es[2]); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", file, got, want)
		}
		if want := "level=ERROR msg=\"the journal file is full and could not be moved: it grows on\" file=" + file; !strings.HasPrefix(logs.String(), want) || strings.Count(logs.String(), "\n") != 1 {
			t.Errorf("log:\n%s\nwant one line starting %s", logs.String(), want)
		}
	})
}

// untimed is a text logger to w whose records have no time.
func untimed(w *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
}
