package openapi

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/internal/jsonx"
)

// Exchange is what a runtime expression reads: a request and its
// answer. Bodies are read through functions, so that only an
// expression that needs one decodes it; a nil function or field reads
// as absent.
type Exchange struct {
	URL         func() string // the request's URL, absolute
	Method      string
	Status      int
	ReqHeader   http.Header                      // the request's headers
	Query       func() url.Values                // the request's query
	Path        func(name string) (string, bool) // a path parameter's value as written
	RequestBody func() any                       // the request's JSON body
	Header      http.Header                      // the answer's headers
	Body        func() any                       // the answer's JSON body
}

// Evaluate evaluates one runtime expression (OpenAPI's Runtime
// Expressions) over x: $url, $method, $statusCode, $request.path.NAME,
// $request.query.NAME, $request.header.NAME, $request.body#/pointer and
// $response.header.NAME, $response.body#/pointer. A body's string is
// its text, any other value its JSON text. An expression that finds
// nothing, or an empty value, is an error.
func Evaluate(expr string, x Exchange) (string, error) {
	expr = strings.TrimSpace(expr)
	switch expr {
	case "$url":
		if x.URL != nil {
			return x.URL(), nil
		}
	case "$method":
		return x.Method, nil
	case "$statusCode":
		return strconv.Itoa(x.Status), nil
	}
	src, rest, ok := strings.Cut(expr, ".")
	if !ok || (src != "$request" && src != "$response") {
		return "", fmt.Errorf("%q is not a runtime expression this mock evaluates ($url, $method, $statusCode, $request.…, $response.…)", clip.To(expr, 80))
	}
	var found string
	var have bool
	switch {
	case strings.HasPrefix(rest, "body"):
		ptr, _ := strings.CutPrefix(rest, "body")
		ptr = strings.TrimPrefix(ptr, "#")
		read := x.RequestBody
		if src == "$response" {
			read = x.Body
		}
		var body any
		if read != nil {
			body = read()
		}
		v, ok := PointerValue(body, ptr)
		if ok {
			switch v := v.(type) {
			case string:
				found, have = v, true
			case nil, map[string]any, []any:
				if v != nil {
					found, have = string(jsonx.Marshal(v)), true
				}
			default:
				found, have = string(jsonx.Marshal(v)), true
			}
		}
	case strings.HasPrefix(rest, "header."):
		name := strings.TrimPrefix(rest, "header.")
		var h http.Header
		if src == "$response" {
			h = x.Header
		} else {
			h = x.ReqHeader
		}
		found = h.Get(name)
		have = found != ""
	case src == "$request" && strings.HasPrefix(rest, "query."):
		if x.Query != nil {
			q := x.Query()
			name := strings.TrimPrefix(rest, "query.")
			found, have = q.Get(name), q.Has(name)
		}
	case src == "$request" && strings.HasPrefix(rest, "path."):
		if x.Path != nil {
			found, have = x.Path(strings.TrimPrefix(rest, "path."))
		}
	default:
		return "", fmt.Errorf("%q is not a runtime expression this mock evaluates", clip.To(expr, 80))
	}
	if !have || found == "" {
		return "", fmt.Errorf("%s is empty in this exchange", clip.To(expr, 80))
	}
	return found, nil
}

// PointerValue follows a JSON pointer into v ("" is the whole value).
func PointerValue(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}
