package mock

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
)

// authorsSpec has a readOnly uuid identifier and creation time, both
// required (in answers only), a writeOnly secret at several depths, and a
// 201 whose Location header names the new item.
var authorsSpec = answerSpec("authors.yaml")

// uuidRE matches a UUID in its canonical text form.
const uuidRE = `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`

// TestRequestIDPerAnswer: a required X-Request-Id is a fresh UUID on every
// answer.
func TestRequestIDPerAnswer(t *testing.T) {
	_, ts := newTestServer(t, Options{Spec: []byte(authorsSpec)})
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		_, resp, got := send(t, ts, call{method: "POST", path: "/authors", header: map[string]string{"Content-Type": "application/json"}, body: `{"name":"Ann","bio":"b","password":"p"}`})
		id := resp.Header.Get("X-Request-Id")
		if resp.StatusCode != 201 || !regexp.MustCompile(uuidRE).MatchString(id) || seen[id] {
			t.Errorf("create %d: status %d, X-Request-Id %q (seen before: %v), want 201 with a fresh UUID: %s", i, resp.StatusCode, id, seen[id], got)
		}
		seen[id] = true
	}
}

// petShop is a small store in the manner of the Swagger Petstore: a pet's
// integer id is optional in the create body, which answers 200 in XML or
// JSON; orders and lots (a number id) count from their id's minimum;
// users have readOnly UUIDs,
// tags string ids; and a note's id is an integer only in an alternative
// (NULLABLE stands for the version's null) and declared without a type in
// the note's read, whose path says integer.
var petShop = answerSpec("petshop.yaml")

// petShopIn returns petShop as a document of OpenAPI version v.
func petShopIn(v string) string {
	null := `{type: 'null'}`
	if strings.HasPrefix(v, "3.0") {
		null = `{type: integer, nullable: true}`
	}
	return strings.NewReplacer("VERSION", v, "NULLABLE", null).Replace(petShop)
}

// TestReplicasAssignDistinctIdentifiers: replicas sharing Redis take
// integer identifiers from one counter, so creates sent to either, at
// once, never get the same one.
func TestReplicasAssignDistinctIdentifiers(t *testing.T) {
	r := replicas(t, redistest.NewServer(t).URL(0), 2, Options{Spec: []byte(petShopIn("3.1.0"))})
	const n = 20
	got := make([]string, 2*n)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			_, _, body := send(t, r[i%2], call{method: "POST", path: "/orders", header: map[string]string{"Content-Type": "application/json"}, body: `{}`})
			got[i] = string(body)
		})
	}
	wg.Wait()
	var want []string
	for i := range 2 * n {
		want = append(want, fmt.Sprintf(`{"id":%d}`, 1000+i))
	}
	slices.Sort(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the orders created = %s\nwant %s", got, want)
	}
}
