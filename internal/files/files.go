// Package files reads the files plantmock is given (documents, scenarios,
// seed data) without reading more than a bound: a file over it is refused
// unread when its size is known, and as soon as the bound is passed when
// it is not. Only regular files are read: a named pipe, a device or a
// socket is refused before a byte is read, so that a reader never waits
// on one. The one file it writes, Append's, it opens as safely.
package files

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"
)

// NotRegularError is the refusal of a file that is not a regular file:
// a named pipe, a device, a socket (or a folder where a file was meant).
type NotRegularError struct {
	Name string
	Mode fs.FileMode
}

// Error names the file and what it is.
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file but %s", e.Name, kind(e.Mode))
}

// kind names a file's type for a message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "of type " + m.Type().String()
}

// Regular refuses, with a *NotRegularError, a file whose information
// says it is not a regular file (a folder too, unless dir allows one).
// It is the one check of every file plantmock reads; it is made on the
// information of the opened file as well as before opening, so that a
// named pipe swapped in between is refused all the same.
func Regular(name string, fi fs.FileInfo, dir bool) error {
	if fi.Mode().IsRegular() || dir && fi.IsDir() {
		return nil
	}
	return &NotRegularError{Name: name, Mode: fi.Mode()}
}

// Read reads name from fsys, refusing a file of more than max bytes and
// one that is not a regular file. The file is checked before it is
// opened, then again once opened.
func Read(fsys fs.FS, name string, max int64) ([]byte, error) {
	if fi, err := fs.Stat(fsys, name); err == nil { // else opening says why
		if err := Regular(name, fi, false); err != nil {
			return nil, err
		}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f, name, max)
}

// ErrTooLarge is what reading a file over its limit fails with (wrapped,
// with the file's name and the limit).
var ErrTooLarge = errors.New("over the limit")

// ErrEmpty is what ReadDocument fails with (wrapped, with the file's
// name) for a file of 0 bytes.
var ErrEmpty = errors.New("an empty file, not a document")

// ReadDocument is ReadPath for a document, refusing a file of 0 bytes
// too: an empty document given by name is a mistake, never the default
// an empty []byte stands for in mock.Options.
func ReadDocument(name string, max int64) ([]byte, error) {
	b, err := ReadPath(name, max)
	if err == nil && len(b) == 0 {
		return nil, fmt.Errorf("%s: %w", name, ErrEmpty)
	}
	return b, err
}

// ReadPath reads a file of the operating system, refusing one of more
// than max bytes and one that is not a regular file.
func ReadPath(name string, max int64) ([]byte, error) {
	f, err := open(name, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f, name, max)
}

// Append opens the file name for appending, creating it (mode 0600)
// when it is not there. It refuses a link at name (and never writes
// through one put there after the check: O_NOFOLLOW) and what is not a
// regular file, before opening it and again once open, never waiting on
// a named pipe (O_NONBLOCK).
func Append(name string) (*os.File, error) {
	linked := fmt.Errorf("%s: a symbolic link: name the file itself", name)
	if fi, err := os.Lstat(name); err == nil { // else opening says why
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, linked
		}
		if err := Regular(name, fi, false); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow|syscall.O_NONBLOCK, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, linked
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = Regular(name, fi, false)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// open opens a regular file (or a folder, when dir allows one) for
// reading. It checks the file before opening it, and opens it without
// waiting (O_NONBLOCK: opening a named pipe that no one writes returns at
// once), then checks what was opened: a named pipe swapped in between the
// two is refused rather than waited on.
func open(name string, dir bool) (*os.File, error) {
	if fi, err := os.Stat(name); err == nil { // else opening says why
		if err := Regular(name, fi, dir); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := Regular(name, fi, dir); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// DirFS is os.DirFS(dir) whose files are opened as ReadPath opens them:
// only regular files and folders, never waiting on a named pipe.
type DirFS string

var _ fs.ReadDirFS = DirFS("")

// Open opens a regular file or a folder under the folder.
func (d DirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := open(filepath.Join(string(d), filepath.FromSlash(name)), true)
	if err != nil {
		return nil, d.relative(err, name)
	}
	return f, nil
}

// relative names a file by its name in the folder in an error about it,
// as os.DirFS does; the folder itself keeps its own name.
func (d DirFS) relative(err error, name string) error {
	if name == "." {
		name = string(d)
	}
	var nr *NotRegularError
	var pe *fs.PathError
	switch {
	case errors.As(err, &nr):
		nr.Name = name
	case errors.As(err, &pe):
		pe.Path = name
	}
	return err
}

// ReadDir lists a folder under the folder, sorted by name.
func (d DirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	f, err := open(filepath.Join(string(d), filepath.FromSlash(name)), true)
	if err != nil {
		return nil, d.relative(err, name)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, err
}

func read(f fs.File, name string, max int64) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := Regular(name, st, false); err != nil {
		return nil, err
	}
	if st.Size() > max {
		return nil, fmt.Errorf("%s: file of %d bytes is %w of %d bytes", name, st.Size(), ErrTooLarge, max)
	}
	// Room for the whole file at once: io.ReadAll grows its buffer by
	// doubling, which for GitHub's 13 MB description allocated and copied
	// about twice the file, each time into fresh pages (a sixth of
	// `plantmock check` on it went here, by perf). The MinRead spare
	// lets the buffer see the end of the file without growing.
	var buf bytes.Buffer
	buf.Grow(int(min(st.Size(), max)) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	data := buf.Bytes()
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: file is %w of %d bytes", name, ErrTooLarge, max)
	}
	return data, nil
}
