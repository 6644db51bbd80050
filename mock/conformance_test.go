package mock_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestConformance holds the mock to its promise on every document its
// tests serve (the Plant Store, examples/, the documents written in
// the package's tests, and the documents below): a valid request never
// gets a 5xx, and every answer is one the document declares (status,
// Content-Type, body, headers), as exercise.Check judges it. Each
// document is served over loopback and its operations are sent valid
// requests collection by collection, in the order a client would use
// them: create, list, read, replace, patch, delete, the item operations
// addressing the resource the create made; then the other operations.
// Four rounds run on the same mock, with seeds 1 to 4. Each failure names
// the document, the round, the operation, the request, the status and
// the problem.
func TestConformance(t *testing.T) {
	for _, d := range conformanceDocuments(t) {
		t.Run(d.name, func(t *testing.T) {
			conform(t, d.spec)
		})
	}
}

// Documents written for the conformance test, each for a way a mock can
// stray from the document.
var conformanceSpecs = []struct{ name, spec string }{
	{"server-assigned ids", `openapi: 3.0.3
info: {title: Petstore Expanded, version: '1'}
paths:
  /pets:
    get:
      parameters:
        - {name: limit, in: query, schema: {type: integer, format: int32}}
      responses:
        '200':
          description: pets
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}
        default: {$ref: '#/components/responses/Error'}
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/NewPet'}
      responses:
        '200':
          description: the pet
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        default: {$ref: '#/components/responses/Error'}
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer, format: int64}}
    get:
      responses:
        '200':
          description: the pet
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        default: {$ref: '#/components/responses/Error'}
    delete:
      responses:
        '204': {description: deleted}
        default: {$ref: '#/components/responses/Error'}
components:
  responses:
    Error:
      description: error
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
  schemas:
    NewPet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        tag: {type: string}
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - type: object
          required: [id]
          properties:
            id: {type: integer, format: int64}
    Error:
      type: object
      required: [code, message]
      properties:
        code: {type: integer, format: int32}
        message: {type: string}
`},
	{"readOnly and writeOnly", `openapi: 3.1.0
info: {title: accounts, version: '1'}
paths:
  /users:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/User'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/User'}
        '400': {$ref: '#/components/responses/Problem'}
    get:
      responses:
        '200':
          description: users
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/User'}}
  /users/{userId}:
    parameters:
      - {name: userId, in: path, required: true, schema: {type: string, format: uuid}}
    get:
      responses:
        '200':
          description: the user
          content:
            application/json:
              schema: {$ref: '#/components/schemas/User'}
        '404': {$ref: '#/components/responses/Problem'}
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/User'}
      responses:
        '200':
          description: replaced
          content:
            application/json:
              schema: {$ref: '#/components/schemas/User'}
        '400': {$ref: '#/components/responses/Problem'}
        '404': {$ref: '#/components/responses/Problem'}
    patch:
      requestBody:
        required: true
        content:
          application/merge-patch+json:
            schema: {type: object, properties: {name: {type: string}}}
      responses:
        '200':
          description: patched
          content:
            application/json:
              schema: {$ref: '#/components/schemas/User'}
        '400': {$ref: '#/components/responses/Problem'}
        '404': {$ref: '#/components/responses/Problem'}
components:
  responses:
    Problem:
      description: problem
      content:
        application/problem+json:
          schema:
            type: object
            required: [title]
            properties: {title: {type: string}, detail: {type: string}}
  schemas:
    User:
      type: object
      required: [userId, name, password, createdAt]
      properties:
        userId: {type: string, format: uuid, readOnly: true}
        name: {type: string}
        password: {type: string, writeOnly: true, minLength: 8}
        createdAt: {type: string, format: date-time, readOnly: true}
`},
	{"text and XML answers", `openapi: 3.0.3
info: {title: texts, version: '1'}
paths:
  /greeting:
    get:
      responses:
        '200':
          description: a greeting
          content:
            text/plain:
              schema: {type: string, minLength: 1}
  /report:
    get:
      responses:
        '200':
          description: a report
          content:
            application/xml:
              schema: {$ref: '#/components/schemas/Report'}
  /report.json:
    get:
      responses:
        '200':
          description: a report, in either type
          content:
            application/xml:
              schema: {$ref: '#/components/schemas/Report'}
            application/json:
              schema: {$ref: '#/components/schemas/Report'}
  /notes:
    post:
      requestBody:
        required: true
        content:
          text/plain:
            schema: {type: string}
      responses:
        '201':
          description: stored
          content:
            text/plain:
              schema: {type: string}
  /login:
    post:
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [user, password]
              properties:
                user: {type: string}
                password: {type: string}
      responses:
        '200':
          description: a session
          content:
            application/json:
              schema: {type: object, required: [token], properties: {token: {type: string}}}
  /uploads:
    post:
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file]
              properties:
                file: {type: string, format: binary}
                note: {type: string}
      responses:
        '204': {description: stored}
components:
  schemas:
    Report:
      type: object
      xml: {name: report}
      required: [id, lines]
      properties:
        id: {type: integer, xml: {attribute: true}}
        lines: {type: array, items: {type: string}, xml: {wrapped: true}}
`},
	{"an operation declaring only 405", `openapi: 3.1.0
info: {title: legacy, version: '1'}
paths:
  /legacy:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, properties: {name: {type: string}}}
      responses:
        '405': {description: not allowed any more}
    get:
      responses:
        '200':
          description: the legacy thing
          content:
            application/json:
              schema: {type: object, properties: {name: {type: string}}}
`},
	{"a 401 whose error is a number", `openapi: 3.0.3
info: {title: counters, version: '1'}
security: [{bearer: []}]
paths:
  /counters/{name}:
    get:
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: the counter
          content:
            application/json:
              schema: {type: object, required: [name, value], properties: {name: {type: string}, value: {type: integer}}}
        '401':
          description: not signed in
          content:
            application/json:
              schema: {type: number}
        '404':
          description: no such counter
          content:
            application/json:
              schema: {type: number}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
`},
	{"a list with minItems 1", `openapi: 3.1.0
info: {title: tags, version: '1'}
paths:
  /tags:
    get:
      responses:
        '200':
          description: the tags, never none
          content:
            application/json:
              schema: {type: array, minItems: 1, items: {$ref: '#/components/schemas/Tag'}}
  /labels:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Tag'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Tag'}
    get:
      responses:
        '200':
          description: the labels, never none
          content:
            application/json:
              schema: {type: array, minItems: 1, maxItems: 2, items: {$ref: '#/components/schemas/Tag'}}
components:
  schemas:
    Tag:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
`},
	{"a read-only API", `openapi: 3.0.3
info: {title: library, version: '1'}
paths:
  /books:
    get:
      responses:
        '200':
          description: the books
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Book'}}
  /books/{isbn}:
    get:
      parameters:
        - {name: isbn, in: path, required: true, schema: {type: string, pattern: '^[0-9]{13}$'}}
      responses:
        '200':
          description: the book
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Book'}
  /books/{isbn}/reviews/{reviewId}:
    get:
      parameters:
        - {name: isbn, in: path, required: true, schema: {type: string, pattern: '^[0-9]{13}$'}}
        - {name: reviewId, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: a review
          content:
            application/json:
              schema: {type: object, required: [stars], properties: {stars: {type: integer, minimum: 1, maximum: 5}}}
        '404':
          description: no such review
components:
  schemas:
    Book:
      type: object
      required: [isbn, title]
      properties:
        isbn: {type: string, pattern: '^[0-9]{13}$'}
        title: {type: string}
`},
}

