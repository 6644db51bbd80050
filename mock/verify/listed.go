package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// maxPage is the page size a list is asked for where its page-size
// parameter declares no maximum.
const maxPage = 1000

// listed lists the collection of the item it, where the sequence has a
// list, and looks for the item in the answer: an array, or the array of
// an envelope the mock recognises too (openapi.EnvelopeProperty). A list
// with a page-size parameter is asked for its largest page (the
// parameter at its maximum, else 1000). Where the item is not on a page,
// the next is read, at most maxPages: the one a Link header's rel="next"
// names, else the URL of the envelope's next (next, next_url,
// links.next, ...) or, where the list declares a cursor parameter, the
// page its next cursor (next_cursor, next_page_token, ...) starts; where
// the list names no next page at all but declares a page number or an
// item offset parameter, the page that number or offset starts, while
// each page is as long as the first (and full, where the page size is
// known).
// Each page is a check of its own; the item missing from the last is a
// failure.
func (r *runner) listed(ctx context.Context, seq sequence, it *created, seed uint64) error {
	if seq.list == nil || seq.create.Body.JSON() == nil {
		return nil
	}
	lc, err := r.call(seq.list, seed)
	if err != nil {
		return nil // the positive checks said why
	}
	within(lc, it, "")
	size := -1
	pg := seq.list.Paging()
	if pg != nil {
		for _, o := range []string{pg.Offset, pg.Page, pg.Cursor} {
			delete(lc.Values, "query."+o) // the first page
		}
		if p := param(seq.list, "query", pg.Size); p != nil {
			n, ok := largest(p.Schema)
			if !ok && pg.Cursor == "" {
				return nil
			}
			if ok {
				size = n
				lc.Values["query."+pg.Size] = json.Number(strconv.Itoa(n))
			}
		}
	}
	req, body, err := r.prepare(lc)
	if err != nil {
		return nil
	}
	// numbered is true while the list has named no next page: it may
	// then be paged by its page number or item offset. first is how many
	// items the first page held, offset how many all pages read held.
	numbered := pg != nil && pg.Cursor == "" && (pg.Page != "" || pg.Offset != "")
	first, offset := 0, 0
	// previous is the answer of the page before; ignored is true when a
	// numbered page repeats it.
	var previous []byte
	ignored := false
	for n := 1; ; n++ {
		name := "list after create"
		if n > 1 {
			name = fmt.Sprintf("list after create, page %d", n)
		}
		var (
			page list
			next *http.Request
		)
		s, err := r.send(ctx, seq.list, "stateful", name, req, body, func(s *sent) []*Failure {
			out := r.judgePositive(lc)(s)
			page = r.readList(seq, it, s, size)
			if page.found || !page.readable {
				return out
			}
			var named bool
			next, named = r.nextPage(lc, pg, s, page)
			numbered = numbered && !named
			if numbered && n > 1 && bytes.Equal(s.answer, previous) {
				// The page number or offset is not read: the list says
				// nothing of the pages after its first.
				next, ignored = nil, true
				return out
			}
			previous = s.answer
			if numbered {
				if n == 1 {
					first = page.items
				}
				offset += page.items
				// The page after one as long as the first (or full): a
				// shorter or empty page is the last.
				if page.items > 0 && page.items >= first && (size < 0 || page.full) {
					next = r.numberedPage(lc, pg, n, offset)
				}
			}
			switch {
			case next != nil && n < maxPages:
			case next == nil && (!page.full || n > 1 || pg != nil && pg.Cursor != ""):
				// The last page, or a list that does not page: the item
				// should have been on it.
				f := &Failure{Rule: "state", Text: fmt.Sprintf("the list does not hold the item just created (%s %s): %s", seq.param.Name, it.id, page.said(n)), Schema: page.schema.Where()}
				if seq.upsert {
					f.Why = whyUpsertUnlisted
				}
				out = append(out, f)
			}
			return out
		})
		if err != nil || s == nil || s.err != nil || next == nil || page.found || ignored || n >= maxPages {
			return err
		}
		req, body = next, nil
	}
}

// maxPages bounds how many pages of a list are read for an item.
const maxPages = 50

