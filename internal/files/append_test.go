//go:build unix

package files

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestAppend: a file is created with mode 0600 and appended to; a link
// (the file it names untouched), a named pipe (with no reader: opening
// must not wait) and a folder are refused, each with its reason.
func TestAppend(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "journal.jsonl")
	for _, line := range []string{"a\n", "b\n"} {
		f, err := Append(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(line); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if b, err := os.ReadFile(name); err != nil || string(b) != "a\nb\n" {
		t.Errorf("file %q, %v; want %q", b, err, "a\nb\n")
	}
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}

	link := filepath.Join(dir, "link")
	if err := os.Symlink(name, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, want string }{
		{link, link + ": a symbolic link: name the file itself"},
		{fifo, fifo + ": not a regular file but a named pipe"},
		{dir, dir + ": not a regular file but a folder"},
	} {
		if f, err := Append(c.name); err == nil || err.Error() != c.want {
			if f != nil {
				f.Close()
			}
			t.Errorf("Append(%s): %v; want %s", c.name, err, c.want)
		}
	}
	if b, err := os.ReadFile(name); err != nil || string(b) != "a\nb\n" {
		t.Errorf("after the link: %q, %v; want it untouched", b, err)
	}
}
