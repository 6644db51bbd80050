package mount

import (
	"errors"
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

// SplitSpec splits a --spec value into the name and base path it mounts
// its document at ("" for none) and the document's file: FILE,
// BASE=FILE where BASE starts with "/", or NAME:BASE=FILE. A file whose
// name holds "=" is named as itself unless what comes before the first
// "=" is BASE or NAME:BASE.
func SplitSpec(v string) (name, base, file string, err error) {
	b, f, ok := strings.Cut(v, "=")
	n, nb, named := strings.Cut(b, ":")
	named = named && strings.HasPrefix(nb, "/")
	if named {
		name, b = n, nb
	}
	switch {
	case v == "":
		return "", "", "", errors.New("an empty value names no file")
	case !ok || !strings.HasPrefix(b, "/"):
		return "", "", v, nil
	case named && name == "":
		return "", "", "", fmt.Errorf("%q names no document before :%s=", v, b)
	case f == "":
		return "", "", "", fmt.Errorf("%q names no file after %s=", v, b)
	}
	return name, b, f, nil
}

// Doc is what the table knows of a document it mounts.
type Doc struct {
	Name   string   // how messages name it, unique among the documents
	Source string   // where it was read from (its file), for messages; "" for none
	Base   string   // where it is mounted, as CleanBase gives it
	Paths  []string // its path templates, such as /invoices/{id}
}

// String names d in messages: its name, its source and base path.
func (d Doc) String() string {
	if d.Source != "" {
		return fmt.Sprintf("%s (%s at %s)", d.Name, d.Source, d.Base)
	}
	return fmt.Sprintf("%s (at %s)", d.Name, d.Base)
}

// Table routes a request path to the document mounted at the longest
// base path the path starts with, segment by segment; of documents
// mounted at one base path, to the one that declares the path.
type Table struct {
	bases map[string][]member // base -> its documents
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
	return fmt.Sprintf("documents %s and %s could both be given %s: %s; mount them at base paths that do not overlap (--spec /name=file)",
		e.A, e.B, e.Example, e.Why)
}

// member is a document of the table, with its paths' segments, by
// which Find tells apart documents mounted at one base path.
type member struct {
	doc   int
	paths [][]*regexp.Regexp // nil for a literal segment
	lits  [][]string
}

// New makes the table of docs, in their order. Two documents that
// declare paths one request could take at the same base path, or one
// whose paths could take a request under the other's longer base path,
// are an *OverlapError; two of one name are an error too.
func New(docs []Doc) (*Table, error) {
	t := &Table{bases: make(map[string][]member, len(docs))}
	for i, d := range docs {
		t.bases[d.Base] = append(t.bases[d.Base], newMember(i, d.Paths))
		if n := depth(d.Base); !slices.Contains(t.depths, n) {
			t.depths = append(t.depths, n)
		}
	}
	slices.Sort(t.depths)
	slices.Reverse(t.depths)
	for i, a := range docs {
		for j, b := range docs {
			if e := shadows(a, b); e != nil {
				return nil, e
			}
			if j > i && a.Base == b.Base {
				if e := shares(a, b); e != nil {
					return nil, e
				}
			}
		}
	}
	for i, a := range docs {
		for _, b := range docs[:i] {
			if a.Name == b.Name {
				return nil, fmt.Errorf("documents %s and %s are both named %q; name each with --spec NAME:%s=FILE", b, a, a.Name, a.Base)
			}
		}
	}
	return t, nil
}

// newMember compiles the segments of paths.
func newMember(doc int, paths []string) member {
	m := member{doc: doc}
	for _, p := range paths {
		segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
		res := make([]*regexp.Regexp, len(segs))
		for k, seg := range segs {
			if strings.Contains(seg, "{") {
				res[k] = segmentPattern(seg)
			}
		}
		m.paths, m.lits = append(m.paths, res), append(m.lits, segs)
	}
	return m
}

// declares reports whether one of m's paths could be path.
func (m member) declares(path string) bool {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(segs) > 1 && segs[len(segs)-1] == "" {
		segs = segs[:len(segs)-1]
	}
	for k, lits := range m.lits {
		if len(lits) == len(segs) && fits(lits, m.paths[k], segs) {
			return true
		}
	}
	return false
}

// fits reports whether each segment of a path, literal or pattern, could
// be the request's segment beside it.
func fits(lits []string, res []*regexp.Regexp, segs []string) bool {
	for i, s := range segs {
		if res[i] == nil && lits[i] != s || res[i] != nil && !res[i].MatchString(s) {
			return false
		}
	}
	return true
}

// shares returns the overlap of a and b, mounted at one base path, when
// a path of each could take one request: the same literal path, or a
// template that could be a path of the other. Two templates that differ
// only in their parameters are taken to overlap.
func shares(a, b Doc) *OverlapError {
	for _, p := range a.Paths {
		ps := strings.Split(strings.TrimPrefix(p, "/"), "/")
		for _, q := range b.Paths {
			qs := strings.Split(strings.TrimPrefix(q, "/"), "/")
			if len(ps) != len(qs) {
				continue
			}
			ex, ok := common(ps, qs)
			if !ok {
				continue
			}
			why := fmt.Sprintf("both declare %s", p)
			if p != q {
				why = fmt.Sprintf("%s declares %s and %s declares %s", a.Name, p, b.Name, q)
			}
			return &OverlapError{A: a, B: b, Example: join(a.Base, "/"+strings.Join(ex, "/")), Why: why}
		}
	}
	return nil
}

// common returns a path both templates could take, segment by segment:
// the literal where one has one, else the first's parameter.
func common(ps, qs []string) ([]string, bool) {
	out := make([]string, len(ps))
	for i := range ps {
		pt, qt := strings.Contains(ps[i], "{"), strings.Contains(qs[i], "{")
		switch {
		case !pt && !qt && ps[i] != qs[i]:
			return nil, false
		case pt && !qt && !segmentPattern(ps[i]).MatchString(qs[i]):
			return nil, false
		case !pt && qt && !segmentPattern(qs[i]).MatchString(ps[i]):
			return nil, false
		case pt && !qt:
			out[i] = qs[i]
		default:
			out[i] = ps[i]
		}
	}
	return out, true
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
		if ms, ok := t.bases[key]; ok {
			rest = path[end:]
			if rest == "" {
				rest = "/"
			}
			return pick(ms, rest), rest, true
		}
	}
	return 0, "", false
}

// pick returns the document of ms that declares rest: the only one, the
// first whose paths could be rest, else the first (whose answer is then
// that it has no such path).
func pick(ms []member, rest string) int {
	if len(ms) > 1 {
		for _, m := range ms {
			if m.declares(rest) {
				return m.doc
			}
		}
	}
	return ms[0].doc
}

// Len returns the number of documents in the table.
func (t *Table) Len() int {
	n := 0
	for _, ms := range t.bases {
		n += len(ms)
	}
	return n
}

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
