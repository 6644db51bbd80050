package mock

import (
	"net/http"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// recordStatus is what GET /__admin/record answers.
type recordStatus struct {
	Folder    string `json:"folder"`
	Exchanges int    `json:"exchanges"` // kept since the start
	Pending   int    `json:"pending"`   // kept since the last snapshot began, not written yet
	Dropped   int    `json:"dropped"`   // past the bound, not recorded
	Bytes     int64  `json:"bytes"`     // of the exchanges kept, as the bound counts them
	Bound     int64  `json:"bound"`
}

// recordSnapshot is what POST /__admin/record/snapshot answers.
type recordSnapshot struct {
	recordStatus
	Written []string `json:"written"` // the files written, sorted
}

// status reports what the recording holds.
func (r *recording) status() recordStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	return recordStatus{Folder: r.dir, Exchanges: r.kept, Pending: len(r.taken), Dropped: r.dropped, Bytes: r.size, Bound: r.bound}
}

// recordRoutes adds the recording's admin calls.
func (s *Server) recordRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /__admin/record", func(w http.ResponseWriter, r *http.Request) {
		if s.notRecording(w) {
			return
		}
		adminJSON(w, s.recording.status())
	})
	mux.HandleFunc("POST /__admin/record/snapshot", func(w http.ResponseWriter, r *http.Request) {
		if s.notRecording(w) {
			return
		}
		written, err := s.recording.snapshot()
		if err != nil {
			adminError(w, http.StatusInternalServerError, problem.CodeInternal, "the recording was not written whole: "+err.Error())
			return
		}
		if written == nil {
			written = []string{}
		}
		adminJSON(w, recordSnapshot{s.recording.status(), written})
	})
}

// notRecording answers a recording's admin call on a mock that does not
// record, and says so.
func (s *Server) notRecording(w http.ResponseWriter) bool {
	if s.recording != nil {
		return false
	}
	adminError(w, http.StatusNotFound, problem.CodeNoRoute, "the mock is not recording: start it with --proxy URL --record DIR")
	return true
}

// writeRecording writes what the recording holds (see snapshot), at
// shutdown, and logs what it wrote or why it could not.
func (s *Server) writeRecording() error {
	if s.recording == nil {
		return nil
	}
	written, err := s.recording.snapshot()
	st := s.recording.status()
	if err != nil {
		s.log.Error("the recording was not written whole", "folder", st.Folder, "written", written, "error", err.Error())
		return err
	}
	if st.Dropped > 0 {
		s.log.Warn("the recording was full: exchanges were not recorded", "folder", st.Folder, "dropped", st.Dropped, "bound_bytes", st.Bound)
	}
	if len(written) > 0 {
		s.log.Info("recording written", "folder", st.Folder, "files", written, "exchanges", st.Exchanges)
	}
	return nil
}
