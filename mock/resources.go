package mock

import (
	"encoding/json"
	"sort"
)

// Resources returns the resources stored in a collection of the default
// session, oldest first, as JSON. A collection is named by its path: "/plants".
func (s *Server) Resources(collection string) []json.RawMessage {
	docs := s.defaultSession.store.List(collection, -1)
	out := make([]json.RawMessage, len(docs))
	for i, d := range docs {
		out[i] = json.RawMessage(d)
	}
	return out
}

// Resource returns the resource stored in a collection under an
// identifier, written as in a path ("7" for the plant with id 7).
func (s *Server) Resource(collection, id string) (json.RawMessage, bool) {
	doc, ok := s.defaultSession.store.Get(collection, id)
	return json.RawMessage(doc), ok
}

// Collections returns the paths of the collections that hold resources,
// sorted.
func (s *Server) Collections() []string {
	cols := s.defaultSession.store.Collections()
	sort.Strings(cols)
	return cols
}
