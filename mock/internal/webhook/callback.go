package webhook

import (
	"fmt"
	"net/url"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// ExpandURL evaluates a callback's URL: a runtime expression
// ($request.body#/callbackUrl), or a URL with expressions between braces
// (http://host/cb?id={$request.body#/id}), over the request and its
// answer. An expression that finds nothing is an error: the callback has
// nowhere to go.
func ExpandURL(tmpl string, x *event.Answered) (string, error) {
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
			return "", fmt.Errorf("the URL %q has a { without }", cliptext.To(tmpl, 100))
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

// evalExpression evaluates one runtime expression over the request and
// its answer (openapi.Evaluate).
func evalExpression(expr string, x *event.Answered) (string, error) {
	return openapi.Evaluate(expr, openapi.Exchange{
		URL: func() string {
			u := x.URL
			u.Host = x.Host
			u.Scheme = "http"
			if x.TLS {
				u.Scheme = "https"
			}
			return u.String()
		},
		Method:    x.E.Method,
		Status:    x.Status,
		ReqHeader: x.Header,
		Query:     x.URL.Query,
		Path: func(name string) (string, bool) {
			if x.Plan != nil {
				for i, p := range x.Plan.Route.Params {
					if p == name && i < len(x.Vals) {
						return x.Vals[i], true
					}
				}
			}
			return "", false
		},
		RequestBody: func() any { return x.Body },
		Header:      x.Answer,
		Body: func() any {
			v, _ := jsonx.Decode(x.Response)
			return v
		},
	})
}
