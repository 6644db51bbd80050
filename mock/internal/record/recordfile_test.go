package record_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/record"
)

// TestRecordedName: paths that differ only in "-", "/", "_", case or a
// template, and hostile paths, give plain file names of the folder,
// every one apart from the others, and a long path a name of bounded
// length that ends in a hash; WriteFile creates each inside the folder
// and nothing beside it.
func TestRecordedName(t *testing.T) {
	long := "/" + strings.Repeat("x", 300)
	tests := []struct{ method, path, want string }{
		{"POST", "/plants", "recorded-post-plants"},
		{"GET", "/plants/{id}", "recorded-get-plants-{id}"},
		{"GET", "/users/{userId}/v1.2", "recorded-get-users-{user_id}-v1.2"},
		{"GET", "/../../etc/passwd", "recorded-get-..-..-etc-passwd"},
		{"GET", "/..", "recorded-get-.."},
		{"GET", "//abs", "recorded-get--abs"},
		{"GET", "/a\x00b", "recorded-get-a_000b"},
		{"GET", `/a\b`, "recorded-get-a_092b"},
		{"GET", "/a:b*c?", "recorded-get-a_058b_042c_063"},
		{"GET", "/caf\u00e9", "recorded-get-caf_195_169"},
		{"GET", "/a b", "recorded-get-a_032b"},
		{"GET", "/a%2Fb", "recorded-get-a_0372_fb"},
		{"GET", "/a-b", "recorded-get-a~b"},
		{"GET", "/a/b", "recorded-get-a-b"},
		{"GET", "/a_b", "recorded-get-a__b"},
		{"GET", "/A/b", "recorded-get-_a-b"},
		{"GET", "/a/{b}", "recorded-get-a-{b}"},
		{"GET", "/_a/b", "recorded-get-__a-b"},
		{"GET", "/_A/b", "recorded-get-___a-b"},
		{"GET", "/a/_b", "recorded-get-a-__b"},
		{"GET", "/a_/b", "recorded-get-a__-b"},
		{"M-SEARCH", "/", "recorded-m~search-"},
		{"GET", long, "recorded-get-" + strings.Repeat("x", record.MaxRecordedName-len("recorded-get-")) + "-fe2918a7a0caf6fd"},
		{"GET", long + "y", "recorded-get-" + strings.Repeat("x", record.MaxRecordedName-len("recorded-get-")) + "-e1392849acaba9ff"},
	}
	dir := filepath.Join(t.TempDir(), "rec")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, tt := range tests {
		name := record.RecordedName(tt.method, tt.path)
		if name != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.method, tt.path, name, tt.want)
		}
		if other, ok := seen[name]; ok {
			t.Errorf("%s %q and %s share the name %q", tt.method, tt.path, other, name)
		}
		seen[name] = tt.method + " " + tt.path
		if len(name) > record.MaxRecordedName+17 {
			t.Errorf("%s %q: %q is longer than %d", tt.method, tt.path, name, record.MaxRecordedName+17)
		}
		if err := record.WriteFile(dir, name+".yaml", []byte(tt.path)); err != nil {
			t.Errorf("%s %q: %v", tt.method, tt.path, err)
		}
		if got := readFile(t, dir, name+".yaml"); got != tt.path {
			t.Errorf("%s %q: read back %q", tt.method, tt.path, got)
		}
	}
	if got := files(t, filepath.Dir(dir)); got != "rec" {
		t.Errorf("beside the folder: %s", got)
	}
	if got := strings.Count(files(t, dir), ".yaml"); got != len(tests) {
		t.Errorf("%d files in the folder, want %d: %s", got, len(tests), files(t, dir))
	}
}

