package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// rssMiB reads a process's resident set size.
func rssMiB(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			kb, _ := strconv.Atoi(strings.Fields(l)[1])
			return float64(kb) / 1024
		}
	}
	return 0
}

// TestLoad runs mixed traffic against the binary from 32 goroutines
// (PLANTMOCK_LOAD_DURATION, default 5s; docs/reliability.md's figures come from a
// minute), then checks: no 5xx and no transport errors, every acknowledged
// create is in the store, and memory stays flat.
func TestLoad(t *testing.T) {
	d := 5 * time.Second
	if v := os.Getenv("PLANTMOCK_LOAD_DURATION"); v != "" {
		var err error
		if d, err = time.ParseDuration(v); err != nil {
			t.Fatal(err)
		}
	}
	in, _ := start(t, []string{"PLANTMOCK_LOG_FORMAT=json"})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var (
		next     atomic.Int64 // identifiers of new plants
		acked    sync.Map     // identifiers answered 200
		statuses [600]atomic.Int64
		failures atomic.Int64
	)
	next.Store(1000)
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline); i++ {
				auth, body := "Bearer load", ""
				switch i % 10 {
				case 0, 1: // a new plant
					body = fmt.Sprintf(`{"id":%d,"name":"p","tag":"t"}`, next.Add(1))
				case 2, 3, 4: // a body that breaks the schema
					body = `{"id":"x","name":1}`
				case 5, 6: // no token
					auth, body = "", `{"id":1,"name":"p"}`
				default: // a duplicate
					body = `{"id":7,"name":"p"}`
				}
				req, _ := http.NewRequest("POST", in.url+"/plants", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				if auth != "" {
					req.Header.Set("Authorization", auth)
				}
				resp, err := client.Do(req)
				if err != nil {
					failures.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				statuses[resp.StatusCode].Add(1)
				if resp.StatusCode == 200 && i%10 < 2 {
					var id int64
					fmt.Sscanf(body, `{"id":%d`, &id)
					acked.Store(id, true)
				}
			}
		}(w)
	}
	// Sample memory while the load runs.
	var samples []float64
	tick := time.NewTicker(250 * time.Millisecond)
	for time.Now().Before(deadline) {
		<-tick.C
		samples = append(samples, rssMiB(in.cmd.Process.Pid))
	}
	tick.Stop()
	wg.Wait()

	total := int64(0)
	for code := range statuses {
		total += statuses[code].Load()
		if code >= 500 && statuses[code].Load() > 0 {
			t.Errorf("%d answers with status %d", statuses[code].Load(), code)
		}
	}
	if failures.Load() > 0 {
		t.Errorf("%d requests failed in transport", failures.Load())
	}
	_, _, store := get(t, in.url+"/__admin/store")
	var st struct {
		Collections map[string][]struct{ ID int64 }
	}
	if err := json.Unmarshal([]byte(store), &st); err != nil {
		t.Fatal(err)
	}
	stored := map[int64]bool{}
	for _, p := range st.Collections["/plants"] {
		stored[p.ID] = true
	}
	missing := 0
	acked.Range(func(k, _ any) bool {
		if !stored[k.(int64)] {
			missing++
		}
		return true
	})
	if missing > 0 {
		t.Errorf("%d acknowledged creates are not in the store", missing)
	}
	first, last, peak := samples[len(samples)/3], samples[len(samples)-1], 0.0
	for _, s := range samples {
		peak = max(peak, s)
	}
	if last > first*1.5+64 || peak > 512 {
		t.Errorf("memory grew: %.0f MiB a third of the way, %.0f MiB at the end, peak %.0f MiB", first, last, peak)
	}
	t.Logf("%s: %d requests (%.0f/s), 200: %d, 400: %d, 401: %d, %d plants stored; RSS %.0f -> %.0f MiB, peak %.0f MiB",
		d, total, float64(total)/d.Seconds(), statuses[200].Load(), statuses[400].Load(), statuses[401].Load(), len(stored), first, last, peak)
}

// TestGracefulShutdown sends SIGTERM while a slow create is in flight: the
// create is answered and stored, and the process exits 0.
//
// The request asks for 100-continue, so the mock says when its handler
// has the request: net/http drops a request whose header it finishes
// reading after shutdown began, so the signal must come after that.
func TestGracefulShutdown(t *testing.T) {
	in, _ := start(t, nil)
	conn, err := net.Dial("tcp", strings.TrimPrefix(in.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	r := bufio.NewReader(conn)
	body := `{"id":42,"name":"late"}`
	fmt.Fprintf(conn, "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nX-Mock-Scenario: slow\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n", len(body))
	cont, err := http.ReadResponse(r, nil)
	if err != nil || cont.StatusCode != http.StatusContinue {
		t.Fatalf("want 100 Continue before the body: %v %v", cont, err)
	}
	io.WriteString(conn, body)
	if err := in.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("the in-flight create got no answer: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(b) != `{"name":"late"}` {
		t.Errorf("in-flight create: %d %s", resp.StatusCode, b)
	}
	if code := in.wait(t); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

// TestListensOnlyWhereTold checks that the process has exactly the
// listening sockets it was given: --addr, and --admin-addr when set.
func TestListensOnlyWhereTold(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want int
	}{{nil, 1}, {[]string{"--admin-addr", "127.0.0.1:0"}, 2}} {
		in, _ := start(t, nil, tt.args...)
		if got := listeners(t, in.cmd.Process.Pid); got != tt.want {
			t.Errorf("%v: %d listening sockets, want %d", tt.args, got, tt.want)
		}
	}
}

// listeners counts the TCP sockets in LISTEN state that pid holds.
func listeners(t *testing.T, pid int) int {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Skipf("cannot read the process's descriptors: %v", err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && strings.HasPrefix(l, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	n := 0
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, _ := os.ReadFile(table)
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.Fields(l)
			if len(f) > 9 && f[3] == "0A" && inodes[f[9]] { // 0A: LISTEN
				n++
			}
		}
	}
	return n
}

// TestShutdownUnderLoad sends SIGTERM while 16 clients keep creating: the
// process exits 0, no answer is a 5xx or cut short, and every create a
// client saw acknowledged was logged as answered 200 by the mock.
func TestShutdownUnderLoad(t *testing.T) {
	in, _ := start(t, []string{"PLANTMOCK_LOG_FORMAT=json"})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}, Timeout: 20 * time.Second}
	var (
		next, acked, bad atomic.Int64
		answered         = make(chan struct{}, 1<<16)
		stop             = make(chan struct{})
	)
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				body := fmt.Sprintf(`{"id":%d,"name":"p"}`, next.Add(1))
				req, _ := http.NewRequest("POST", in.url+"/plants", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer a")
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					continue // refused or closed once the mock stops: never answered
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 || string(b) != `{"name":"p"}` {
					bad.Add(1)
					continue
				}
				acked.Add(1)
				select {
				case answered <- struct{}{}:
				default:
				}
			}
		}()
	}
	for i := 0; i < 500; i++ { // let the load run for 500 answers
		<-answered
	}
	code := in.stop(t)
	close(stop)
	wg.Wait()
	if code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	if bad.Load() > 0 {
		t.Errorf("%d answers were not a complete 200", bad.Load())
	}
	logged := int64(strings.Count(in.stderr.String(), `"msg":"request","method":"POST","path":"/plants","status":200`))
	if logged < acked.Load() {
		t.Errorf("clients saw %d creates acknowledged, the mock logged %d", acked.Load(), logged)
	}
	t.Logf("%d creates acknowledged before and during shutdown, %d logged", acked.Load(), logged)
}
