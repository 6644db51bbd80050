package record

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MaxRecordedName bounds the scenario names of a recording, and so its
// file names: a longer name is cut there and ends in a hash of the whole
// (filesystems hold names of 255 bytes at most).
const MaxRecordedName = 180

// RecordedName is the name of the scenario an operation is recorded in,
// and of its file without ".yaml": "recorded-post-plants" for POST
// /plants, "recorded-get-plants-{id}" for GET /plants/{id}. Two
// operations never share a name (it is injective), on filesystems that
// do not tell case apart too, and no name can leave the recording's
// folder: it is "recorded-", the method in lower case, then the path,
// each byte written as
//
//	a-z 0-9 . { }   itself
//	/               -
//	-               ~
//	_               __
//	A-Z             _ and the letter in lower case (userId: user_id)
//	any other       _ and its value in three decimal digits (NUL: _000)
//
// Every escape starts with "_" and is told apart by the byte after it,
// and the method holds no "-": so a name reads back to one operation.
// A name over maxRecordedName bytes keeps its first maxRecordedName,
// then "-" and 16 hexadecimal digits of the SHA-256 of the whole, a
// length no uncut name has.
func RecordedName(method, path string) string {
	var b strings.Builder
	b.WriteString("recorded-")
	escapeName(&b, strings.ToLower(method))
	escapeName(&b, path)
	name := b.String()
	if len(name) <= MaxRecordedName {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	return name[:MaxRecordedName] + "-" + hex.EncodeToString(sum[:8])
}

// escapeName writes s to b as recordedName says.
func escapeName(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '{', c == '}':
			b.WriteByte(c)
		case c == '/':
			b.WriteByte('-')
		case c == '-':
			b.WriteByte('~')
		case c == '_':
			b.WriteString("__")
		case c >= 'A' && c <= 'Z':
			b.WriteByte('_')
			b.WriteByte(c - 'A' + 'a')
		default:
			fmt.Fprintf(b, "_%03d", c)
		}
	}
}

// WriteFile replaces the file name of the folder dir whole with data
// (see writeFileFrom).
func WriteFile(dir, name string, data []byte) error {
	return WriteFileFrom(dir, name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFileFrom replaces the file name of the folder dir whole with what
// write writes, so that a reader never sees half of it, nor a file cut
// short by a write that failed or a process that died in the middle. The
// data goes to a new temporary file of the folder, created exclusively
// (os.CreateTemp: it never opens a file or a link that is already
// there), then renamed over name: a symbolic link planted at name is
// replaced, not written through. A dying process may leave the temporary
// file (".NAME.*.tmp", which no scenario folder reads), never a part of
// name. name must be a plain file name.
func WriteFileFrom(dir, name string, write func(io.Writer) error) (err error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`+"\x00") || filepath.Base(name) != name {
		return fmt.Errorf("record: %q is not a file name", name)
	}
	f, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	err = write(f)
	if err == nil {
		err = f.Chmod(0o644) // as os.WriteFile under the usual umask: CI reads the recording
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}
