// Command firstanswer waits for a server's first answer and prints the
// milliseconds from a given start (the server's launch, in Unix
// nanoseconds) to it: the "start to first answer" of .ci/bench. It sends
// its request every 100 µs until any HTTP answer comes back, so the
// figure is the server's and not the poller's.
//
//	t0=$(date +%s%N); server & firstanswer -since "$t0" -url http://127.0.0.1:4010/plants
//
// It exits 1 when no answer comes within -timeout, or when the process
// -pid names has ended before answering.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"syscall"
	"time"
)

type headers []string

func (h *headers) String() string     { return strings.Join(*h, ", ") }
func (h *headers) Set(v string) error { *h = append(*h, v); return nil }

func main() {
	since := flag.Int64("since", 0, "the server's launch, in Unix `nanoseconds` (date +%s%N)")
	url := flag.String("url", "", "the `URL` to ask")
	method := flag.String("method", "POST", "the request's `method`")
	body := flag.String("body", `{"id":-1,"name":"warm"}`, "the request's `body`")
	timeout := flag.Duration("timeout", 60*time.Second, "how long to wait")
	pid := flag.Int("pid", 0, "the server's process `id`: give up when it ends")
	var hs headers = []string{"Authorization: Bearer a", "Content-Type: application/json"}
	flag.Var(&hs, "header", "a request `header` (Name: value), besides Authorization and Content-Type")
	flag.Parse()
	if *url == "" || *since == 0 {
		flag.Usage()
		os.Exit(2)
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: time.Second}
	deadline := time.Now().Add(*timeout)
	for time.Now().Before(deadline) {
		req, err := http.NewRequest(*method, *url, bytes.NewReader([]byte(*body)))
		if err != nil {
			fmt.Fprintln(os.Stderr, "firstanswer:", err)
			os.Exit(2)
		}
		for _, h := range hs {
			k, v, _ := strings.Cut(h, ":")
			req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			fmt.Printf("%d\n", (time.Now().UnixNano()-*since)/1e6)
			return
		}
		if *pid > 0 && syscall.Kill(*pid, 0) != nil {
			fmt.Fprintln(os.Stderr, "firstanswer: the server ended before it answered")
			os.Exit(1)
		}
		time.Sleep(100 * time.Microsecond)
	}
	fmt.Fprintln(os.Stderr, "firstanswer: no answer from", *url, "within", *timeout)
	os.Exit(1)
}
