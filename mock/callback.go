package mock

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// expandURL evaluates a callback's URL: a runtime expression
// ($request.body#/callbackUrl), or a URL with expressions between braces
// (http://host/cb?id={$request.body#/id}), over the request and its
// answer. An expression that finds nothing is an error: the callback has
// nowhere to go.
func expandURL(tmpl string, x *exchange) (string, error) {
	if strings.HasPrefix(tmpl, "$") {
		return evalExpression(tmpl, x)
	}
	var b strings.Builder
	rest := tmpl
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(rest)
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("the URL %q has a { without }", clip(tmpl, 100))
		}
		b.WriteString(rest[:i])
		v, err := evalExpression(rest[i+1:i+j], x)
		if err != nil {
			return "", err
		}
		switch {
		case b.Len() == 0: // the URL starts with the value: a base URL
		case strings.Contains(b.String(), "?"):
			v = url.QueryEscape(v)
		default: // in the path: slashes stay, as a value of a path may hold them
			parts := strings.Split(v, "/")
			for k, p := range parts {
				parts[k] = url.PathEscape(p)
			}
			v = strings.Join(parts, "/")
		}
		b.WriteString(v)
		rest = rest[i+j+1:]
	}
	return b.String(), nil
}

// evalExpression evaluates one runtime expression (OpenAPI's Runtime
// Expressions): $url, $method, $statusCode, $request.path.NAME,
// $request.query.NAME, $request.header.NAME, $request.body#/pointer and
// $response.header.NAME, $response.body#/pointer.
func evalExpression(expr string, x *exchange) (string, error) {
	expr = strings.TrimSpace(expr)
	switch expr {
	case "$url":
		u := *x.client.URL
		u.Host = x.client.Host
		u.Scheme = "http"
		if x.client.TLS != nil {
			u.Scheme = "https"
		}
		return u.String(), nil
	case "$method":
		return x.r.Method, nil
	case "$statusCode":
		return strconv.Itoa(x.w.status), nil
	}
	src, rest, ok := strings.Cut(expr, ".")
	if !ok || (src != "$request" && src != "$response") {
		return "", fmt.Errorf("%q is not a runtime expression this mock evaluates ($url, $method, $statusCode, $request.…, $response.…)", clip(expr, 80))
	}
	var found string
	var have bool
	switch {
	case strings.HasPrefix(rest, "body"):
		ptr, _ := strings.CutPrefix(rest, "body")
		ptr = strings.TrimPrefix(ptr, "#")
		body := x.body
		if src == "$response" {
			body, _ = jsonx.Decode(x.w.body)
		}
		v, ok := pointerValue(body, ptr)
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
		h := x.r.Header
		if src == "$response" {
			h = x.w.Header()
		}
		found = h.Get(name)
		have = found != ""
	case src == "$request" && strings.HasPrefix(rest, "query."):
		q := x.r.URL.Query()
		name := strings.TrimPrefix(rest, "query.")
		found, have = q.Get(name), q.Has(name)
	case src == "$request" && strings.HasPrefix(rest, "path."):
		name := strings.TrimPrefix(rest, "path.")
		if x.route != nil {
			for i, p := range x.route.Params {
				if p == name && i < len(x.vals) {
					found, have = x.vals[i], true
				}
			}
		}
	default:
		return "", fmt.Errorf("%q is not a runtime expression this mock evaluates", clip(expr, 80))
	}
	if !have || found == "" {
		return "", fmt.Errorf("%s is empty in this exchange", clip(expr, 80))
	}
	return found, nil
}

// pointerValue follows a JSON pointer ("" is the whole value).
func pointerValue(v any, ptr string) (any, bool) {
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
