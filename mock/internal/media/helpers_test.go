package media

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Schemas for tests.

func typed(t string) *openapi.Schema { return &openapi.Schema{Types: []string{t}} }

func object(name string, props ...openapi.Property) *openapi.Schema {
	return &openapi.Schema{Name: name, Types: []string{"object"}, Properties: props}
}

func array(name string, items *openapi.Schema) *openapi.Schema {
	return &openapi.Schema{Name: name, Types: []string{"array"}, Items: items}
}

func prop(name string, s *openapi.Schema) openapi.Property {
	return openapi.Property{Name: name, Schema: s}
}

// withXML gives s the xml object x and returns it.
func withXML(s *openapi.Schema, x openapi.XML) *openapi.Schema {
	s.XML = &x
	return s
}

// value decodes JSON text into a JSON value, as jsonx does.
func value(tb testing.TB, text string) any {
	tb.Helper()
	v, err := jsonx.Decode([]byte(text))
	if err != nil {
		tb.Fatalf("bad test JSON %s: %v", text, err)
	}
	return v
}

// wellFormed fails the test unless doc is one well-formed XML document
// that is also namespace-well-formed: one root element, every prefix
// declared, no attribute twice on an element.
func wellFormed(tb testing.TB, doc []byte) {
	tb.Helper()
	if err := checkXML(doc); err != nil {
		tb.Fatalf("not well-formed XML: %v\n%s", err, doc)
	}
}

func checkXML(doc []byte) error {
	d := xml.NewDecoder(bytes.NewReader(doc))
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(tok)) > 0 {
				return errors.New("text outside the root element")
			}
		}
	}
	if roots != 1 {
		return errors.New("not one root element")
	}
	// Namespaces, from the raw tokens.
	d = xml.NewDecoder(bytes.NewReader(doc))
	scopes := []map[string]string{{"xml": "http://www.w3.org/XML/1998/namespace"}}
	lookup := func(p string) (string, bool) {
		for i := len(scopes) - 1; i >= 0; i-- {
			if ns, ok := scopes[i][p]; ok {
				return ns, true
			}
		}
		return "", false
	}
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			decl := map[string]string{}
			for _, a := range tok.Attr {
				switch {
				case a.Name.Space == "" && a.Name.Local == "xmlns":
					decl[""] = a.Value
				case a.Name.Space == "xmlns":
					if a.Value == "" || a.Name.Local == "xmlns" || a.Name.Local == "xml" {
						return errors.New("bad declaration of " + a.Name.Local)
					}
					decl[a.Name.Local] = a.Value
				}
			}
			scopes = append(scopes, decl)
			if tok.Name.Space != "" {
				if _, ok := lookup(tok.Name.Space); !ok {
					return errors.New("undeclared prefix " + tok.Name.Space)
				}
			}
			seen := map[[2]string]bool{}
			for _, a := range tok.Attr {
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					if seen[[2]string{"xmlns", a.Name.Local}] {
						return errors.New("namespace declared twice")
					}
					seen[[2]string{"xmlns", a.Name.Local}] = true
					continue
				}
				ns := ""
				if a.Name.Space != "" {
					var ok bool
					if ns, ok = lookup(a.Name.Space); !ok {
						return errors.New("undeclared prefix " + a.Name.Space)
					}
				}
				if strings.Contains(a.Name.Local, ":") || seen[[2]string{ns, a.Name.Local}] {
					return errors.New("attribute " + a.Name.Local + " twice")
				}
				seen[[2]string{ns, a.Name.Local}] = true
			}
		case xml.EndElement:
			scopes = scopes[:len(scopes)-1]
		}
	}
}

// isJSON reports whether b is one JSON value.
func isJSON(b []byte) bool { return json.Valid(b) }
