package verify_test

import (
	"context"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
)

// vaultSpec is a document whose operations all take Digest credentials.
const vaultSpec = `openapi: 3.1.0
info: {title: Vault, version: '1'}
security: [{digest: []}]
paths:
  /notes:
    get:
      parameters: [{name: q, in: query, schema: {type: string, maxLength: 8}}]
      responses:
        '200': {description: notes, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Note'}}}}}
        '400': {$ref: '#/components/responses/Bad'}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
      responses:
        '201': {description: kept, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
        '400': {$ref: '#/components/responses/Bad'}
  /notes/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer, minimum: 1}}]
      responses:
        '200': {description: the note, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
        '404': {$ref: '#/components/responses/Bad'}
components:
  responses:
    Bad: {description: refused, content: {application/json: {schema: {type: object, required: [error], properties: {error: {type: string}}}}}}
  schemas:
    Note:
      type: object
      required: [text]
      properties: {id: {type: integer, readOnly: true}, text: {type: string, minLength: 1, maxLength: 20}}
  securitySchemes:
    digest: {type: http, scheme: digest}
`

// digestVault is a service of vaultSpec that challenges with a Digest
// of its algorithm and qop and checks each answer by RFC 7616, with its
// own reading and hashing. Every 401 carries a fresh nonce; oneTime
// makes each nonce good for one request (stale=true after). lax takes
// any answer of the right shape, whatever its response: the bug a
// service may have.
type digestVault struct {
	alg, qop         string
	userhash         bool
	oneTime, lax     bool
	user, password   string
	mu               sync.Mutex
	nonces           map[string]int // nonce -> the last nc taken, -1 once spent
	issued, answered int
	notes            []string // the texts kept; a note's id is its place, from 1
	wrong            []string // answers (with a response) refused, and why
}

const vaultRealm = "vault@plantmock.test"

func (v *digestVault) h(s string) string {
	var d hash.Hash
	switch strings.TrimSuffix(v.alg, "-sess") {
	case "MD5":
		d = md5.New()
	case "SHA-256":
		d = sha256.New()
	case "SHA-512-256":
		d = sha512.New512_256()
	}
	io.WriteString(d, s)
	return hex.EncodeToString(d.Sum(nil))
}

// authParam reads name=value and name="quoted value" pairs.
var authParam = regexp.MustCompile(`([A-Za-z*]+)=(?:"((?:[^"\\]|\\.)*)"|([^",\s]+))`)

func (v *digestVault) challenge(w http.ResponseWriter, stale bool) {
	v.issued++
	nonce := fmt.Sprintf("n%04d-%s", v.issued, v.h(strconv.Itoa(v.issued))[:12])
	v.nonces[nonce] = 0
	c := fmt.Sprintf(`Digest realm=%q, nonce=%q, opaque="0paque", algorithm=%s`, vaultRealm, nonce, v.alg)
	if v.qop != "" {
		c += fmt.Sprintf(`, qop="%s"`, v.qop)
	}
	if v.userhash {
		c += ", userhash=true"
	}
	if stale {
		c += ", stale=true"
	}
	// A Basic challenge first, and a Digest one of an algorithm no one
	// knows: verify must pass over both.
	w.Header().Add("WWW-Authenticate", `Basic realm="vault", Digest realm="vault", nonce="unknown", algorithm=SHA3-256, qop="auth"`)
	w.Header().Add("WWW-Authenticate", c)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusUnauthorized)
	io.WriteString(w, `{"error": "who are you?"}`)
}

