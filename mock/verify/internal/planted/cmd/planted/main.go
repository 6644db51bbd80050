// Command planted serves the provider of package planted, built with one
// contract bug, so that contract testers other than verify can be run
// against the same bugs (.ci/verify-compare). It keeps the document
// planted.yaml, beside package planted, but for its bug.
//
//	planted -bug wrong-type -addr 127.0.0.1:0
//
// prints the base URL it listens on as its first line, then serves
// until SIGINT or SIGTERM, and prints "requests N" as its last line: the
// requests it was sent, whatever their path or answer. With -list, it
// prints the bugs, one a line: name, operation whose answers show it,
// and what it is, separated by tabs.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/plantmock/plantmock/mock/verify/internal/planted"
)

func main() {
	bugName := flag.String("bug", "none", "the bug the provider is built with (see -list)")
	addr := flag.String("addr", "127.0.0.1:0", "the address to listen on")
	list := flag.Bool("list", false, "list the bugs and exit")
	flag.Parse()
	if *list {
		for _, b := range planted.Bugs() {
			fmt.Printf("%s\t%s\t%s\n", b.Name(), b.Operation(), b)
		}
		return
	}
	b, err := planted.ParseBug(*bugName)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, planted.New(b), *addr); err != nil {
		fmt.Fprintln(os.Stderr, "planted:", err)
		os.Exit(1)
	}
}

// serve serves p on addr until ctx is done, then prints how many
// requests it was sent.
func serve(ctx context.Context, p *planted.Provider, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("http://%s\n", ln.Addr())
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	p.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Printf("requests %d\n", p.Requests())
	return nil
}
