package main

import (
	"encoding/json"
	"log/slog"
	"os"
	"sync"

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock"
)

// journalFile appends each entry of the mock's journal to a file, a JSON
// object a line as GET /__admin/requests writes each: the exchanges of
// every session and the webhooks and callbacks sent, past the 1,000 the
// journal keeps, for check --traffic and diff --traffic to read later.
// Credentials are kept as the journal keeps them (--journal-credentials).
//
// A file that would pass max bytes (--journal-file-max; 0 for no bound)
// is moved to name.1, replacing the one there, and a new one is started:
// the two files hold the newest entries, within twice max.
type journalFile struct {
	name   string
	max    int64
	logger *slog.Logger
	mu     sync.Mutex // guards what follows
	f      *os.File   // nil when it could not be opened again
	size   int64      // bytes in f
	lost   int        // entries not written since the last failure was logged
}

// openJournalFile opens the file name for appending (see files.Append).
func openJournalFile(name string, max int64, logger *slog.Logger) (*journalFile, error) {
	j := &journalFile{name: name, max: max, logger: logger}
	return j, j.open()
}

// open opens the file for appending, and reads its size.
func (j *journalFile) open() error {
	f, err := files.Append(j.name)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	j.f, j.size = f, fi.Size()
	return nil
}

// observe appends an entry, in one write: a line is never split between
// two entries, nor between two files. It is mock.Options.Observe, on the
// request's goroutine after the answer is sent. A write that fails is
// logged at its first failure; when writing works again, how many
// entries were lost.
func (j *journalFile) observe(e mock.Entry) {
	line, err := json.Marshal(e)
	line = append(line, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if err == nil && j.max > 0 && j.size > 0 && j.size+int64(len(line)) > j.max {
		err = j.rotate()
	}
	if err == nil && j.f == nil {
		err = j.open()
	}
	if err == nil {
		var n int
		n, err = j.f.Write(line)
		j.size += int64(n)
	}
	switch {
	case err != nil && j.lost == 0:
		j.logger.Error("the journal file lost an entry", "file", j.name, "error", err.Error())
		j.lost++
	case err != nil:
		j.lost++
	case j.lost > 0:
		j.logger.Warn("the journal file is written again", "file", j.name, "lost", j.lost)
		j.lost = 0
	}
}

// rotate moves the full file to name.1 and opens a new one. When the
// move fails, the file is written on: an entry is not lost for it.
func (j *journalFile) rotate() error {
	if err := j.f.Close(); err != nil {
		j.f = nil
		return err
	}
	j.f = nil
	if err := os.Rename(j.name, j.name+".1"); err != nil {
		j.logger.Error("the journal file is full and could not be moved: it grows on", "file", j.name, "error", err.Error())
		j.max = 0
		return nil // open, in observe, appends to it again
	}
	j.logger.Info("the journal file is full: moved to "+j.name+".1, a new one started", "file", j.name, "max", j.max)
	return j.open()
}

// Close closes the file, saying how many entries were lost since the
// last failure logged.
func (j *journalFile) Close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.lost > 0 {
		j.logger.Warn("the journal file lost entries until the mock stopped", "file", j.name, "lost", j.lost)
	}
	if j.f == nil {
		return
	}
	if err := j.f.Close(); err != nil {
		j.logger.Error("the journal file could not be closed", "file", j.name, "error", err.Error())
	}
}