// conformanceDocument is a document the test serves, named for where it
// comes from.
type conformanceDocument struct {
	name string
	spec []byte
}

// conformanceDocuments returns the documents to serve: the Plant Store,
// the repository's examples/, those written in the package's other test files that
// the mock serves (see inlineDocuments), and conformanceSpecs.
func conformanceDocuments(t *testing.T) []conformanceDocument {
	t.Helper()
	out := []conformanceDocument{{"Plant Store", []byte(plantmock.OpenAPI)}}
	files, err := filepath.Glob("../examples/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		switch filepath.Ext(f) {
		case ".yaml", ".yml", ".json":
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, conformanceDocument{filepath.Base(f) + " (examples)", data})
		}
	}
	out = append(out, inlineDocuments(t)...)
	for _, s := range conformanceSpecs {
		out = append(out, conformanceDocument{s.name, []byte(s.spec)})
	}
	return out
}

// inlineDocuments finds the OpenAPI documents written in the package's
// test files (but this one): string constants, literals and
// concatenations of them whose text starts with an openapi field, that
// the mock serves (documents written to be refused are left out).
// Documents built at run time (fmt.Sprintf, strings.Replace) are not
// found.
func inlineDocuments(t *testing.T) []conformanceDocument {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	consts := map[string]ast.Expr{}
	for _, f := range files {
		if f == "conformance_test.go" {
			continue
		}
		pf, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, pf)
		for _, d := range pf.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				for _, s := range gd.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							consts[n.Name] = vs.Values[i]
						}
					}
				}
			}
		}
	}
	var out []conformanceDocument
	seen := map[string]bool{}
	for _, pf := range parsed {
		ast.Inspect(pf, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			text, ok := constString(e, consts, 0)
			if !ok {
				return true
			}
			trimmed := strings.TrimSpace(text)
			if !strings.HasPrefix(trimmed, "openapi:") && !strings.HasPrefix(trimmed, `{"openapi"`) {
				return true
			}
			if !seen[text] {
				seen[text] = true
				if _, err := mock.New(mock.Options{Spec: []byte(text)}); err == nil {
					out = append(out, conformanceDocument{fset.Position(e.Pos()).String(), []byte(text)})
				}
			}
			return false
		})
	}
	return out
}

