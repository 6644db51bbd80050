// Package traffic reads recorded traffic into one list of exchanges, to
// judge against a document: HTTP Archives (HAR 1.2), the mock's journal
// as GET /__admin/requests answers it, and the scenario files of a
// recording of --record. Which of them a file is, it tells from the
// content, never the file's name. It judges nothing itself: the
// pipeline does, as it judges the requests it answers.
package traffic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/plantmock/plantmock/internal/files"
)

// MaxRead bounds the bytes ReadPaths reads, over all its files: a file
// that would take it past is refused unread when its size is known.
const MaxRead = 256 << 20

// Exchange is one recorded exchange: the request, as the client sent it
// or as much of it as the record kept, and the answer.
type Exchange struct {
	// Source says where the exchange was recorded: "plants.har: entry 3",
	// "requests.json: seq 12", "recorded-post-plants.yaml: rule 2".
	Source  string
	Request *http.Request
	// Partial is set when the record kept of the request only its route
	// and its body (a recording): its credentials, query, headers and
	// the mock's own controls are not to be judged.
	Partial bool
	// BodyCut is set when the record kept only the start of the request's
	// body (the journal's 64 KiB): the body is not to be judged.
	BodyCut bool
	// Status is the answer's; 0 when no answer was recorded.
	Status int
	// AnswerMocked is set when the answer was the mock's own refusal
	// (the journal's entries with an error code): it is not judged.
	AnswerMocked bool
	// AnswerHeader holds the answer's headers; nil when the record did
	// not keep them (the journal, a recording): they are not to be
	// judged, and the answer's media type is to be told from its body.
	AnswerHeader http.Header
	// Answer is the answer's body when AnswerKnown; when the record did
	// not keep it whole, AnswerKnown is false and only the status is to
	// be judged.
	Answer      []byte
	AnswerKnown bool
}

// ReadPaths reads the exchanges of the files at paths, in order, each in
// whichever format it is (see Read). A folder is read as a recording:
// each of its files that is a scenario a recording wrote, in name order;
// the others (its seed data) are passed over. It reads MaxRead bytes at
// most, and refuses anything that is not a regular file or a folder.
func ReadPaths(paths []string) ([]Exchange, error) { return readPaths(paths, MaxRead) }

// readPaths is ReadPaths reading bound bytes at most.
func readPaths(paths []string, bound int64) ([]Exchange, error) {
	var out []Exchange
	room := bound
	read := func(name string) ([]byte, error) {
		b, err := files.ReadPath(name, room)
		if errors.Is(err, files.ErrTooLarge) && room < bound {
			return nil, fmt.Errorf("%s: with the files before it, over the limit of %d bytes of traffic", name, bound)
		}
		room -= int64(len(b))
		return b, err
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			data, err := read(p)
			if err != nil {
				return nil, err
			}
			xs, err := Read(p, data)
			if err != nil {
				return nil, err
			}
			out = append(out, xs...)
			continue
		}
		xs, err := readRecording(p, read)
		if err != nil {
			return nil, err
		}
		out = append(out, xs...)
	}
	return out, nil
}

// readRecording reads a recording's folder: the exchanges of each of its
// files that is a recorded scenario, in name order.
func readRecording(dir string, read func(string) ([]byte, error)) ([]Exchange, error) {
	entries, err := files.DirFS(dir).ReadDir(".")
	if err != nil {
		return nil, err
	}
	var out []Exchange
	found := false
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") { // a snapshot's temporary files
			continue
		}
		name := filepath.Join(dir, e.Name())
		data, err := read(name)
		if err != nil {
			return nil, err
		}
		top, err := object(data)
		if err != nil || top["rules"] == nil {
			continue // the seed data, or a file of someone else's
		}
		xs, err := readScenario(name, top)
		if err != nil {
			return nil, err
		}
		out, found = append(out, xs...), true
	}
	if !found {
		return nil, fmt.Errorf("%s: a folder without a scenario file a recording of --record wrote", dir)
	}
	return out, nil
}

// Read reads the exchanges of a file named name (for messages and
// Exchange.Source), telling its format from data: an HTTP Archive has
// "log", the journal "requests", a recording's scenario "rules".
func Read(name string, data []byte) ([]Exchange, error) {
	top, err := object(data)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %s: %v", name, unknown, err)
	case top["log"] != nil:
		return readHAR(name, top["log"])
	case top["requests"] != nil:
		return readJournal(name, top["requests"])
	case top["rules"] != nil:
		return readScenario(name, top)
	}
	return nil, fmt.Errorf("%s: %s: a JSON object without log, requests or rules", name, unknown)
}

// unknown says which formats a file can be in.
const unknown = "not recorded traffic (a HAR 1.2 archive, the journal of GET /__admin/requests, or a scenario file or folder of --record)"

// object decodes data as a JSON object, its members left undecoded.
func object(data []byte) (map[string]json.RawMessage, error) {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, err
	}
	return top, nil
}

// newRequest makes the request of an exchange read from source.
func newRequest(source, method, target string, header http.Header, body []byte) (*http.Request, error) {
	r, err := http.NewRequest(method, target, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", source, err)
	}
	if header != nil {
		r.Header = header
	}
	return r, nil
}
