package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestSeveralSpecs: --spec repeated (or PLANTMOCK_SPEC with commas)
// serves documents side by side, each at its BASE=; check checks them
// all; documents that overlap stop start-up with one line.
func TestSeveralSpecs(t *testing.T) {
	const tasks, hooks = "../../examples/tasks.yaml", "../../examples/webhooks.yaml"
	for _, c := range []struct {
		name string
		env  []string
		args []string
	}{
		{"flags", nil, []string{"--spec", "/tasks=" + tasks, "--spec", "/hooks=" + hooks}},
		{"variable", []string{"PLANTMOCK_SPEC=/tasks=" + tasks + ", /hooks=" + hooks}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, title := start(t, c.env, c.args...)
			if title != "Task Board 2.1.0, Plants with webhooks 1.0.0" {
				t.Errorf("serving %q", title)
			}
			for _, r := range []struct{ method, path, body, want string }{
				{"POST", "/tasks/notes", `{"text":"water"}`, `201 {"noteId":1,"text":"water"}`},
				{"GET", "/tasks/notes/1", "", `200 {"noteId":1,"text":"water"}`},
				{"POST", "/hooks/plants", `{"id":1,"name":"Fern"}`, `200 {"name":"Fern"}`},
				{"GET", "/notes", "", `404 {"code":40400,"title":"Not Found","detail":"no document is mounted at /notes; mounted at: /tasks, /hooks"}`},
			} {
				req, _ := http.NewRequest(r.method, in.url+r.path, strings.NewReader(r.body))
				req.Header.Set("X-API-Key", "k")
				req.Header.Set("Authorization", "Bearer t")
				if r.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if got := resp.Status[:3] + " " + string(b); got != r.want {
					t.Errorf("%s %s: %s\nwant %s", r.method, r.path, got, r.want)
				}
			}
			if code := in.stop(t); code != 0 {
				t.Errorf("exit %d; stderr: %s", code, in.stderr)
			}
		})
	}
	runCLICases(t, []cliCase{
		{name: "check", args: []string{"check", "--spec", "/tasks=" + tasks, "--spec", "/hooks=" + hooks},
			out: "plantmock: Task Board 2.1.0, Plants with webhooks 1.0.0 and scenarios first-call-fails, first-create-fails, flaky, slow, store-busy, tag-policy are fine\n"},
		{name: "overlap", args: []string{"check", "--spec", "a:/x=" + tasks, "--spec", "b:/x=" + tasks}, code: 2,
			errText: "plantmock: --spec: OpenAPI document: documents a (" + tasks + " at /x) and b (" + tasks + " at /x) could both be given /x/tasks: both declare /tasks; mount them at base paths that do not overlap (--spec /name=file)\n"},
		{name: "disjoint at one base", args: []string{"check", "--spec", tasks, "--spec", hooks},
			out: "plantmock: Task Board 2.1.0, Plants with webhooks 1.0.0 and scenarios first-call-fails, first-create-fails, flaky, slow, store-busy, tag-policy are fine\n"},
		{name: "one name twice", args: []string{"check", "--spec", "/x=" + tasks, "--spec", "/sms=" + tasks, "--spec", "/sms=" + hooks}, code: 2,
			errText: "plantmock: --spec: OpenAPI document: documents sms (" + tasks + " at /sms) and sms (" + hooks + " at /sms) are both named \"sms\"; name each with --spec NAME:/sms=FILE\n"},
		{name: "named at one base", args: []string{"check", "--spec", "notes:/sms=" + tasks, "--spec", "plants:/sms=" + hooks},
			out: "plantmock: Task Board 2.1.0, Plants with webhooks 1.0.0 and scenarios first-call-fails, first-create-fails, flaky, slow, store-busy, tag-policy are fine\n"},
		{name: "no name before the base", args: []string{"check", "--spec", ":/sms=" + tasks}, code: 2,
			errText: "plantmock: --spec: \":/sms=" + tasks + "\" names no document before :/sms=\n"},
		{name: "no file after the base", args: []string{"check", "--spec", "/tasks="}, code: 2,
			errText: "plantmock: --spec: \"/tasks=\" names no file after /tasks=\n"},
		{name: "a bad base", args: []string{"check", "--spec", "/a//b=" + tasks, "--spec", hooks}, code: 2,
			errText: "plantmock: --spec: OpenAPI document: " + tasks + ": base path \"/a//b\" has an empty, . or .. segment\n"},
	})
}
