package mount

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// CleanBase returns a base path in the form the table keys it by: "/",
// or segments after "/" without a trailing one. A base must be a plain
// path: no template, query, fragment, empty segment, "." or "..".
func CleanBase(base string) (string, error) {
	if !strings.HasPrefix(base, "/") {
		return "", fmt.Errorf("base path %q does not start with /", base)
	}
	trimmed := strings.TrimRight(base, "/")
	if trimmed == "" {
		return "/", nil
	}
	if strings.ContainsAny(trimmed, "{}?#") {
		return "", fmt.Errorf("base path %q holds a template, query or fragment", base)
	}
	for _, seg := range strings.Split(trimmed[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", fmt.Errorf("base path %q has an empty, . or .. segment", base)
		}
	}
	return trimmed, nil
}

// Doc is what the table knows of a document it mounts.
type Doc struct {
	Name  string   // how messages name it
	Base  string   // where it is mounted, as CleanBase gives it
	Paths []string // its path templates, such as /invoices/{id}
}

// Table routes a request path to the document mounted at the longest
// base path the path starts with, segment by segment.
type Table struct {
	bases map[string]int // base -> index of its document
	// depths are the distinct numbers of segments of the bases, most
	// first: Find looks a path's prefix of each up in bases, so that
	// finding costs one map look-up per depth, however many documents
	// there are.
	depths []int
}

// OverlapError is two documents that could be given the same request.
type OverlapError struct {
	A, B    Doc
	Example string // a request path both could take
	Why     string // what makes it so
}

func (e *OverlapError) Error() string {
	return fmt.Sprintf("documents %s (at %s) and %s (at %s) could both be given %s: %s; mount them at base paths that do not overlap (--spec /name=file)",
		e.A.Name, e.A.Base, e.B.Name, e.B.Base, e.Example, e.Why)
}

// New makes the table of docs, in their order. Two documents at the
// same base path, or one whose paths could take a request under the
// other's longer base path, are an *OverlapError.
func New(docs []Doc) (*Table, error) {
	t := &Table{bases: make(map[string]int, len(docs))}
	for i, d := range docs {
		if j, ok := t.bases[d.Base]; ok {
			ex := d.Base
			if len(d.Paths) > 0 {
				ex = join(d.Base, d.Paths[0])
			}
			return nil, &OverlapError{A: docs[j], B: d, Example: ex, Why: "they are mounted at the same base path"}
		}
		t.bases[d.Base] = i
		if n := depth(d.Base); !slices.Contains(t.depths, n) {
			t.depths = append(t.depths, n)
		}
	}
	slices.Sort(t.depths)
	slices.Reverse(t.depths)
	for _, a := range docs {
		for _, b := range docs {
			if e := shadows(a, b); e != nil {
				return nil, e
			}
		}
	}
	return t, nil
}

// Find returns the index of the document whose base path is the longest
// that path starts with, and the rest of path after it ("/" when path is
// the base path itself); ok is false when no base path fits.
func (t *Table) Find(path string) (i int, rest string, ok bool) {
	for _, d := range t.depths {
		end, fits := prefixEnd(path, d)
		if !fits {
			continue
		}
		key := path[:end]
		if d == 0 {
			key = "/"
		}
		if i, ok := t.bases[key]; ok {
			rest = path[end:]
			if rest == "" {
				rest = "/"
			}
			return i, rest, true
		}
	}
	return 0, "", false
}

// Len returns the number of documents in the table.
func (t *Table) Len() int { return len(t.bases) }

// prefixEnd returns where the first n segments of path end; fits is
// false when path has fewer, or an empty one among them.
func prefixEnd(path string, n int) (end int, fits bool) {
	for range n {
		if end >= len(path) || path[end] != '/' {
			return 0, false
		}
		k := strings.IndexByte(path[end+1:], '/')
		switch {
		case k == 0, k < 0 && end+1 == len(path):
			return 0, false // an empty segment
		case k < 0:
			end = len(path)
		default:
			end += 1 + k
		}
	}
	return end, true
}

// depth returns how many segments a clean base path has.
func depth(base string) int {
	if base == "/" {
		return 0
	}
	return strings.Count(base, "/")
}

// shadows returns the overlap of a and b when b's base path is under a's
// and one of a's paths could take a request under b's base, which the
// table would give b.
func shadows(a, b Doc) *OverlapError {
	if a.Base == b.Base || !under(b.Base, a.Base) {
		return nil
	}
	rel := strings.Split(strings.TrimPrefix(b.Base, a.Base)[1:], "/")
	if a.Base == "/" {
		rel = strings.Split(b.Base[1:], "/")
	}
	for _, p := range a.Paths {
		segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
		if len(segs) < len(rel) {
			continue
		}
		if !matches(segs[:len(rel)], rel) {
			continue
		}
		ex := join(b.Base, "/"+strings.Join(segs[len(rel):], "/"))
		return &OverlapError{A: a, B: b, Example: ex, Why: fmt.Sprintf("%s declares %s, which the longer base path of %s takes", a.Name, p, b.Name)}
	}
	return nil
}

// under reports whether base b is strictly under base a.
func under(b, a string) bool {
	if a == "/" {
		return b != "/"
	}
	return strings.HasPrefix(b, a+"/")
}

// matches reports whether each template segment could be the literal
// segment beside it.
func matches(tmpl, lit []string) bool {
	for i, s := range tmpl {
		if !strings.Contains(s, "{") {
			if s != lit[i] {
				return false
			}
			continue
		}
		if !segmentPattern(s).MatchString(lit[i]) {
			return false
		}
	}
	return true
}

// segmentPattern returns the pattern of a path template's segment: its
// literal parts as they are, each {param} one or more characters.
func segmentPattern(seg string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for seg != "" {
		i := strings.IndexByte(seg, '{')
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(seg))
			break
		}
		b.WriteString(regexp.QuoteMeta(seg[:i]))
		j := strings.IndexByte(seg[i:], '}')
		if j < 0 {
			b.WriteString(regexp.QuoteMeta(seg[i:]))
			break
		}
		b.WriteString(".+")
		seg = seg[i+j+1:]
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// join puts a path under a base path.
func join(base, p string) string {
	if base == "/" {
		return p
	}
	if p == "/" {
		return base
	}
	return base + p
}