// check says what is wrong with r's answer, "" for nothing; stale is
// true for a right answer to a nonce no longer good.
func (v *digestVault) check(r *http.Request, body []byte) (why string, stale bool) {
	a, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Digest ")
	if !ok {
		return "no Digest answer", false
	}
	p := map[string]string{}
	for _, m := range authParam.FindAllStringSubmatch(a, -1) {
		p[m[1]] = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[2] + m[3])
	}
	user := v.user
	if v.userhash {
		user = v.h(v.user + ":" + vaultRealm)
		if p["userhash"] != "true" {
			return "no userhash=true", false
		}
	}
	switch {
	case p["username"] != user:
		return "username " + p["username"], false
	case p["realm"] != vaultRealm:
		return "realm " + p["realm"], false
	case p["uri"] != r.RequestURI:
		return "uri " + p["uri"] + ", the request's " + r.RequestURI, false
	case p["algorithm"] != v.alg:
		return "algorithm " + p["algorithm"], false
	case p["opaque"] != "0paque":
		return "opaque " + p["opaque"], false
	case p["qop"] != v.qop:
		return "qop " + p["qop"], false
	case v.qop != "" && (p["cnonce"] == "" || len(p["nc"]) != 8):
		return "no cnonce or nc", false
	}
	last, known := v.nonces[p["nonce"]]
	if !known {
		return "nonce " + p["nonce"] + " never given", false
	}
	ha1 := v.h(v.user + ":" + vaultRealm + ":" + v.password)
	if strings.HasSuffix(v.alg, "-sess") {
		ha1 = v.h(ha1 + ":" + p["nonce"] + ":" + p["cnonce"])
	}
	a2 := r.Method + ":" + p["uri"]
	if v.qop == "auth-int" {
		a2 += ":" + v.h(string(body))
	}
	want := v.h(ha1 + ":" + p["nonce"] + ":" + p["nc"] + ":" + p["cnonce"] + ":" + v.qop + ":" + v.h(a2))
	if v.qop == "" {
		want = v.h(ha1 + ":" + p["nonce"] + ":" + v.h(a2))
	}
	if p["response"] != want && !v.lax {
		return "response " + p["response"] + ", want " + want, false
	}
	nc, err := strconv.ParseInt(p["nc"], 16, 64)
	if v.qop != "" && (err != nil || int(nc) <= last) {
		return fmt.Sprintf("nc %s after %d: a replay", p["nc"], last), false
	}
	if last < 0 {
		return "", true
	}
	v.nonces[p["nonce"]] = int(nc)
	if v.oneTime {
		v.nonces[p["nonce"]] = -1
	}
	return "", false
}

func (v *digestVault) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	v.mu.Lock()
	defer v.mu.Unlock()
	why, stale := v.check(r, body)
	if why != "" || stale {
		if why != "" && strings.Contains(r.Header.Get("Authorization"), "response=") {
			v.wrong = append(v.wrong, why)
		}
		v.challenge(w, stale)
		return
	}
	v.answered++
	w.Header().Set("Content-Type", "application/json")
	bad := func(why string) {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"error": why})
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/notes":
		// A page of one note; the Link header names the next.
		if len(r.URL.Query().Get("q")) > 8 {
			bad("q is too long")
			return
		}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		if page < len(v.notes) {
			w.Header().Set("Link", fmt.Sprintf("</notes?page=%d>; rel=\"next\"", page+1))
		}
		out := []any{}
		if page <= len(v.notes) {
			out = append(out, map[string]any{"id": page, "text": v.notes[page-1]})
		}
		json.NewEncoder(w).Encode(out)
	case r.Method == http.MethodGet:
		id, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/notes/"))
		if err != nil || id < 1 || id > len(v.notes) {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error": "no such note"}`)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"id": id, "text": v.notes[id-1]})
	case r.Method == http.MethodPost:
		var n struct {
			Text *string `json:"text"`
		}
		if r.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &n) != nil || n.Text == nil || len(*n.Text) < 1 || len(*n.Text) > 20 {
			bad("not a note")
			return
		}
		v.notes = append(v.notes, *n.Text)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": len(v.notes), "text": *n.Text})
	}
}

