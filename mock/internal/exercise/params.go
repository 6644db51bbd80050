package exercise

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Parameters are written by their style and explode as the "Style
// Examples" table of the OpenAPI specification writes them, every element
// percent-encoded (but in headers, which are not URIs) so that no value
// is taken for a delimiter. A parameter declared with content is its
// value written in that media type: JSON text. Arrays hold scalars and
// objects map names to scalars, but under deepObject, where objects nest.

var errNested = errors.New("the value nests arrays or objects, which its style cannot write")

// scalar writes a JSON scalar as text; false for arrays and objects.
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return string(x), true
	case bool:
		return fmt.Sprint(x), true
	case nil:
		return "null", true
	}
	return "", false
}

// pair is one name and value of an object.
type pair struct{ name, value string }

// parts splits a value into the texts of its elements: one for a scalar,
// the items of an array, or the names and values of an object (sorted by
// name). esc writes each text.
func parts(v any, esc func(string) string) (items []string, pairs []pair, isObject bool, err error) {
	switch x := v.(type) {
	case []any:
		items = make([]string, 0, len(x))
		for _, e := range x {
			t, ok := scalar(e)
			if !ok {
				return nil, nil, false, errNested
			}
			items = append(items, esc(t))
		}
		return items, nil, false, nil
	case map[string]any:
		names := make([]string, 0, len(x))
		for n := range x {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			t, ok := scalar(x[n])
			if !ok {
				return nil, nil, false, errNested
			}
			pairs = append(pairs, pair{esc(n), esc(t)})
		}
		return nil, pairs, true, nil
	}
	t, _ := scalar(v)
	return []string{esc(t)}, nil, false, nil
}

// join writes pairs as name<kv>value<sep>name<kv>value.
func join(pairs []pair, kv, sep string) string {
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(p.name)
		b.WriteString(kv)
		b.WriteString(p.value)
	}
	return b.String()
}

// pathValue writes the value of a path parameter: simple, label or matrix.
func pathValue(p *openapi.Param, v any) (string, error) {
	name := escape(p.Name)
	if p.Content != nil {
		return escape(string(jsonx.Marshal(v))), nil
	}
	style, explode := p.Styled()
	esc := escape
	if style == "label" {
		esc = escapeLabel
	}
	items, pairs, isObject, err := parts(v, esc)
	if err != nil {
		return "", err
	}
	_, isArray := v.([]any)
	switch style {
	case "simple":
		if isObject {
			if explode {
				return join(pairs, "=", ","), nil
			}
			return join(pairs, ",", ","), nil
		}
		return strings.Join(items, ","), nil
	case "label":
		if isObject {
			if explode {
				return "." + join(pairs, "=", "."), nil
			}
			return "." + join(pairs, ".", "."), nil
		}
		return "." + strings.Join(items, "."), nil
	case "matrix":
		switch {
		case isObject && explode:
			return ";" + join(pairs, "=", ";"), nil
		case isObject:
			return ";" + name + "=" + join(pairs, ",", ","), nil
		case isArray && explode:
			return ";" + name + "=" + strings.Join(items, ";"+name+"="), nil
		}
		return ";" + name + "=" + strings.Join(items, ","), nil
	}
	return "", fmt.Errorf("style %q is not a style of path parameters", style)
}

// queryPart writes the value of a query parameter as name=value pairs
// joined with '&' (empty for an exploded empty object).
func queryPart(p *openapi.Param, v any) (string, error) {
	name := escape(p.Name)
	if p.Content != nil {
		return name + "=" + escape(string(jsonx.Marshal(v))), nil
	}
	style, explode := p.Styled()
	if style == "deepObject" {
		obj, ok := v.(map[string]any)
		if !ok {
			return "", errors.New("deepObject style needs an object")
		}
		var out []string
		if err := deep(name, obj, &out, 0); err != nil {
			return "", err
		}
		return strings.Join(out, "&"), nil
	}
	items, pairs, isObject, err := parts(v, escape)
	if err != nil {
		return "", err
	}
	_, isArray := v.([]any)
	switch style {
	case "form", "spaceDelimited", "pipeDelimited":
	default:
		return "", fmt.Errorf("style %q is not a style of query parameters", style)
	}
	sep := map[string]string{"form": ",", "spaceDelimited": "%20", "pipeDelimited": "|"}[style]
	switch {
	case isObject && explode:
		return join(pairs, "=", "&"), nil
	case isObject:
		return name + "=" + join(pairs, sep, sep), nil
	case isArray && explode && len(items) > 0:
		return name + "=" + strings.Join(items, "&"+name+"="), nil
	}
	return name + "=" + strings.Join(items, sep), nil
}

