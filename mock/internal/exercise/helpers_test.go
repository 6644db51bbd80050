package exercise

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// load loads a document written in a test.
func load(t testing.TB, spec string) *openapi.Document {
	t.Helper()
	doc, err := openapi.Load([]byte(spec))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return doc
}

// operation returns the operation of a document by its name.
func operation(t testing.TB, doc *openapi.Document, name string) *openapi.Operation {
	t.Helper()
	for _, op := range doc.Operations {
		if op.Name == name {
			return op
		}
	}
	t.Fatalf("no operation %s", name)
	return nil
}

func ptr[T any](v T) *T { return &v }
