package exercise

import (
	"bytes"
	"encoding/xml"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// ReadBody reads a request body written in media type m back into a
// JSON value, as the body's writer wrote it: JSON text, a form or
// multipart body by the media type's decoder, XML by the schema's xml
// objects (an element's text as a string, so that it says which
// properties are there, not their types); false for a body it cannot
// read, or one of another media type.
func ReadBody(m *openapi.Media, data []byte, contentType string) (any, bool) {
	switch {
	case m == nil || len(data) == 0:
		return nil, false
	case m.IsForm():
		v, vs := m.DecodeForm(data, contentType)
		return v, len(vs) == 0
	case kind(m.Type) == 0:
		v, err := jsonx.Decode(data)
		return v, err == nil
	case kind(m.Type) == 4:
		root, err := readXML(data)
		if err != nil {
			return nil, false
		}
		return xmlValue(root, m.Schema, 0), true
	}
	return nil, false
}

// element is an XML element as read: its attributes, children and text.
type element struct {
	name  string
	attrs map[string]string
	kids  []*element
	text  strings.Builder
}

// readXML reads a document's root element.
func readXML(data []byte) (*element, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []*element
	var root *element
	for {
		tok, err := dec.Token()
		if err != nil {
			if root != nil && len(stack) == 0 {
				return root, nil
			}
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &element{name: t.Name.Local, attrs: map[string]string{}}
			for _, a := range t.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.kids = append(top.kids, e)
			} else if root == nil {
				root = e
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			}
		}
	}
}

// xmlValue is the JSON value an element written by writeXML for schema
// s stands for.
func xmlValue(e *element, s *openapi.Schema, depth int) any {
	if s == nil || len(s.Properties) == 0 || depth > 32 {
		return e.text.String()
	}
	obj := map[string]any{}
	for _, p := range s.Properties {
		name := xmlName(p.Schema, p.Name)
		if p.Schema != nil && p.Schema.XML != nil && p.Schema.XML.Attribute {
			if v, ok := e.attrs[name]; ok {
				obj[p.Name] = v
			}
			continue
		}
		if p.Schema != nil && p.Schema.Is("array") && !p.Schema.Is("object") {
			holder := e
			if p.Schema.XML != nil && p.Schema.XML.Wrapped {
				if holder = child(e, name); holder == nil {
					continue
				}
			}
			item := xmlName(p.Schema.Items, name)
			var items []any
			for _, k := range holder.kids {
				if k.name == item {
					items = append(items, xmlValue(k, p.Schema.Items, depth+1))
				}
			}
			if items != nil || holder != e {
				obj[p.Name] = items
			}
			continue
		}
		if k := child(e, name); k != nil {
			obj[p.Name] = xmlValue(k, p.Schema, depth+1)
		}
	}
	return obj
}

// child returns e's first child element of that name, nil for none.
func child(e *element, name string) *element {
	for _, k := range e.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}
