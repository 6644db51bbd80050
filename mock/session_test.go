package mock

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestSessionsOnlyForServedRequests: requests to no operation, or without
// accepted credentials, that name new sessions take no slot: a real job
// then gets its own session, which its journal shows, and the bound still
// holds for requests that are served.
func TestSessionsOnlyForServedRequests(t *testing.T) {
	const max = 3
	eachStore(t, func(t *testing.T, opts Options) {
		opts.Limits.MaxSessions, opts.Tokens = max, []string{"secret-token-1"}
		_, ts := newTestServer(t, opts)
		for i := range 2 * max {
			st, body := do(t, ts, "GET", "/junk", "", SessionHeader, fmt.Sprintf("junk-%d", i))
			expect(t, "junk to no operation", st, body, 404, `{"error":40400,"message":"no path of the OpenAPI document matches /junk"}`)
			st, body = do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, SessionHeader, fmt.Sprintf("nocreds-%d", i))
			expect(t, "junk without credentials", st, body, 401, `{"error":40100,"message":"missing credentials: send \"Authorization: Bearer <token>\""}`)
			st, body = do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, SessionHeader, fmt.Sprintf("badcreds-%d", i), "Authorization", "Bearer wrong")
			expect(t, "junk with a token not accepted", st, body, 401, `{"error":40102,"message":"the bearer token is not accepted"}`)
		}
		real := func(session string) (int, string) {
			return do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, SessionHeader, session, "Authorization", "Bearer secret-token-1")
		}
		st, body := real("real-job")
		expect(t, "a real job's request", st, body, 200, `{"name":"Fern"}`)
		want := `[{"body":{"id":1,"name":"Fern"},"headers":{"Accept-Encoding":["gzip"],"Authorization":["Bearer ****en-1"],"Content-Length":["22"],"Content-Type":["application/json"],"User-Agent":["Go-http-client/1.1"],"X-Mock-Session":["real-job"]},"method":"POST","operation":"POST /plants","path":"/plants","response":{"name":"Fern"},"seq":1,"session":"real-job","status":200,"token":"****en-1"}]`
		if got := journalJSON(t, ts, "real-job"); got != want {
			t.Errorf("the real job's journal:\n%s\nwant\n%s", got, want)
		}
		// The junk is in the default session's journal.
		var def []map[string]any
		if err := json.Unmarshal([]byte(journalJSON(t, ts, "")), &def); err != nil || len(def) != 3*2*max || def[0]["session"] != nil {
			t.Errorf("the default session's journal: %d entries, %v; want %d without a session", len(def), err, 3*2*max)
		}
		for i := range max - 1 {
			st, body := real(fmt.Sprintf("job-%d", i))
			expect(t, "another real job", st, body, 200, `{"name":"Fern"}`)
		}
		st, body = real("one-too-many")
		expect(t, "a job beyond the bound", st, body, 400, `{"error":40008,"message":"too many sessions (3); reuse one, or wait until idle ones expire after 30m0s"}`)
	})
}
