// Command firstanswer waits for a server's first answer and prints the
// milliseconds from a given start (the server's launch, in Unix
// nanoseconds) to it: the "start to first answer" of .ci/bench and
// .ci/bigdoc. It sends its request every -every (100 µs unless told)
// until an HTTP answer comes back, from one process without forking, so
// that the figure is the server's and not the poller's: on two cores, a
// shell loop starting curl every 20 ms made GitHub's description load
// about a third slower (1.2 s to 1.65 s for `plantmock check`), and this
// poller at 20 ms made no difference beyond the noise.
//
//	t0=$(date +%s%N); server & firstanswer -since "$t0" -url http://127.0.0.1:4010/plants
//
// With -launch, the poller starts before the server, so that its own
// start is not counted: where a Go process takes 15-20 ms to start, as
// on a small virtual machine, a poller launched after the server counted
// most of its own start in a bare server's figure. It prints "ready",
// then reads one line from its standard input, the server's launch time
// (Unix nanoseconds) and process id, and polls from there:
//
//	coproc poll { firstanswer -launch -url http://127.0.0.1:4010/plants; }
//	read -r -t 10 _ <&"${poll[0]}"
//	t0=${EPOCHREALTIME/./}000; server & echo "$t0 $!" >&"${poll[1]}"
//	read -r -t 70 ms <&"${poll[0]}"
//
// With -status, the answer's status code follows the milliseconds on the
// line. With -not-5xx, a 5xx answer does not count and polling goes on.
// It exits 1 when no answer comes within -timeout (saying the last 5xx
// status, if any came), or when the process -pid names has ended before
// answering.
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
	every := flag.Duration("every", 100*time.Microsecond, "how long to wait between tries")
	maxTime := flag.Duration("max-time", time.Second, "how long one try may take")
	status := flag.Bool("status", false, "print the answer's status code after the milliseconds")
	not5xx := flag.Bool("not-5xx", false, "a 5xx answer does not count: go on polling")
	var hs headers
	flag.Var(&hs, "header", "a request `header` (Name: value); without any, Authorization: Bearer a and Content-Type: application/json")
	launch := flag.Bool("launch", false, "print ready, then read the launch time and process id from standard input")
	flag.Parse()
	if *launch {
		fmt.Println("ready")
		if _, err := fmt.Scan(since, pid); err != nil {
			fmt.Fprintln(os.Stderr, "firstanswer: reading the launch time and process id:", err)
			os.Exit(2)
		}
	}
	if *url == "" || *since == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if len(hs) == 0 {
		hs = []string{"Authorization: Bearer a", "Content-Type: application/json"}
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: *maxTime}
	deadline := time.Now().Add(*timeout)
	last := 0
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
			if !*not5xx || resp.StatusCode < 500 {
				ms := (time.Now().UnixNano() - *since) / 1e6
				if *status {
					fmt.Printf("%d %d\n", ms, resp.StatusCode)
				} else {
					fmt.Printf("%d\n", ms)
				}
				return
			}
			last = resp.StatusCode
		}
		if *pid > 0 && syscall.Kill(*pid, 0) != nil {
			fmt.Fprintln(os.Stderr, "firstanswer: the server ended before it answered")
			os.Exit(1)
		}
		time.Sleep(*every)
	}
	if last != 0 {
		fmt.Fprintln(os.Stderr, "firstanswer: only 5xx answers from", *url, "within", *timeout, "(the last:", last, ")")
	} else {
		fmt.Fprintln(os.Stderr, "firstanswer: no answer from", *url, "within", *timeout)
	}
	os.Exit(1)
}