// constString evaluates a string literal, a constant of the package or
// a concatenation of them.
func constString(e ast.Expr, consts map[string]ast.Expr, depth int) (string, bool) {
	if depth > 16 {
		return "", false
	}
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.Ident:
		if v, ok := consts[x.Name]; ok {
			return constString(v, consts, depth+1)
		}
	case *ast.ParenExpr:
		return constString(x.X, consts, depth+1)
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, ok := constString(x.X, consts, depth+1)
		if !ok {
			return "", false
		}
		b, ok := constString(x.Y, consts, depth+1)
		return a + b, ok
	}
	return "", false
}

// conformanceSeeds are the rounds' seeds.
var conformanceSeeds = []uint64{1, 2, 3, 4}

// conform serves spec and sends every operation valid requests, round by
// round, failing the test on every answer exercise.Check finds wrong.
func conform(t *testing.T, spec []byte) {
	doc, err := openapi.Load(spec)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	srv, err := mock.New(mock.Options{Spec: spec, Seed: 1})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	conformAt(t, doc, ts.URL, ts.Client())
}

// conformAt sends doc's operations valid requests at base, the URL the
// document is served at, and checks their answers (see
// TestConformance).
func conformAt(t *testing.T, doc *openapi.Document, base string, client *http.Client) {
	t.Helper()
	order := conformanceOrder(doc)
	failed := map[*openapi.Operation]int{} // failing answers by operation, after the first
	for _, seed := range conformanceSeeds {
		created := map[string]*createdResource{}
		for i, st := range order {
			c, err := exercise.Make(st.op, seed<<16|uint64(i))
			if err != nil {
				if seed == conformanceSeeds[0] {
					t.Logf("no valid request: %v", err)
				}
				continue
			}
			r := created[st.col]
			linked := st.link(c, r)
			req, err := c.Request(base)
			if err != nil {
				if linked {
					t.Logf("seed %d: %s: the created resource cannot be addressed (%v); a made-up one is", seed, st.op.Name, err)
					linked = false
				}
				req, err = exercise.Request(doc, st.op, base, seed<<16|uint64(i))
			}
			if err != nil {
				if seed == conformanceSeeds[0] {
					t.Logf("no valid request: %v", err)
				}
				continue
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s: %v", st.op.Name, err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatalf("%s: %v", st.op.Name, err)
			}
			problems := exercise.Check(doc, st.op, resp, body)
			if linked && st.item && r.hasID && st.rank >= 2 && st.rank <= 6 && resp.StatusCode >= 300 {
				problems = append(problems, fmt.Sprintf("the resource a create just made (identifier %s, from %s) is not there: %d %s",
					jsonx.Marshal(r.id), r.from, resp.StatusCode, clipText(body)))
			}
			if len(problems) > 0 {
				if failed[st.op]++; failed[st.op] == 1 {
					t.Errorf("seed %d: %s (%s %s): %d\n\t%s", seed, st.op.Name, req.Method, req.URL.RequestURI(),
						resp.StatusCode, strings.Join(problems, "\n\t"))
				}
			} else if testing.Verbose() {
				t.Logf("seed %d: %s %s: %d", seed, req.Method, req.URL.RequestURI(), resp.StatusCode)
			}
			if st.create && resp.StatusCode < 300 {
				created[st.col] = st.created(c, body)
			}
		}
	}
	for _, st := range order {
		if n := failed[st.op]; n > 1 {
			t.Errorf("%s: %d more answers were wrong", st.op.Name, n-1)
			failed[st.op] = 0
		}
	}
}

// clipText shortens an answer's body for a failure message.
func clipText(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		return s[:197] + "..."
	}
	return s
}

