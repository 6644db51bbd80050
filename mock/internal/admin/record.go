package admin

import (
	"net/http"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// recordSnapshot is what POST /__admin/record/snapshot answers.
type recordSnapshot struct {
	RecordStatus
	Written []string `json:"written"` // the files written, sorted
}

// recordRoutes adds the recording's admin calls.
func (a *api) recordRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /__admin/record", func(w http.ResponseWriter, r *http.Request) {
		if rec := a.recording(w, r); rec != nil {
			writeJSON(w, rec.Status())
		}
	})
	mux.HandleFunc("POST /__admin/record/snapshot", func(w http.ResponseWriter, r *http.Request) {
		rec := a.recording(w, r)
		if rec == nil {
			return
		}
		written, err := rec.Snapshot()
		if err != nil {
			writeError(w, http.StatusInternalServerError, problem.CodeInternal, "the recording was not written whole: "+err.Error())
			return
		}
		if written == nil {
			written = []string{}
		}
		writeJSON(w, recordSnapshot{rec.Status(), written})
	})
}

// recording returns the mock's recording, or answers that it does not
// record.
func (a *api) recording(w http.ResponseWriter, r *http.Request) Recording {
	rec := a.mockOf(r).Recording()
	if rec == nil {
		writeError(w, http.StatusNotFound, problem.CodeNoRoute, "the mock is not recording: start it with --proxy URL --record DIR")
	}
	return rec
}