// list is what one page of a list answer says of the item looked for.
type list struct {
	readable bool            // an array, or a recognised envelope, of items with identifiers
	found    bool            // the item is on it
	full     bool            // as many items as the page size, or the schema's maxItems
	items    int             // how many items it has
	schema   *openapi.Schema // the array's schema
	envelope map[string]any  // the envelope, nil for a bare array
}

// said says what the pages read held.
func (l list) said(pages int) string {
	if pages > 1 {
		return fmt.Sprintf("none of %d pages holds it (the last has %d items)", pages, l.items)
	}
	return fmt.Sprintf("it has %d items, none of them it", l.items)
}

// readList reads a list answer for the item it: none of its items has
// the item's identifier as the property the create gave it in (see
// identifier), else as its property named as the read's parameter, or
// id. An answer that says nothing either way is not readable: a
// refusal, a list that is neither an array nor a recognised envelope,
// items without identifiers.
func (r *runner) readList(seq sequence, it *created, s *sent, size int) list {
	code := s.resp.StatusCode
	resp := seq.list.Response(code)
	if code < 200 || code > 299 || resp == nil || resp.JSON() == nil || resp.JSON().Schema == nil {
		return list{}
	}
	schema, v := resp.JSON().Schema, decode(s.answer)
	var env map[string]any
	if !schema.Is("array") {
		prop := openapi.EnvelopeProperty(schema, seq.create.Body.JSON().Schema, true)
		env, _ = v.(map[string]any)
		if prop == "" || env == nil {
			return list{}
		}
		schema, v = schema.Property(prop), env[prop]
	}
	items, ok := v.([]any)
	if !ok {
		return list{}
	}
	out := list{schema: schema, envelope: env, items: len(items),
		full: size >= 0 && len(items) >= size || schema.MaxItems != nil && int64(len(items)) >= *schema.MaxItems}
	identified := false
	names := []string{seq.param.Name, "id"}
	if it.prop != "" {
		names = []string{it.prop} // an id of the items may be another's
	}
	for _, item := range items {
		obj, _ := item.(map[string]any)
		for _, n := range names {
			if x, has := obj[n]; has {
				identified = true
				if text, ok := scalarText(x); ok && text == it.id {
					out.readable, out.found = true, true
					return out
				}
				break
			}
		}
	}
	out.readable = identified || len(items) == 0
	return out
}

// Names of an envelope's fields that give the next page, compared as
// openapi.Squash writes them: its URL, or its cursor.
var (
	nextURLNames    = []string{"next", "nextpage", "nexturl", "nextlink", "nexthref", "nextpageurl"}
	nextCursorNames = []string{"nextcursor", "nextpagetoken", "nexttoken", "endcursor", "cursor", "continuationtoken"}
)

// numberedPage is the request for the page after the n-th of a list
// paged by number (the first page's number and n) or by item offset
// (offset, the items read so far); nil when the call cannot write it
// (a number beyond the parameter's maximum, say).
func (r *runner) numberedPage(lc *exercise.Call, pg *openapi.Paging, n, offset int) *http.Request {
	d := lc.Clone()
	if pg.Offset != "" {
		d.Values["query."+pg.Offset] = json.Number(strconv.Itoa(offset))
	} else {
		d.Values["query."+pg.Page] = json.Number(strconv.Itoa(pg.PageBase + n))
	}
	req, _, err := r.prepare(d)
	if err != nil {
		return nil
	}
	return req
}

