package openapi

import (
	"fmt"
	"net/url"
	"strings"
)

// readSelf reads $self (OpenAPI 3.2), the document's base URI: a
// reference to it with a fragment is a reference within the document.
// One that is not a URI reference, or has a fragment, is a mistake and
// is ignored.
func (l *loader) readSelf() {
	n := l.root.get("$self")
	if n == nil || !l.doc.v32 {
		return
	}
	u, err := url.Parse(n.text())
	switch {
	case n.kind != stringNode:
		l.mistake("$self", at("/$self", n), "$self is not a string: it is ignored")
	case err != nil:
		l.mistake("$self", at("/$self", n), fmt.Sprintf("$self is not a URI reference (%s): it is ignored", oneLine(err)))
	case strings.Contains(n.str, "#"):
		l.mistake("$self", at("/$self", n), "$self has a fragment, which it must not: it is ignored")
	default:
		l.self = u
	}
}

// local returns ref as a reference within the document ("#" and its
// fragment) when, resolved against $self, it is $self's URI with a
// fragment; otherwise ref as it is.
func (l *loader) local(ref string) string {
	if l.self == nil || ref == "" || ref[0] == '#' {
		return ref
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	abs := l.self.ResolveReference(u)
	frag := abs.EscapedFragment()
	abs.Fragment, abs.RawFragment = "", ""
	if abs.String() != l.self.String() {
		return ref
	}
	return "#" + frag
}

// outside names what a reference outside the document points at, for
// messages: with $self, the URI it resolves to.
func (l *loader) outside(ref string) string {
	if l.self == nil {
		return fmt.Sprintf("%q", ref)
	}
	u, err := url.Parse(ref)
	if err != nil {
		return fmt.Sprintf("%q", ref)
	}
	return fmt.Sprintf("%q (%s against $self)", ref, l.self.ResolveReference(u))
}
