//go:build unix

package files

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"testing/fstest"
)

// TestOnlyRegularFiles: a named pipe (no one writing it: reading it
// would wait for ever) and a character device are refused with a line
// naming them, by every way of reading; a regular file, and a link to
// one, are read.
func TestOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "spec.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.yaml")
	if err := os.WriteFile(plain, []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(plain, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		read func() ([]byte, error)
		want string // the error, or "" for the content "a: 1\n"
	}{
		{"ReadPath a named pipe", func() ([]byte, error) { return ReadPath(fifo, 100) }, fifo + ": not a regular file but a named pipe"},
		{"ReadPath a device", func() ([]byte, error) { return ReadPath(os.DevNull, 100) }, os.DevNull + ": not a regular file but a character device"},
		{"ReadPath a folder", func() ([]byte, error) { return ReadPath(dir, 100) }, dir + ": not a regular file but a folder"},
		{"ReadPath a regular file", func() ([]byte, error) { return ReadPath(plain, 100) }, ""},
		{"ReadPath a link to one", func() ([]byte, error) { return ReadPath(link, 100) }, ""},
		{"Read DirFS a named pipe", func() ([]byte, error) { return Read(DirFS(dir), "spec.yaml", 100) }, "spec.yaml: not a regular file but a named pipe"},
		{"Read os.DirFS a named pipe", func() ([]byte, error) { return Read(os.DirFS(dir), "spec.yaml", 100) }, "spec.yaml: not a regular file but a named pipe"},
		{"Read DirFS a regular file", func() ([]byte, error) { return Read(DirFS(dir), "plain.yaml", 100) }, ""},
		{"Read a MapFS file", func() ([]byte, error) { return Read(fstest.MapFS{"x": {Data: []byte("a: 1\n")}}, "x", 100) }, ""},
		{"Read a MapFS pipe", func() ([]byte, error) {
			return Read(fstest.MapFS{"x": {Data: []byte("a: 1\n"), Mode: os.ModeNamedPipe}}, "x", 100)
		}, "x: not a regular file but a named pipe"},
		{"DirFS ReadDir a named pipe", func() ([]byte, error) { _, err := DirFS(fifo).ReadDir("."); return nil, err }, fifo + ": not a regular file but a named pipe"},
		{"DirFS ReadDir a missing folder", func() ([]byte, error) { _, err := DirFS(filepath.Join(dir, "no")).ReadDir("."); return nil, err }, "open " + filepath.Join(dir, "no") + ": no such file or directory"},
		{"ReadPath a missing file", func() ([]byte, error) { return ReadPath(filepath.Join(dir, "no"), 100) }, "open " + filepath.Join(dir, "no") + ": no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := tt.read()
			switch {
			case tt.want == "" && (err != nil || string(data) != "a: 1\n"):
				t.Errorf("got %q, %v; want the content", data, err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("got %q, %v; want the error %q", data, err, tt.want)
			}
		})
	}
	var nr *NotRegularError
	if _, err := ReadPath(fifo, 100); !errors.As(err, &nr) || nr.Mode&os.ModeNamedPipe == 0 {
		t.Errorf("the error %v is not a *NotRegularError of a named pipe", err)
	}
}

// TestOpenChecksWhatItOpened: the check is made on the opened file too,
// so that a named pipe swapped in after the first check is refused
// rather than waited on (the swap is played by checking the pipe only
// once it is open).
func TestOpenChecksWhatItOpened(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "p")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := read(f, "p", 100); err == nil || err.Error() != "p: not a regular file but a named pipe" {
		t.Errorf("reading an opened named pipe: %v", err)
	}
}

// TestReadDocumentRefusesEmpty: a document file of 0 bytes is refused
// with ErrEmpty, naming it; one byte is read.
func TestReadDocumentRefusesEmpty(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, text string
		err        error
	}{
		{"empty", "", ErrEmpty},
		{"one byte", "{", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.name)
			if err := os.WriteFile(p, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := ReadDocument(p, 1<<10)
			if !errors.Is(err, tt.err) || string(b) != tt.text || (err != nil && err.Error() != p+": "+ErrEmpty.Error()) {
				t.Errorf("ReadDocument = %q, %v; want %q, %v", b, err, tt.text, tt.err)
			}
		})
	}
}