// conformanceStep is one operation in the order requests are sent.
type conformanceStep struct {
	op     *openapi.Operation
	col    string // the template of the collection the operation is on
	item   bool   // the operation addresses one resource: its last path parameter is the identifier
	create bool   // POST on the collection
	rank   int
	// idName is the property that identifies a resource of the
	// collection: the item path parameter's name where the document has
	// an item path, else "id".
	idName string
}

// conformanceOrder orders a document's operations collection by
// collection (in the document's order), each as a client would use it:
// create, list, read, replace, patch, delete, other operations last.
func conformanceOrder(doc *openapi.Document) []*conformanceStep {
	first := map[string]int{}
	idNames := map[string]string{}
	itemRanks := map[string]int{"GET": 2, "HEAD": 3, "PUT": 4, "PATCH": 5, "DELETE": 6}
	var steps []*conformanceStep
	for _, op := range doc.Operations {
		route := doc.Router().Route(op.Path)
		if route == nil {
			continue
		}
		col := route.Collection()
		st := &conformanceStep{op: op, col: col.Path, item: col.Item, rank: 7}
		if _, ok := first[col.Path]; !ok {
			first[col.Path] = len(first)
		}
		switch {
		case !col.Item && op.Method == "POST":
			st.rank, st.create = 0, true
		case !col.Item && op.Method == "GET":
			st.rank = 1
		case col.Item:
			if r, ok := itemRanks[op.Method]; ok {
				st.rank = r
			}
			names := templateNames(op.Path)
			idNames[col.Path] = names[len(names)-1]
		}
		steps = append(steps, st)
	}
	for _, st := range steps {
		st.idName = idNames[st.col]
		if st.idName == "" {
			st.idName = "id"
		}
	}
	sort.SliceStable(steps, func(i, j int) bool {
		a, b := steps[i], steps[j]
		if first[a.col] != first[b.col] {
			return first[a.col] < first[b.col]
		}
		return a.rank < b.rank
	})
	return steps
}

// templateNames returns the names of a path template's parameters, in
// order.
func templateNames(path string) []string {
	var out []string
	for {
		s := strings.IndexByte(path, '{')
		e := strings.IndexByte(path, '}')
		if s < 0 || e < s {
			return out
		}
		out = append(out, path[s+1:e])
		path = path[e+1:]
	}
}

// createdResource is what a create made: the values of its collection's
// path parameters, in order, and the identifier of the resource.
type createdResource struct {
	parents []any
	id      any
	hasID   bool
	from    string // where the identifier was read: "the create's answer" or "the create's body"
}

// created reads what a create made from its call and its answer: the
// identifier the answer carries, else the one the request body sent.
func (st *conformanceStep) created(c *exercise.Call, answer []byte) *createdResource {
	r := &createdResource{}
	for _, name := range templateNames(st.op.Path) {
		r.parents = append(r.parents, c.Values["path."+name])
	}
	var got any
	if v, err := jsonx.Decode(answer); err == nil {
		got = v
	}
	for i, v := range []any{got, c.Body} {
		if obj, ok := v.(map[string]any); ok {
			for _, name := range []string{st.idName, "id"} {
				if id, ok := obj[name]; ok && id != nil {
					r.id, r.hasID = id, true
					r.from = [...]string{"the create's answer", "the create's body"}[i]
					return r
				}
			}
		}
	}
	return r
}

// link makes a call address the resource a create made: the item
// operation's path parameters take the collection's values and the
// identifier, and a body that carries the identifier carries that one.
// It reports whether it changed anything.
func (st *conformanceStep) link(c *exercise.Call, r *createdResource) bool {
	if r == nil {
		return false
	}
	names := templateNames(st.op.Path)
	changed := false
	for i, v := range r.parents {
		if i < len(names) && v != nil {
			c.Values["path."+names[i]] = v
			changed = true
		}
	}
	if !st.item || !r.hasID {
		return changed
	}
	id := r.id
	if p := pathParam(st.op, names[len(names)-1]); p != nil && p.Schema != nil && p.Schema.Is("string") && !p.Schema.Is("integer") && !p.Schema.Is("number") {
		if n, ok := id.(json.Number); ok {
			id = string(n)
		}
	}
	c.Values["path."+names[len(names)-1]] = id
	if obj, ok := c.Body.(map[string]any); ok {
		if _, has := obj[st.idName]; has {
			obj[st.idName] = r.id
		}
	}
	return true
}

func pathParam(op *openapi.Operation, name string) *openapi.Param {
	for i := range op.Params {
		if p := &op.Params[i]; p.In == "path" && p.Name == name {
			return p
		}
	}
	return nil
}
