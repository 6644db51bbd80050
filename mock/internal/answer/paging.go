package answer

import (
	"encoding/json"
	"net/url"
	"strconv"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// paging is how a list operation pages (openapi.Paging). The mock's
// cursors are item offsets written as decimal strings; a cursor it did
// not give starts at the first item.
type paging struct{ openapi.Paging }

// pagingOf returns how a list operation pages, or nil when it declares no
// paging parameter.
func pagingOf(op *openapi.Operation) *paging {
	p := op.Paging()
	if p == nil {
		return nil
	}
	return &paging{*p}
}

// window returns the items a request asks for: from offset, size of them
// (-1: all the rest). A page number without a size counts pages of the
// default size, or is ignored without one.
func (pg *paging) window(q url.Values) (offset, size int) {
	if pg == nil {
		return 0, -1
	}
	size = pg.SizeDefault
	if n, ok := queryInt(q, pg.Size); ok {
		size = n
	}
	switch {
	case pg.Offset != "" && q.Has(pg.Offset):
		offset, _ = queryInt(q, pg.Offset)
	case pg.Cursor != "" && q.Has(pg.Cursor):
		offset, _ = queryInt(q, pg.Cursor)
	case pg.Page != "" && q.Has(pg.Page) && size > 0:
		if n, ok := queryInt(q, pg.Page); ok && n > pg.PageBase {
			offset = (n - pg.PageBase) * size
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
	case pg.Offset != "":
		next.Set(pg.Offset, cursor)
	case pg.Cursor != "":
		next.Set(pg.Cursor, cursor)
	case pg.Page != "" && size > 0 && offset%size == 0:
		next.Set(pg.Page, strconv.Itoa(offset/size+pg.PageBase+1))
	default:
		return "", cursor
	}
	if pg.Size != "" && !q.Has(pg.Size) && size >= 0 {
		next.Set(pg.Size, strconv.Itoa(size))
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
	Parent string // the object property it is in; "" at the top level
	Name   string
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
		if k, ok := metaNames[openapi.Squash(p.Name)]; ok {
			out = append(out, metaField{Name: p.Name, kind: k, schema: p.Schema})
			continue
		}
		if p.Schema.Is("object") {
			for _, q := range p.Schema.Properties {
				if k, ok := metaNames[openapi.Squash(q.Name)]; ok && q.Schema != nil {
					out = append(out, metaField{Parent: p.Name, Name: q.Name, kind: k, schema: q.Schema})
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
	for _, f := range e.Meta {
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
func (s *Answerer) fillMeta(x *Turn, e *envelope, out map[string]any, pg listPage) {
	for _, f := range e.Meta {
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
		if f.Parent != "" {
			parent = e.schema.Property(f.Parent)
			h, _ := out[f.Parent].(map[string]any)
			if h == nil {
				made, p := generateValue(x.budget(s), parent, x.Fake(s), x.Note)
				if h, _ = made.(map[string]any); p != nil || h == nil {
					continue
				}
				out[f.Parent] = h
			}
			holder = h
		}
		switch {
		case len(f.schema.Validate(v)) == 0:
			holder[f.Name] = v
		case v == nil && !parent.Requires(f.Name):
			delete(holder, f.Name)
		}
	}
}
