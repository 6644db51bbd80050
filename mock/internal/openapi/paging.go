package openapi

import "strconv"

// Paging is how a list operation pages, from the query parameters it
// declares: a page size (limit, per_page, page_size, ...), and where the
// page starts: an item offset (offset, skip, start), a page number
// (page), or a cursor (cursor, after, page_token, ...). Names are
// compared without case, '_' and '-'. Paging recognises them, the one
// place that decides it, for the mock that answers pages and the
// verifier that reads them.
type Paging struct {
	Size        string // the page size parameter; "" when none is declared
	SizeDefault int    // its declared default; -1 for none (every item)
	Offset      string // the item offset parameter, or ""
	Page        string // the page number parameter, or ""
	PageBase    int    // the first page's number: 1, or 0 where the parameter's minimum is 0
	Cursor      string // the cursor parameter, or ""
}

// Parameter names, compared as Squash writes them.
var (
	sizeNames   = []string{"limit", "perpage", "pagesize", "size", "maxresults", "top", "$top", "pagelimit"}
	offsetNames = []string{"offset", "skip", "$skip", "start", "startindex", "from"}
	pageNames   = []string{"page", "pagenumber", "pagenum", "pageno", "pageindex"}
	cursorNames = []string{"cursor", "after", "pagetoken", "nexttoken", "continuationtoken", "nextpagetoken", "pagecursor"}
)

func isOneOf(name string, names []string) bool {
	n := Squash(name)
	for _, w := range names {
		if n == w {
			return true
		}
	}
	return false
}

// Paging returns how o pages, or nil when it declares no paging
// parameter. Sizes, offsets and page numbers are integer parameters;
// cursors are strings.
func (o *Operation) Paging() *Paging {
	pg := Paging{SizeDefault: -1, PageBase: 1}
	for _, p := range o.Params {
		if p.In != "query" || p.Schema == nil {
			continue
		}
		whole := p.Schema.Is("integer") || p.Schema.Is("number")
		switch {
		case whole && pg.Size == "" && isOneOf(p.Name, sizeNames):
			pg.Size = p.Name
			if n, ok := intValue(p.Schema.Default); ok && p.Schema.HasDefault && n >= 0 {
				pg.SizeDefault = n
			}
		case whole && pg.Offset == "" && isOneOf(p.Name, offsetNames):
			pg.Offset = p.Name
		case whole && pg.Page == "" && isOneOf(p.Name, pageNames):
			pg.Page = p.Name
			if m := p.Schema.Minimum; m != nil && *m == 0 {
				pg.PageBase = 0
			}
		case p.Schema.Is("string") && pg.Cursor == "" && isOneOf(p.Name, cursorNames):
			pg.Cursor = p.Name
		}
	}
	if pg == (Paging{SizeDefault: -1, PageBase: 1}) {
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

// Squash writes a name in lower case without anything but letters and
// digits, for comparing names as people spell them: "per_page",
// "perPage" and "Per-Page" are all "perpage".
func Squash(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		}
	}
	return string(b)
}
