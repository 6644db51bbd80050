package accepting

import (
	"net"
	"net/http"
	"testing"
)

// TestFirst: First stays open until a server asks for a connection, and
// is closed once it has.
func TestFirst(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := New(ln)
	select {
	case <-l.First():
		t.Fatal("First closed before any Accept")
	default:
	}
	hs := &http.Server{Handler: http.NotFoundHandler()}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(l) }()
	<-l.First()
	hs.Close()
	if err := <-done; err != http.ErrServerClosed {
		t.Errorf("Serve: %v, want %v", err, http.ErrServerClosed)
	}
}
