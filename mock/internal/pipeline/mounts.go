package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/mount"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// Mounts are the documents the mock serves, each at its base path, as
// one value: Reload swaps it whole, and a request reads the one current
// when it arrived.
type Mounts struct {
	Docs  []*Served    // in the order they were given; the first is Engine.Served's
	table *mount.Table // nil for one document at /, whose requests skip it
}

// NewMounts mounts docs at their base paths (Served.Mount). One
// document at / is served as the mock always has; several are routed by
// their longest base path, and two that could be given the same request
// are refused (a *mount.OverlapError), as are two of one name.
func NewMounts(docs []*Served) (*Mounts, error) {
	m := &Mounts{Docs: docs}
	if len(docs) == 1 && docs[0].Mount == "" {
		return m, nil
	}
	table := make([]mount.Doc, len(docs))
	for i, sv := range docs {
		paths := make([]string, len(sv.Doc.Operations))
		for j, op := range sv.Doc.Operations {
			paths[j] = op.Path
		}
		table[i] = mount.Doc{Name: sv.Name, Source: sv.Source, Base: sv.Base(), Paths: paths}
	}
	t, err := mount.New(table)
	if err != nil {
		return nil, err
	}
	m.table = t
	return m, nil
}

// Several reports whether more than one document is mounted.
func (m *Mounts) Several() bool { return len(m.Docs) > 1 }

// Find returns the document a request path goes to and the path within
// it; nil when no document is mounted at a base path it starts with.
func (m *Mounts) Find(path string) (sv *Served, rest string) {
	if m.table == nil {
		return m.Docs[0], path
	}
	i, rest, ok := m.table.Find(path)
	if !ok {
		return nil, ""
	}
	return m.Docs[i], rest
}

// Digested returns the document of m whose Digest is d; nil for none,
// or for a nil m.
func (m *Mounts) Digested(d [32]byte) *Served {
	if m == nil {
		return nil
	}
	for _, sv := range m.Docs {
		if sv.Digest == d {
			return sv
		}
	}
	return nil
}

// Declaring returns the first document that declares the webhook called
// name, else the first document.
func (m *Mounts) Declaring(webhook string) *Served {
	for _, sv := range m.Docs {
		if len(sv.Hooks.ByName[webhook]) > 0 {
			return sv
		}
	}
	return m.Docs[0]
}

// Named returns the document called name, or nil.
func (m *Mounts) Named(name string) *Served {
	for _, sv := range m.Docs {
		if sv.Name == name {
			return sv
		}
	}
	return nil
}

// Names lists the documents' names, in order.
func (m *Mounts) Names() []string {
	out := make([]string, len(m.Docs))
	for i, sv := range m.Docs {
		out[i] = sv.Name
	}
	return out
}

// unmounted is the problem of a request whose path is under no
// document's base path.
func (m *Mounts) unmounted(path string) *problem.Problem {
	var bases []string // each once, though several documents share it
	for _, sv := range m.Docs {
		if !slices.Contains(bases, sv.Base()) {
			bases = append(bases, sv.Base())
		}
	}
	return &problem.Problem{Code: problem.CodeNoRoute, Status: 404,
		Message: fmt.Sprintf("no document is mounted at %s; mounted at: %s", Clip(path, 200), strings.Join(bases, ", "))}
}

// Base returns the base path sv is mounted at: "/" for Mount "".
func (sv *Served) Base() string {
	if sv.Mount == "" {
		return "/"
	}
	return sv.Mount
}

// Owner returns how seed data finds the document that keeps a
// collection path, its plans and the path within it.
func (m *Mounts) Owner() answer.Owner {
	return func(path string) (*openapi.Document, answer.Plans, string) {
		sv, rest := m.Find(path)
		if sv == nil {
			return nil, nil, ""
		}
		return sv.Doc, sv.Plans, rest
	}
}
