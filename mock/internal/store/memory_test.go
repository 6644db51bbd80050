package store_test

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/storetest"
)

// TestMemory runs the conformance suite against the Memory store.
func TestMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T, max int) store.Store { return store.NewMemory(max) })
}
