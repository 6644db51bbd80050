// Command probe sends one valid request to every operation of an OpenAPI
// document served by a running plantmock, and reports the answers: a valid
// request must never get a 5xx. Requests are made from the document
// itself: path, query, header and cookie parameters and JSON bodies are
// generated from their schemas (and checked against them before sending),
// and credentials are made up for the first security requirement.
//
//	go run ./mock/internal/probe -spec api.json -url http://127.0.0.1:4010
//
// It exits 1 when any answer is a 5xx or the mock cannot be reached, and
// lists the operations it could not make a valid request for (with
// -strict, those fail it too).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func main() {
	spec := flag.String("spec", "", "the OpenAPI `file` the mock serves")
	base := flag.String("url", "http://127.0.0.1:4010", "the mock's base `URL`")
	verbose := flag.Bool("v", false, "print every request and its status")
	strict := flag.Bool("strict", false, "fail also when a valid request cannot be made for some operation")
	flag.Parse()
	if *spec == "" {
		fmt.Fprintln(os.Stderr, "usage: probe -spec FILE [-url URL] [-v] [-strict]")
		os.Exit(2)
	}
	data, err := files.ReadPath(*spec, 64<<20)
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(2)
	}
	doc, err := openapi.Load(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(2)
	}
	os.Exit(run(doc, strings.TrimRight(*base, "/"), *verbose, *strict, os.Stdout))
}

func run(doc *openapi.Document, base string, verbose, strict bool, out io.Writer) int {
	client := &http.Client{Timeout: 10 * time.Second}
	byStatus := map[int]int{}
	var failures, unmade []string
	for i, op := range doc.Operations {
		req, why := request(doc, op, base, uint64(i))
		if req == nil {
			unmade = append(unmade, op.Name+": "+why)
			continue
		}
		resp, err := client.Do(req)
		if err != nil {
			fmt.Fprintf(out, "%s: %v\n", op.Name, err)
			return 1
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		byStatus[resp.StatusCode]++
		if verbose {
			fmt.Fprintf(out, "%d %s %s\n", resp.StatusCode, req.Method, req.URL.RequestURI())
		}
		if resp.StatusCode >= 500 {
			failures = append(failures, fmt.Sprintf("%s (%s %s): %d %s", op.Name, req.Method, req.URL.RequestURI(), resp.StatusCode, bytes.TrimSpace(body)))
		}
	}
	var codes []int
	for c := range byStatus {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	fmt.Fprintf(out, "probed %d of %d operations:", len(doc.Operations)-len(unmade), len(doc.Operations))
	for _, c := range codes {
		fmt.Fprintf(out, " %d×%d", byStatus[c], c)
	}
	fmt.Fprintln(out)
	for _, u := range unmade {
		fmt.Fprintln(out, "no valid request could be made:", u)
	}
	for _, f := range failures {
		fmt.Fprintln(out, "5xx:", f)
	}
	if len(failures) > 0 || (strict && len(unmade) > 0) {
		return 1
	}
	return 0
}

// request makes a valid request for op, or says why it cannot.
func request(doc *openapi.Document, op *openapi.Operation, base string, n uint64) (*http.Request, string) {
	f := gen.Faker(1, n)
	path := op.Path
	q := url.Values{}
	h := http.Header{}
	var cookies []string
	for _, p := range op.Params {
		if !p.Required && p.In != "path" {
			continue
		}
		if p.Schema == nil {
			return nil, "parameter " + p.Name + " has no schema"
		}
		v := gen.Value(p.Schema, f)
		if vs := p.Schema.Validate(v); len(vs) > 0 {
			return nil, fmt.Sprintf("parameter %s: generated %s breaks its schema: %s", p.Name, jsonx.Marshal(v), vs[0])
		}
		text, ok := simple(v)
		if !ok {
			return nil, "parameter " + p.Name + " is not a primitive or a list of them"
		}
		switch p.In {
		case "path":
			path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(text))
		case "query":
			q.Set(p.Name, text)
		case "header":
			h.Set(p.Name, text)
		case "cookie":
			cookies = append(cookies, p.Name+"="+text)
		}
	}
	var body io.Reader
	if op.Body != nil && op.Body.Required {
		m := op.Body.JSON()
		if m == nil || m.Schema == nil {
			return nil, "the request body is not JSON"
		}
		v := gen.Value(m.Schema, f)
		if vs := m.Schema.Validate(v); len(vs) > 0 {
			return nil, fmt.Sprintf("generated body breaks its schema: %s", vs[0])
		}
		body = bytes.NewReader(jsonx.Marshal(v))
		ct := m.Type
		if strings.Contains(ct, "*") {
			ct = "application/json"
		}
		h.Set("Content-Type", ct)
	}
	if len(op.Security) > 0 {
		for _, s := range op.Security[0] {
			switch {
			case s.Type == "http" && s.Scheme == "basic":
				h.Set("Authorization", "Basic dXNlcjpwYXNz")
			case s.Type == "apiKey" && s.In == "header":
				h.Set(s.Param, "key")
			case s.Type == "apiKey" && s.In == "query":
				q.Set(s.Param, "key")
			case s.Type == "apiKey" && s.In == "cookie":
				cookies = append(cookies, s.Param+"=key")
			default:
				h.Set("Authorization", "Bearer token")
			}
		}
	}
	u := base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequest(op.Method, u, body)
	if err != nil {
		return nil, err.Error()
	}
	req.Header = h
	if len(cookies) > 0 {
		req.Header.Set("Cookie", strings.Join(cookies, "; "))
	}
	return req, ""
}

// simple writes a value in the simple and form styles, unexploded.
func simple(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return string(x), true
	case bool:
		return fmt.Sprint(x), true
	case nil:
		return "null", true
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, ok := simple(e)
			if !ok {
				return "", false
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), true
	}
	return "", false
}