// nextPage is the request for the page after the one s answered, nil
// when none is named: by a Link header's rel="next", by the envelope's
// next URL (at its top level, in links or _links, or in an object such
// as meta or pagination), or by its next cursor where the list declares
// a cursor parameter. A URL is followed only on the target's scheme and
// host: verify sends nothing elsewhere. named says whether the answer
// names a next page at all, followed or not.
func (r *runner) nextPage(lc *exercise.Call, pg *openapi.Paging, s *sent, page list) (next *http.Request, named bool) {
	if u := linkNext(s.resp.Header.Values("Link")); u != "" {
		if req := r.follow(s.req, u); req != nil {
			return req, true
		}
		named = true
	}
	var objs []map[string]any
	if page.envelope != nil {
		objs = append(objs, page.envelope)
		for _, k := range slices.Sorted(maps.Keys(page.envelope)) {
			if o, ok := page.envelope[k].(map[string]any); ok {
				objs = append(objs, o)
			}
		}
	}
	for _, o := range objs {
		for _, k := range slices.Sorted(maps.Keys(o)) {
			v := o[k]
			text, ok := v.(string)
			if !ok {
				if h, isObj := v.(map[string]any); isObj && slices.Contains(nextURLNames, openapi.Squash(k)) {
					text, ok = h["href"].(string) // HAL: _links.next.href
				}
			}
			if !ok || text == "" || !slices.Contains(nextURLNames, openapi.Squash(k)) || !urlLike(text) {
				continue
			}
			named = true
			if req := r.follow(s.req, text); req != nil {
				return req, true
			}
		}
	}
	if pg == nil || pg.Cursor == "" {
		return nil, named
	}
	for _, o := range objs {
		for _, k := range slices.Sorted(maps.Keys(o)) {
			text, ok := scalarText(o[k])
			if !ok || text == "" || !slices.Contains(nextCursorNames, openapi.Squash(k)) && !slices.Contains(nextURLNames, openapi.Squash(k)) || urlLike(text) {
				continue
			}
			d := lc.Clone()
			d.Values["query."+pg.Cursor] = text
			req, _, err := r.prepare(d)
			if err != nil {
				return nil, true
			}
			return req, true
		}
	}
	return nil, named
}

// urlLike reports whether a next field's value is a URL (absolute, or
// a path or query of the target), not a cursor.
func urlLike(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "?")
}

// follow is prev sent again to ref, resolved against prev's URL; nil
// when ref does not parse or names another scheme or host than the
// target's.
func (r *runner) follow(prev *http.Request, ref string) *http.Request {
	u, err := prev.URL.Parse(ref)
	base, _ := url.Parse(r.base)
	if err != nil || base == nil || u.Scheme != base.Scheme || u.Host != base.Host {
		return nil
	}
	req := prev.Clone(context.Background())
	req.URL, req.Host = u, ""
	req.Body, req.ContentLength = nil, 0
	return req
}

// linkNext returns the target of the rel="next" link of Link header
// values (RFC 8288), "" for none.
func linkNext(values []string) string {
	for _, v := range values {
		for _, link := range splitLinks(v) {
			target, params, ok := strings.Cut(link, ";")
			target = strings.TrimSpace(target)
			if !ok || !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
				continue
			}
			for _, p := range strings.Split(params, ";") {
				k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
				if strings.EqualFold(strings.TrimSpace(k), "rel") && slices.Contains(strings.Fields(strings.ToLower(strings.Trim(strings.TrimSpace(val), `"`))), "next") {
					return target[1 : len(target)-1]
				}
			}
		}
	}
	return ""
}

// splitLinks splits a Link header value at the commas between links,
// not those inside <...> or quotes.
func splitLinks(v string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			quoted = !quoted
		case c == '<' && !quoted:
			depth++
		case c == '>' && !quoted && depth > 0:
			depth--
		case c == ',' && !quoted && depth == 0:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

// largest returns the largest page size s allows, at most maxPage.
func largest(s *openapi.Schema) (int, bool) {
	n := float64(maxPage)
	if s != nil && s.Maximum != nil && *s.Maximum < n {
		n = math.Floor(*s.Maximum)
		if s.ExclusiveMaximum && n == *s.Maximum {
			n--
		}
	}
	if n < 1 || s != nil && len(s.Validate(json.Number(strconv.Itoa(int(n))))) > 0 {
		return 0, false
	}
	return int(n), true
}

// param returns op's parameter in in named name, or nil.
func param(op *openapi.Operation, in, name string) *openapi.Param {
	for i := range op.Params {
		if p := &op.Params[i]; p.In == in && p.Name == name {
			return p
		}
	}
	return nil
}

// scalarText returns a string or a number as text.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	}
	return "", false
}

// whyUpsertUnlisted is why a list without an item made by PUT at its
// own path is advice: PUT sets the state of the resource it targets
// (RFC 9110 9.3.4), and says nothing of a list holding it (GitHub's PUT
// of a repository's collaborator sends an invitation, listed
// elsewhere), where a POST to the list makes a member of it.
const whyUpsertUnlisted = "a PUT sets the resource at its own URL (RFC 9110 9.3.4); unlike a POST to the list, it need not add a member the list shows"
