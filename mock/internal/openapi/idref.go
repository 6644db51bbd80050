package openapi

import (
	"fmt"
	"strings"

	"github.com/plantmock/plantmock/internal/clip"
)

// Within a schema that has its own $id (3.1), JSON Schema resolves a
// reference against the $id: $ref "#/components/schemas/Pet" there names
// /components/schemas/Pet inside that schema, where there is usually
// nothing, and the document could not be compiled. Authors who write it
// mean the OpenAPI document's components (Scalar's Galaxy does, and
// Prism serves it so), so a JSON pointer that finds nothing under the $id
// but something in the document is read as a reference into the
// document, with a caveat naming where. One that finds its target under
// the $id keeps it: JSON Schema's reading wins wherever it finds
// anything.

// idRef resolves ref, a reference within resource r (the nearest
// enclosing schema with an $id), for the model and the validator alike.
// It returns the target and its pointer in the document, and whether
// the target is the document's, found after ref missed under the $id
// (outside). ok is false when ref is not a JSON pointer (an anchor, a
// URI: left to the validator) or points at nothing in either.
func (l *loader) idRef(r resourceRoot, ref string) (tn *node, tptr string, outside, ok bool) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, "", false, false
	}
	p, err := fragmentPointer(ref[1:])
	if err != nil {
		return nil, "", false, false
	}
	if tn := r.n.pointer(p); tn != nil {
		return tn, r.ptr + p, false, true
	}
	if tn := l.root.pointer(p); tn != nil {
		return tn, p, true, true
	}
	return nil, "", false, false
}

// danglingIn reports whether ref, a reference within resource r, is a
// JSON pointer that points at nothing, under the $id or in the document:
// a mistake, left out as a dangling reference outside an $id is.
func (l *loader) danglingIn(r resourceRoot, ref string) bool {
	if !strings.HasPrefix(ref, "#/") {
		return false
	}
	p, err := fragmentPointer(ref[1:])
	return err == nil && r.n.pointer(p) == nil && l.root.pointer(p) == nil
}

// idRefCaveat is the caveat of reference ref, the value of keyword kw
// within resource r, that idRef read as one into the document.
func idRefCaveat(kw, ref string, r resourceRoot) string {
	return fmt.Sprintf("%s %q finds nothing under $id %q, against which JSON Schema resolves it: it is read as a reference into the OpenAPI document",
		kw, clip.To(ref, clip.Path), clip.To(r.n.get("$id").text(), clip.Path))
}