// TestDigest verifies a service taking Digest credentials, with each
// algorithm, qop and userhash: each valid request is answered to the
// service's challenge and taken, and missing, malformed and wrong
// answers are refused, and the list is read page by page (a request
// answered anew for each); the curl lines never show the credentials.
// A service that takes any response (lax) is found, on each operation
// but the read of a note that does not exist, which its 404 refuses.
func TestDigest(t *testing.T) {
	const user, password = "Mufasa", "Circle of Life"
	tests := []struct {
		name    string
		vault   *digestVault
		refused int // answers the service refused: the wrong responses, twice each
		failed  []string
	}{
		{"MD5, auth", &digestVault{alg: "MD5", qop: "auth"}, 6, nil},
		{"MD5-sess, auth", &digestVault{alg: "MD5-sess", qop: "auth"}, 6, nil},
		{"SHA-256, auth", &digestVault{alg: "SHA-256", qop: "auth"}, 6, nil},
		{"SHA-256-sess, auth-int", &digestVault{alg: "SHA-256-sess", qop: "auth-int"}, 6, nil},
		{"SHA-512-256, userhash", &digestVault{alg: "SHA-512-256", qop: "auth", userhash: true}, 6, nil},
		{"MD5 without qop (RFC 2069)", &digestVault{alg: "MD5"}, 6, nil},
		{"one-time nonces", &digestVault{alg: "SHA-256", qop: "auth", oneTime: true}, 6, nil},
		{"lax", &digestVault{alg: "SHA-256", qop: "auth", lax: true}, 0, []string{
			"GET /notes: negative: wrong Digest response of digest",
			"POST /notes: negative: wrong Digest response of digest",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.vault
			v.user, v.password, v.nonces = user, password, map[string]int{}
			srv := httptest.NewServer(v)
			defer srv.Close()
			rep, err := verify.Run(context.Background(), []byte(vaultSpec), srv.URL, verify.Options{Seed: 1, Credentials: map[string]string{"digest": user + ":" + password}})
			if err != nil {
				t.Fatal(err)
			}
			var failed []string
			for _, f := range rep.Failures {
				failed = append(failed, f.Operation+": "+f.Check)
			}
			if !slices.Equal(failed, tt.failed) {
				t.Errorf("failures\n%s\nwant\n%s\n%v", strings.Join(failed, "\n"), strings.Join(tt.failed, "\n"), rep.Failures)
			}
			credentialChecks := map[string]int{}
			for _, c := range rep.Checks {
				if strings.Contains(c.Curl, user) || strings.Contains(c.Curl, "Circle") {
					t.Errorf("%s: %s: the curl line shows the credentials: %s", c.Operation, c.Name, c.Curl)
				}
				switch {
				case c.Kind == "positive" && c.Status/100 != 2 && !(c.Operation == "GET /notes/{id}" && c.Status == http.StatusNotFound):
					t.Errorf("%s: %s: status %d, want 2xx", c.Operation, c.Name, c.Status)
				case strings.Contains(c.Name, "credentials of digest") || strings.Contains(c.Name, "Digest response"):
					credentialChecks[c.Name]++
					if want := http.StatusUnauthorized; c.Status != want && tt.failed == nil {
						t.Errorf("%s: %s: status %d, want %d", c.Operation, c.Name, c.Status, want)
					}
				}
			}
			want := map[string]int{"missing credentials of digest": 3, "malformed credentials of digest": 3, "wrong Digest response of digest": 3}
			if fmt.Sprint(credentialChecks) != fmt.Sprint(want) {
				t.Errorf("credential checks %v, want %v", credentialChecks, want)
			}
			positives := 0
			for _, c := range rep.Checks {
				if c.Kind == "positive" {
					positives++
				}
			}
			// Each answer the service refused is a wrong response; the
			// service took every valid request's answer.
			if len(v.wrong) != tt.refused {
				t.Errorf("the service refused %d answers, want %d: %q", len(v.wrong), tt.refused, v.wrong)
			}
			for _, why := range v.wrong {
				if !strings.HasPrefix(why, "response ") {
					t.Errorf("an answer refused for its %s", why)
				}
			}
			if v.answered < positives {
				t.Errorf("the service took %d answers, fewer than the %d positive checks", v.answered, positives)
			}
			// The list after create is read page by page, each page's
			// request answered anew.
			pages := 0
			for _, c := range rep.Checks {
				if strings.HasPrefix(c.Name, "list after create") {
					pages++
					if c.Status != http.StatusOK {
						t.Errorf("%s: status %d", c.Name, c.Status)
					}
				}
			}
			if pages < 2 {
				t.Errorf("%d pages of the list read; want more than one", pages)
			}
		})
	}
}
