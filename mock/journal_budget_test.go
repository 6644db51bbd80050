package mock

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/journal"
)

// TestJournalClipped: an entry keeps the first 8 KiB of the query, the
// first 64 KiB of each body, each header value's first 4 KiB and, in
// name order, the headers that fit in 16 KiB; it gives the original
// lengths in clipped. In memory and in Redis alike.
func TestJournalClipped(t *testing.T) {
	name := strings.Repeat("n", 70000)
	body := `{"id":1,"name":"` + name + `"}`
	query := "q=" + strings.Repeat("q", 9000)
	pad := strings.Repeat("p", 4000)
	headers := []string{"Authorization", "Bearer abcdefghijwxyz", "X-Big", strings.Repeat("b", 5000),
		"X-Pad-0", pad, "X-Pad-1", pad, "X-Pad-2", pad, "X-Pad-3", pad}
	// The headers as sent, each "Name: value" and a line end.
	sent := len("Accept-Encoding: gzip\r\n") + len("Authorization: Bearer ****wxyz\r\n") +
		len("Content-Length: 70018\r\n") + len("Content-Type: application/json\r\n") + len("User-Agent: Go-http-client/1.1\r\n") +
		len("X-Big: \r\n") + 5000 + 4*len("X-Pad-0: \r\n"+pad)
	answer := `{"name":"` + name + `"}`
	want := fmt.Sprintf(`[{"body":%q,"clipped":{"body":70018,"headers":%d,"query":9002,"response":70011},`+
		`"headers":{"Accept-Encoding":["gzip"],"Authorization":["Bearer ****wxyz"],"Content-Length":["70018"],"Content-Type":["application/json"],"User-Agent":["Go-http-client/1.1"],`+
		`"X-Big":["%s..."],"X-Pad-0":["%s"],"X-Pad-1":["%s"],"X-Pad-2":["%s"]},`+
		`"method":"POST","operation":"POST /plants","path":"/plants","query":"%s...","response":%q,"seq":1,"status":200,"token":"****wxyz"}]`,
		body[:64<<10], sent, strings.Repeat("b", 4096), pad, pad, pad, query[:8192], answer[:64<<10])
	eachStore(t, func(t *testing.T, opts Options) {
		s, ts := newTestServer(t, opts)
		st, got := do(t, ts, "POST", "/plants?"+query, body, headers...)
		expect(t, "a big create", st, got, 200, answer)
		journaled(t, s, 1)
		if got := journalJSON(t, ts, ""); got != want {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("journal differs at byte %d of %d (want %d):\n%.300s\nwant\n%.300s", i, len(got), len(want), got[max(i-100, 0):], want[max(i-100, 0):])
		}
	})
}

// TestJournalByteBudget: however many big entries come, each session's
// journal holds no more bytes than its share of Journal.Bytes, and as
// many of the newest entries as fit in it; all together no more than
// Journal.Bytes. The bytes are counted by the journal's own measure over
// what it holds, in memory and in Redis.
func TestJournalByteBudget(t *testing.T) {
	const (
		max   = 3
		total = 1 << 20
		share = total / (max + 1)
		sent  = 30
	)
	big := `,"name":"` + strings.Repeat("n", 60000) + `"}`
	eachStore(t, func(t *testing.T, opts Options) {
		opts.Limits.MaxSessions, opts.Journal.Bytes = max, total
		s, ts := newTestServer(t, opts)
		sessions := []string{"", "a", "b", "c"}
		for i := range sent {
			for _, sess := range sessions {
				st, _ := do(t, ts, "POST", "/plants", `{"id":`+fmt.Sprint(i+1)+big, SessionHeader, sess, "Authorization", "Bearer abc", "X-Pad", strings.Repeat("p", 3000))
				if st != 200 {
					t.Fatalf("request %d in session %q: %d", i, sess, st)
				}
			}
		}
		// The default session's entries are measured; the named sessions
		// hold the same requests, so as many of the newest as it does.
		es := journaled(t, s, sent)
		bytes := 0
		for i, e := range es {
			bytes += journal.EntrySize(&e)
			if want := uint64(sent - len(es) + i + 1); e.Seq != want {
				t.Errorf("entry %d is %d, want %d: the newest kept", i, e.Seq, want)
			}
		}
		if bytes > share || len(es) == 0 || bytes+journal.EntrySize(&es[0]) <= share {
			t.Errorf("%d entries of %d bytes; want as many as fit in %d", len(es), bytes, share)
		}
		for _, sess := range sessions[1:] {
			if got, want := fmt.Sprint(journaledSeqs(t, ts, sess, sent)), fmt.Sprint(seqsOf(es)); got != want {
				t.Errorf("session %q keeps entries %s, want %s as the default session", sess, got, want)
			}
		}
		all := bytes * len(sessions)
		if all > total {
			t.Errorf("the journals hold %d bytes, over %d", all, total)
		}
		t.Logf("%d bytes in all", all)
	})
}

// journaled returns the default session's journal once it holds entry
// seq: a big answer reaches the client before the exchange is journaled.
func journaled(t *testing.T, s *Server, seq uint64) []journal.Entry {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if es := s.Journal(); len(es) > 0 && es[len(es)-1].Seq >= seq {
			return es
		}
		if time.Now().After(deadline) {
			t.Fatalf("entry %d not journaled after 10s", seq)
		}
		runtime.Gosched()
	}
}

