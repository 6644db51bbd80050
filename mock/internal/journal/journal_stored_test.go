package journal

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// TestAppendStored checks that appendStored writes what encoding/json
// reads back as the entry encoding/json writes, for entries with every
// field, none, and strings JSON must escape.
func TestAppendStored(t *testing.T) {
	at := time.Date(2026, 11, 24, 23, 59, 58, 123456789, time.FixedZone("", 3600))
	odd := "quote\" back\\ nl\n tab\t ctl\x01 <b>&amp; é \u2028 bad\xff end"
	entries := map[string]Entry{
		"empty": {},
		"create": {
			Seq: 7, Time: at, Duration: 1500 * time.Microsecond,
			Method: "POST", Path: "/plants", Header: http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer a"}},
			Body: []byte(`{"id":1,"name":"Monstera"}`), Token: "a", Operation: "POST /plants",
			Status: 201, Response: []byte(`{"id":1,"name":"Monstera"}`),
			Clipped: &Clipped{Headers: 70000, Body: 66000},
		},
		"clipped": {Clipped: &Clipped{Path: 1, Query: 2, Headers: 3, Body: 4, Response: 5, Violations: 6, Unchecked: true}},
		"refused": {
			Time: at.UTC(), Method: "POST", Path: "/plants", Query: "a=1&b=" + odd, Header: http.Header{},
			Body: []byte{0, 1, 2, 0xff}, Status: 400, Response: []byte(`{"code":40000}`), Code: problem.CodeSchema,
			Violations: []Violation{
				{Path: "id", Reason: "expected integer, got string", Schema: "#/components/schemas/NewPlant/properties/id/type"},
				{Path: odd, Reason: odd, Direction: "response"},
			},
			Session: "s-1", Scenario: "busy", Rule: 3, Notes: []string{"ignored readOnly id", odd, ""},
			Drift: "accepted by the previous document (Greenhouse 1.0), refused by the served one: " + odd,
		},
		"outbound": {
			Seq: 1 << 63, Duration: -1, Method: "POST", Path: "/hook", Header: http.Header{"X-Odd": nil, odd: {"", odd}},
			Direction: "outbound", URL: "http://127.0.0.1:1/hook?x=<y>", Trigger: 12, Attempt: 2, Error: odd,
			Operation: "webhook plantCreated",
		},
	}
	for name, e := range entries {
		t.Run(name, func(t *testing.T) {
			ours := appendStored([]byte("prefix"), &e)
			if string(ours[:6]) != "prefix" {
				t.Fatalf("appendStored overwrote the buffer: %q", ours)
			}
			ours = ours[6:]
			theirs, err := json.Marshal((*storedEntry)(&e))
			if err != nil {
				t.Fatal(err)
			}
			var got, want storedEntry
			if err := json.Unmarshal(ours, &got); err != nil {
				t.Fatalf("appendStored wrote %s: %v", ours, err)
			}
			if err := json.Unmarshal(theirs, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("appendStored wrote %s,\nwhich reads as %+v;\nencoding/json wrote %s,\nwhich reads as %+v", ours, got, theirs, want)
			}
			// Apart from <, > and &, the bytes are encoding/json's.
			if name != "refused" && name != "outbound" && string(ours) != string(theirs) {
				t.Errorf("appendStored wrote %s, encoding/json %s", ours, theirs)
			}
		})
	}
}

// BenchmarkAppendStored measures the journal record of a create.
func BenchmarkAppendStored(b *testing.B) {
	e := Entry{
		Time: time.Now(), Duration: 1500 * time.Microsecond, Method: "POST", Path: "/plants",
		Header: http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer a"}, "Content-Length": {"40"}, "User-Agent": {"wrk"}},
		Body:   []byte(`{"id":1,"name":"Monstera","tag":"aroid"}`), Token: "a", Operation: "POST /plants",
		Status: 200, Response: []byte(`{"name":"Monstera","tag":"aroid"}`),
	}
	b.Run("appendStored", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf = appendStored(buf[:0], &e)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Marshal((*storedEntry)(&e))
		}
	})
}
