package mock

import (
	"encoding/json"
	"net/url"
	"strconv"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// paging is how a list operation pages, from the query parameters it
// declares: a page size (limit, per_page, page_size, ...), and where the
// page starts: an item offset (offset, skip, start), a page number (page),
// or a cursor (cursor, after, page_token, ...). The mock's cursors are
// item offsets written as decimal strings; a cursor it did not give
// starts at the first item.
type paging struct {
	size     string // the page size parameter; "" when none is declared
	sizeDflt int    // its declared default; -1 for none (every item)
	offset   string // the item offset parameter, or ""
	page     string // the page number parameter, or ""
	pageBase int    // the first page's number: 1, or 0 where the parameter's minimum is 0
	cursor   string // the cursor parameter, or ""
}

// Parameter names, compared without case, '_' and '-'.
var (
	sizeNames   = []string{"limit", "perpage", "pagesize", "size", "maxresults", "top", "$top", "pagelimit"}
	offsetNames = []string{"offset", "skip", "$skip", "start", "startindex", "from"}
	pageNames   = []string{"page", "pagenumber", "pagenum", "pageno", "pageindex"}
	cursorNames = []string{"cursor", "after", "pagetoken", "nexttoken", "continuationtoken", "nextpagetoken", "pagecursor"}
)

func isOneOf(name string, names []string) bool {
	n := squash(name)
	for _, w := range names {
		if n == w {
			return true
		}
	}
	return false
}

// pagingOf returns how a list operation pages, or nil when it declares no
// paging parameter. Sizes, offsets and page numbers are integer
// parameters; cursors are strings.
func pagingOf(op *openapi.Operation) *paging {
	pg := paging{sizeDflt: -1, pageBase: 1}
	for _, p := range op.Params {
		if p.In != "query" || p.Schema == nil {
			continue
		}
		whole := p.Schema.Is("integer") || p.Schema.Is("number")
		switch {
		case whole && pg.size == "" && isOneOf(p.Name, sizeNames):
			pg.size = p.Name
			if n, ok := intValue(p.Schema.Default); ok && p.Schema.HasDefault && n >= 0 {
				pg.sizeDflt = n
			}
		case whole && pg.offset == "" && isOneOf(p.Name, offsetNames):
			pg.offset = p.Name
		case whole && pg.page == "" && isOneOf(p.Name, pageNames):
			pg.page = p.Name
			if m := p.Schema.Minimum; m != nil && *m == 0 {
				pg.pageBase = 0
			}
		case p.Schema.Is("string") && pg.cursor == "" && isOneOf(p.Name, cursorNames):
			pg.cursor = p.Name
		}
	}
	if pg == (paging{sizeDflt: -1, pageBase: 1}) {
		return nil
	}
	return &pg
}

// intValue returns a JSON number that is a whole int.
func intValue(v any) (int, bool) {
	switch n := v.(type) {
	case interface{ String() string }:
		i, err := strconv.Atoi(n.String())
		return i, err == nil
	case float64:
		return int(n), n == float64(int(n))
	}
	return 0, false
}

// window returns the items a request asks for: from offset, size of them
// (-1: all the rest). A page number without a size counts pages of the
// default size, or is ignored without one.
func (pg *paging) window(q url.Values) (offset, size int) {
	if pg == nil {
		return 0, -1
	}
	size = pg.sizeDflt
	if n, ok := queryInt(q, pg.size); ok {
		size = n
	}
	switch {
	case pg.offset != "" && q.Has(pg.offset):
		offset, _ = queryInt(q, pg.offset)
	case pg.cursor != "" && q.Has(pg.cursor):
		offset, _ = queryInt(q, pg.cursor)
	case pg.page != "" && q.Has(pg.page) && size > 0:
		if n, ok := queryInt(q, pg.page); ok && n > pg.pageBase {
			offset = (n - pg.pageBase) * size
		}
	}
	return offset, size
}

// queryInt returns a query parameter that is a whole number of at least
// 0, at most maxPageInt.
func queryInt(q url.Values, name string) (int, bool) {
	if name == "" {
		return 0, false
	}
	n, err := strconv.Atoi(q.Get(name))
	if err != nil || n < 0 {
		return 0, false
	}
	return min(n, maxPageInt), true
}

// maxPageInt bounds page sizes, offsets and page numbers, so that their
// sums and products (offset + size + 1, page × size) cannot overflow.
const maxPageInt = 1 << 30

// nextQuery returns the query of the page after the one at offset of
// size items, or "" when the list cannot say where it starts (no offset,
// page or cursor parameter).
func (pg *paging) nextQuery(q url.Values, offset, size int) (query, cursor string) {
	if pg == nil {
		return "", ""
	}
	next := url.Values{}
	for k, v := range q {
		next[k] = v
	}
	cursor = strconv.Itoa(offset + size)
	switch {
	case pg.offset != "":
		next.Set(pg.offset, cursor)
	case pg.cursor != "":
		next.Set(pg.cursor, cursor)
	case pg.page != "" && size > 0 && offset%size == 0:
		next.Set(pg.page, strconv.Itoa(offset/size+pg.pageBase+1))
	default:
		return "", cursor
	}
	if pg.size != "" && !q.Has(pg.size) && size >= 0 {
		next.Set(pg.size, strconv.Itoa(size))
	}
	return next.Encode(), cursor
}

// metaKind is what a list envelope's field tells of the list.
type metaKind uint8

const (
	metaTotal   metaKind = iota // how many the collection holds
	metaNext                    // the next page's URL; null or left out on the last
	metaCursor                  // the next page's cursor
	metaHasMore                 // whether there is a next page
)

// metaField is a field of a list envelope that the mock fills: at the
// envelope's top level, or in an object property of it (meta, pagination).
type metaField struct {
	parent string // the object property it is in; "" at the top level
	name   string
	kind   metaKind
	schema *openapi.Schema
}

// Field names by kind, compared as squash does.
var metaNames = map[string]metaKind{
	"total": metaTotal, "totalcount": metaTotal, "totalitems": metaTotal, "totalresults": metaTotal,
	"totalelements": metaTotal, "totalsize": metaTotal, "count": metaTotal, "totalrecords": metaTotal,
	"next": metaNext, "nextpage": metaNext, "nexturl": metaNext, "nextlink": metaNext, "nexthref": metaNext,
	"nextcursor": metaCursor, "nextpagetoken": metaCursor, "nexttoken": metaCursor, "endcursor": metaCursor,
	"hasmore": metaHasMore, "hasnext": metaHasMore, "hasnextpage": metaHasMore,
}

// metaFields returns the fields of a list envelope the mock fills, other
// than prop (the list): those named in metaNames at its top level or in
// one of its object properties.
func metaFields(env *openapi.Schema, prop string) []metaField {
	var out []metaField
	for _, p := range env.Properties {
		if p.Name == prop || p.Schema == nil {
			continue
		}
		if k, ok := metaNames[squash(p.Name)]; ok {
			out = append(out, metaField{name: p.Name, kind: k, schema: p.Schema})
			continue
		}
		if p.Schema.Is("object") {
			for _, q := range p.Schema.Properties {
				if k, ok := metaNames[squash(q.Name)]; ok && q.Schema != nil {
					out = append(out, metaField{parent: p.Name, name: q.Name, kind: k, schema: q.Schema})
				}
			}
		}
	}
	return out
}

// listPage is what a list answer tells of its page, for the envelope's
// fields.
type listPage struct {
	total  int    // how many the collection holds; -1 when not counted
	more   bool   // a page follows
	next   string // its URL; "" when the list cannot say
	cursor string // its cursor
}

// wants reports whether the envelope has a field of kind k.
func (e *envelope) wants(k metaKind) bool {
	for _, f := range e.meta {
		if f.kind == k {
			return true
		}
	}
	return false
}

// fillMeta sets the envelope's paging fields in out, each where its
// schema takes the value: the total, the next page's URL or cursor
// (null on the last page where the schema allows it, else left out
// where it is optional), and whether there is more. An object that holds
// them and is not there yet is made up first.
func (s *Server) fillMeta(x *exchange, e *envelope, out map[string]any, pg listPage) {
	for _, f := range e.meta {
		var v any
		switch f.kind {
		case metaTotal:
			if pg.total < 0 {
				continue
			}
			v = json.Number(strconv.Itoa(pg.total))
		case metaNext:
			if pg.more && pg.next != "" {
				v = pg.next
			}
		case metaCursor:
			if pg.more {
				v = pg.cursor
			}
		case metaHasMore:
			v = pg.more
		}
		holder, parent := out, e.schema
		if f.parent != "" {
			parent = e.schema.Property(f.parent)
			h, _ := out[f.parent].(map[string]any)
			if h == nil {
				made, p := generateValue(x.budget(s), parent, x.fake(s), x.note)
				if h, _ = made.(map[string]any); p != nil || h == nil {
					continue
				}
				out[f.parent] = h
			}
			holder = h
		}
		switch {
		case len(f.schema.Validate(v)) == 0:
			holder[f.name] = v
		case v == nil && !parent.Requires(f.name):
			delete(holder, f.name)
		}
	}
}