// queryString writes the value of a querystring parameter (OpenAPI 3.2),
// the whole query string: an object as an application/x-www-form-urlencoded
// body is written, any other value as the text of a string or JSON text,
// percent-encoded.
func queryString(p *openapi.Param, v any) (string, error) {
	if p.Content.Type == "application/x-www-form-urlencoded" {
		obj, ok := v.(map[string]any)
		if !ok {
			return "", fmt.Errorf("the value %s is not an object", clip(string(jsonx.Marshal(v)), 80))
		}
		return urlencoded(p.Content, obj)
	}
	if s, ok := v.(string); ok && !openapi.IsJSON(p.Content.Type) {
		return escape(s), nil
	}
	return escape(string(jsonx.Marshal(v))), nil
}

// deep writes an object in deepObject style: name[a][b]=value.
func deep(prefix string, obj map[string]any, out *[]string, depth int) error {
	if depth > 8 {
		return errors.New("the object nests too deep for deepObject style")
	}
	names := make([]string, 0, len(obj))
	for n := range obj {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		at := prefix + "[" + escape(n) + "]"
		switch x := obj[n].(type) {
		case map[string]any:
			if err := deep(at, x, out, depth+1); err != nil {
				return err
			}
		case []any:
			return errNested
		default:
			t, _ := scalar(x)
			*out = append(*out, at+"="+escape(t))
		}
	}
	return nil
}

// headerValue writes the value of a header parameter in simple style;
// header values are not percent-encoded, so an element holding a comma
// or a character a header cannot carry cannot be written.
func headerValue(p *openapi.Param, v any) (string, error) {
	if p.Content != nil {
		return checkHeader(string(jsonx.Marshal(v)), false)
	}
	_, explode := p.Styled()
	items, pairs, isObject, err := parts(v, func(s string) string { return s })
	if err != nil {
		return "", err
	}
	var text string
	switch {
	case isObject && explode:
		text = join(pairs, "=", ",")
	case isObject:
		text = join(pairs, ",", ",")
	default:
		text = strings.Join(items, ",")
	}
	list := isObject || len(items) != 1
	if _, isArray := v.([]any); isArray {
		list = true
	}
	if list {
		for _, e := range append(items, pairsText(pairs)...) {
			if strings.ContainsAny(e, ",=") || strings.TrimSpace(e) != e {
				return "", fmt.Errorf("element %q cannot be written in a header list", e)
			}
		}
	}
	return checkHeader(text, list)
}

func pairsText(pairs []pair) []string {
	var out []string
	for _, p := range pairs {
		out = append(out, p.name, p.value)
	}
	return out
}

// checkHeader refuses text a header field cannot carry as it is: control
// characters, bytes beyond ASCII, and spaces at the ends.
func checkHeader(text string, list bool) (string, error) {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < 0x20 && c != '\t' || c >= 0x7f {
			return "", fmt.Errorf("%q cannot be sent in a header", text)
		}
	}
	if !list && strings.TrimSpace(text) != text {
		return "", fmt.Errorf("%q has spaces at its ends, which a header loses", text)
	}
	return text, nil
}

// cookiePart writes the value of a cookie parameter in form style, as
// name=value pairs joined with "; ".
func cookiePart(p *openapi.Param, v any) (string, error) {
	name := escape(p.Name)
	if p.Content != nil {
		return name + "=" + escape(string(jsonx.Marshal(v))), nil
	}
	style, explode := p.Styled()
	if style != "form" {
		return "", fmt.Errorf("style %q is not a style of cookie parameters", style)
	}
	items, pairs, isObject, err := parts(v, escape)
	if err != nil {
		return "", err
	}
	_, isArray := v.([]any)
	switch {
	case isObject && explode:
		return join(pairs, "=", "; "), nil
	case isObject:
		return name + "=" + join(pairs, ",", ","), nil
	case isArray && explode && len(items) > 0:
		return name + "=" + strings.Join(items, "; "+name+"="), nil
	}
	return name + "=" + strings.Join(items, ","), nil
}
