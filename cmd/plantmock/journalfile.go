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
type journalFile struct {
	name   string
	logger *slog.Logger
	mu     sync.Mutex
	f      *os.File
	lost   int // entries not written since the last failure was logged
}

// openJournalFile opens the file name for appending (see files.Append).
func openJournalFile(name string, logger *slog.Logger) (*journalFile, error) {
	f, err := files.Append(name)
	if err != nil {
		return nil, err
	}
	return &journalFile{name: name, logger: logger, f: f}, nil
}

// observe appends an entry, in one write: a line is never split between
// two entries. It is mock.Options.Observe, on the request's goroutine
// after the answer is sent. A write that fails is logged at its first
// failure; when writing works again, how many entries were lost.
func (j *journalFile) observe(e mock.Entry) {
	line, err := json.Marshal(e)
	line = append(line, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if err == nil {
		_, err = j.f.Write(line)
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

// Close closes the file, saying how many entries were lost since the
// last failure logged.
func (j *journalFile) Close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.lost > 0 {
		j.logger.Warn("the journal file lost entries until the mock stopped", "file", j.name, "lost", j.lost)
	}
	if err := j.f.Close(); err != nil {
		j.logger.Error("the journal file could not be closed", "file", j.name, "error", err.Error())
	}
}
