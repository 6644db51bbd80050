// Package files reads the files plantmock is given (documents, scenarios,
// seed data) without reading more than a bound: a file over it is refused
// unread when its size is known, and as soon as the bound is passed when
// it is not.
package files

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Read reads name from fsys, refusing a file of more than max bytes.
func Read(fsys fs.FS, name string, max int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f, name, max)
}

// ReadPath reads a file of the operating system, refusing one of more
// than max bytes.
func ReadPath(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f, name, max)
}

func read(f fs.File, name string, max int64) ([]byte, error) {
	if st, err := f.Stat(); err == nil && st.Size() > max {
		return nil, fmt.Errorf("%s: file of %d bytes is over the limit of %d bytes", name, st.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: file is over the limit of %d bytes", name, max)
	}
	return data, nil
}