// TestWriteFileNames: WriteFile writes only plain file names of the
// folder.
func TestWriteFileNames(t *testing.T) {
	dir := t.TempDir()
	for _, bad := range []string{"", ".", "..", "../x", "a/b", `a\b`, "/abs", "a\x00b"} {
		err := record.WriteFile(dir, bad, []byte("x"))
		if want := "record: " + `"` + strings.ReplaceAll(strings.ReplaceAll(bad, `\`, `\\`), "\x00", `\x00`) + `" is not a file name`; err == nil || err.Error() != want {
			t.Errorf("WriteFile %q: %v, want %s", bad, err, want)
		}
	}
	if got := files(t, dir); got != "" {
		t.Errorf("files: %s", got)
	}
}

// TestWriteFileWholeOrOld: a write that breaks off in the middle, as a
// dying process's would, leaves the file as it was and no temporary
// file; one that cannot start says why.
func TestWriteFileWholeOrOld(t *testing.T) {
	dir := t.TempDir()
	name := "recorded-post-plants.yaml"
	if err := record.WriteFile(dir, name, []byte("old whole\n")); err != nil {
		t.Fatal(err)
	}
	broke := errors.New("disk gone")
	err := record.WriteFileFrom(dir, name, func(w io.Writer) error {
		io.WriteString(w, `{"name": "recorded-post-pl`)
		return broke
	})
	if !errors.Is(err, broke) || err.Error() != "record: disk gone" {
		t.Errorf("WriteFileFrom: %v, want %v", err, broke)
	}
	if got := readFile(t, dir, name); got != "old whole\n" {
		t.Errorf("%s after a broken write: %q", name, got)
	}
	if got := files(t, dir); got != name {
		t.Errorf("files after a broken write: %s", got)
	}
	if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("%s: mode %v %v, want 0644", name, fi, err)
	}

	gone := filepath.Join(dir, "gone")
	err = record.WriteFile(gone, name, nil)
	if !errors.Is(err, os.ErrNotExist) || !matches("record: open "+gone+"/.recorded-post-plants.yaml.*.tmp: no such file or directory", err.Error()) {
		t.Errorf("WriteFile into no folder: %v", err)
	}
}

// TestWriteFileThroughPlantedLinks: symbolic links planted in the folder
// at a recording's file names, and at names its temporary files might
// have, never make it write outside the folder: the file they point at
// is unchanged, and the recording's files are regular files of the
// folder.
func TestWriteFileThroughPlantedLinks(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(outside, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, dir := newRecording(t)
	planted := []string{"recorded-post-plants.yaml", "recorded-post-plants.yaml.tmp", record.SeedDataFile, record.SeedDataFile + ".tmp"}
	for _, name := range planted {
		if err := os.Symlink(outside, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	tell(t, r, session[0])
	snapshot(t, r, "recorded-post-plants.yaml seed-data.json")

	if b, err := os.ReadFile(outside); err != nil || string(b) != "keep me\n" {
		t.Fatalf("the file outside the folder was written: %q %v", b, err)
	}
	for _, name := range []string{"recorded-post-plants.yaml", record.SeedDataFile} {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s is not a regular file of the folder: %v %v", name, fi, err)
		}
	}
	if got, want := readFile(t, dir, record.SeedDataFile), "{\n  \"/plants\": [\n    {\n      \"id\": 1,\n      \"name\": \"fern\"\n    }\n  ]\n}\n"; got != want {
		t.Errorf("seed data:\n%s\nwant\n%s", got, want)
	}
	want := `[{"when":{"operation":"POST /plants","body":{"id":1,"name":"fern"}},"respond":{"status":201,"headers":{"X-Trace":"t-1"},"body":{"id":1,"name":"fern"}}}]`
	if got := rules(t, dir, "recorded-post-plants"); got != want {
		t.Errorf("rules:\n%s\nwant\n%s", got, want)
	}
	// The planted temporary names are left as they were, and no
	// temporary file stays behind.
	if got := files(t, dir); got != "recorded-post-plants.yaml recorded-post-plants.yaml.tmp seed-data.json seed-data.json.tmp" {
		t.Errorf("files: %s", got)
	}
}