// journaledSeqs returns the sequence numbers of the entries GET
// /__admin/requests lists in session sess, once it lists seq.
func journaledSeqs(t *testing.T, ts *httptest.Server, sess string, seq uint64) []uint64 {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, body := do(t, ts, "GET", "/__admin/requests", "", SessionHeader, sess)
		var j struct {
			Requests []struct{ Seq uint64 } `json:"requests"`
		}
		if err := json.Unmarshal([]byte(body), &j); st != 200 || err != nil {
			t.Fatalf("journal of %q: %d %.200s (%v)", sess, st, body, err)
		}
		if n := len(j.Requests); n > 0 && j.Requests[n-1].Seq >= seq {
			seqs := make([]uint64, n)
			for i, e := range j.Requests {
				seqs[i] = e.Seq
			}
			return seqs
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %q: entry %d not journaled after 10s", sess, seq)
		}
		runtime.Gosched()
	}
}

// undeclaredKeys is a body for the hostile document's POST /things with
// n undeclared properties, k<from> to k<from+n-1>, named in four digits
// so that they sort as numbered.
func undeclaredKeys(from, n int) string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf(`"k%04d":1`, from+i)
	}
	return "{" + strings.Join(keys, ",") + "}"
}

// TestJournalViolationsClipped: an entry keeps the first 100 of a
// request's violations and gives how many there were in clipped; the
// error body and the log line count them all. In memory and in Redis.
func TestJournalViolationsClipped(t *testing.T) {
	var quoted, listed []string
	for i := range 100 {
		v := fmt.Sprintf("k%04d: property is not declared by the schema", i)
		listed = append(listed, fmt.Sprintf(`{"path":"k%04d","reason":"property is not declared by the schema","schema":"#/paths/~1things/post/requestBody/content/application~1json/schema/additionalProperties"}`, i))
		if i < 20 {
			quoted = append(quoted, v)
		}
	}
	answer := `{"error":40004,"message":"request body does not match the schema: ` + strings.Join(quoted, "; ") + `; and 230 more"}`
	eachStore(t, func(t *testing.T, opts Options) {
		logs := make(lineWriter, 8)
		opts.Spec, opts.LogRequests, opts.Logger = []byte(hostileSpec), true, slog.New(slog.NewJSONHandler(logs, nil))
		s, ts := newTestServer(t, opts)
		st, got := do(t, ts, "POST", "/things", undeclaredKeys(0, 250), "Content-Type", "application/json")
		expect(t, "250 undeclared properties", st, got, 422, answer)
		es := journaled(t, s, 1)
		if e := es[0]; len(e.Violations) != 100 || e.Clipped == nil || *e.Clipped != (journal.Clipped{Violations: 250}) {
			t.Errorf("entry: %d violations, clipped %+v; want 100, {Violations:250}", len(e.Violations), e.Clipped)
		}
		j := journalJSON(t, ts, "")
		if want := `"violations":[` + strings.Join(listed, ",") + `]`; !strings.Contains(j, want) || !strings.Contains(j, `"clipped":{"violations":250}`) {
			t.Errorf("journal:\n%.600s\nwant its violations to be\n%.600s\nand clipped {\"violations\":250}", j, want)
		}
		line := <-logs
		for !strings.Contains(line, `"msg":"request"`) {
			line = <-logs // the document's caveats come first
		}
		if want := `"and 230 more"]`; !strings.Contains(line, want) {
			t.Errorf("log line %s: want it to end its violations with %s", line, want)
		}
		// Past 1,000 violations the mock stops looking, and says so.
		st, got = do(t, ts, "POST", "/things", undeclaredKeys(0, 1100), "Content-Type", "application/json")
		if st != 422 || !strings.HasSuffix(got, `; and more than 980 more"}`) {
			t.Errorf("1,100 undeclared properties: %d %.100s...%s", st, got, got[max(len(got)-60, 0):])
		}
		es = journaled(t, s, 2)
		if e := es[1]; len(e.Violations) != 100 || e.Clipped == nil || *e.Clipped != (journal.Clipped{Violations: 1000, Unchecked: true}) {
			t.Errorf("entry: %d violations, clipped %+v; want 100, {Violations:1000 Unchecked:true}", len(e.Violations), e.Clipped)
		}
		if j := journalJSON(t, ts, ""); !strings.Contains(j, `"clipped":{"unchecked":true,"violations":1000}`) {
			t.Errorf("journal %.300s...: want clipped {\"unchecked\":true,\"violations\":1000}", j[strings.LastIndex(j, `"clipped"`):])
		}
		if line = <-logs; !strings.Contains(line, `"and more than 980 more"]`) {
			t.Errorf("log line %.300s: want it to end its violations with \"and more than 980 more\"", line)
		}
	})
}

// seqsOf returns the sequence numbers of es.
func seqsOf(es []journal.Entry) []uint64 {
	out := make([]uint64, len(es))
	for i, e := range es {
		out[i] = e.Seq
	}
	return out
}
