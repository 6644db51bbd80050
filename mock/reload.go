package mock

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
)

// ReloadStatus says how the last reload went: GET /__admin/reload gives
// it, and the event stream sends it after every attempt.
type ReloadStatus struct {
	// Reloads counts the reloads that took effect.
	Reloads int `json:"reloads"`
	// Time is when the last one was tried; zero before any.
	Time time.Time `json:"time,omitzero"`
	// Problem says why the last attempt failed, in which case the mock
	// goes on serving what it served before; empty when it took effect.
	Problem string `json:"problem,omitempty"`
	// Misfits are the stored resources that do not fit the document
	// served now, one line each: they stay stored, and lists leave them
	// out, but a client would not get them from a real service.
	Misfits []string `json:"misfits,omitempty"`
	// Read names, where the mock serves several documents, those the
	// last reload read again: the others had not changed.
	Read []string `json:"read,omitempty"`
}

// reloads owns the ReloadStatus.
type reloads struct {
	mu     sync.Mutex // guards status
	status ReloadStatus
}

func (rl *reloads) get() ReloadStatus {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	st := rl.status
	st.Misfits = append([]string(nil), st.Misfits...)
	st.Read = append([]string(nil), st.Read...)
	return st
}

// Reload serves what load gives instead of what the mock serves now: the
// document, scenarios and webhooks of the Content, and the store filled
// from its SeedData when it has some. It is the one way to reload, from
// Go or from plantmock's --watch: load reads the new content (files, say)
// and its error, such as a file that does not read, fails the reload.
//
// The content is checked as New checks it. If load or the check fails,
// the mock goes on serving what it served, and the error says why.
// Otherwise the content is swapped in whole between requests (a request
// reads one or the other, never a mix), keeping the store, sessions,
// journals and subscribers; the active scenario of each session stays
// active if a scenario of its name is still loaded, and rule counters
// start again. Either way the returned ReloadStatus is what GET
// /__admin/reload gives next, and the event stream sends it.
func (s *Server) Reload(load func() (Content, error)) (ReloadStatus, error) {
	c, err := load()
	if err != nil {
		return s.reloadFailed(err), err
	}
	m, err := s.build(c, s.e.Mounted())
	if err != nil {
		return s.reloadFailed(err), err
	}
	if len(c.SeedData) > 0 {
		if err := s.e.SeedData(m.Owner(), s.e.Sessions.Def, c.SeedData); err != nil {
			return s.reloadFailed(err), err
		}
	}
	misfits := s.misfits(context.Background(), m)
	for _, m := range misfits {
		s.e.Log.Warn("a stored resource does not fit the reloaded document", "resource", m)
	}
	// The status changes with what is served: whoever sees the one sees
	// the other.
	s.reloads.mu.Lock()
	seen := map[[2]string]int64{}
	for _, sv := range s.e.Mounted().Docs {
		for _, pl := range sv.Plans {
			seen[[2]string{sv.Name, pl.Op.Name}] = pl.Seen.Load()
		}
	}
	var scenarios, read []string
	for _, sv := range m.Docs {
		if m.Several() && sv.Read {
			read = append(read, sv.Name)
		}
		for _, pl := range sv.Plans {
			pl.Seen.Store(seen[[2]string{sv.Name, pl.Op.Name}]) // the contract report's counts go on
		}
		scenarios = append(scenarios, sv.Scenarios.Names())
	}
	s.reloads.status.Reloads++
	s.reloads.status.Time = time.Now()
	s.reloads.status.Problem = ""
	s.reloads.status.Misfits = misfits
	s.reloads.status.Read = read
	s.e.Docs.Store(m)
	s.reloads.mu.Unlock()
	// Connections are checked against the allow list when they are made:
	// those kept open under the old list are not used again.
	s.sender.Deliveries.CloseIdleConnections()
	st := s.reloads.get()
	s.e.Log.Info("reloaded", "spec", s.Title(), "scenarios", strings.Join(scenarios, "; "), "misfits", len(misfits))
	s.events.PublishReload(st)
	return st, nil
}

// reloadFailed notes a reload that failed: its error is the reload
// status's problem until a reload takes effect.
func (s *Server) reloadFailed(err error) ReloadStatus {
	s.reloads.mu.Lock()
	s.reloads.status.Time = time.Now()
	s.reloads.status.Problem = err.Error()
	s.reloads.mu.Unlock()
	st := s.reloads.get()
	s.e.Log.Error("reload failed: still serving the previous version", "problem", err.Error())
	s.events.PublishReload(st)
	return st
}

// misfits lists the stored resources of the default and named sessions
// of this process that do not satisfy the create schema of their
// collection in the document of m that keeps it, or whose collection it
// does not declare.
func (s *Server) misfits(ctx context.Context, m *pipeline.Mounts) []string {
	names := append([]string{""}, s.e.Sessions.Backend.Names()...)
	var out []string
	for _, sess := range names {
		dump, err := s.e.Store.Dump(ctx, sess)
		if err != nil {
			out = append(out, fmt.Sprintf("session %q: the store could not be read: %v", sess, err))
			continue
		}
		for _, col := range answer.Resources(dump) {
			sv, _ := m.Find(col.Name)
			if sv == nil {
				out = append(out, fmt.Sprintf("%s: %d resource(s) under no document's base path", col.Name, len(col.Docs)))
				continue
			}
			out = append(out, sv.MisfitsOf(sess, col)...)
		}
	}
	return out
}
