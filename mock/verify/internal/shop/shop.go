package shop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// pageSize is how many orders a page of the list holds.
const pageSize = 3

var (
	postcodeRule = regexp.MustCompile(`^[0-9]{5}$`)
	skuRule      = regexp.MustCompile(`^[A-Z]{3}-[0-9]{3}$`)
	cardRule     = regexp.MustCompile(`^[0-9]{16}$`)
	cursorRule   = regexp.MustCompile(`^[0-9]{1,6}$`)
	tagRule      = regexp.MustCompile(`^[a-z]{2,12}$`)
	filterParam  = regexp.MustCompile(`^filter\[([^\]]*)\]$`)
)

// A Shop keeps Spec's document but for its bug. It is an http.Handler
// that wants an X-Api-Key on every request.
type Shop struct {
	bug Bug

	mu     sync.Mutex // guards orders, order and made
	orders map[string]map[string]any
	order  []string // the identifiers, oldest first
	made   int      // orders made so far, for identifiers
}

// New returns a shop built with bug b (None for none), holding no
// orders.
func New(b Bug) *Shop {
	return &Shop{bug: b, orders: map[string]map[string]any{}}
}

// ServeHTTP answers the document's four operations.
func (s *Shop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Api-Key") == "" {
		fail(w, http.StatusUnauthorized, "an X-Api-Key is required")
		return
	}
	id, item := strings.CutPrefix(r.URL.Path, "/orders/")
	switch {
	case r.URL.Path == "/orders" && r.Method == http.MethodGet:
		s.list(w, r)
	case r.URL.Path == "/orders" && r.Method == http.MethodPost:
		s.create(w, r)
	case item && r.Method == http.MethodGet:
		s.mu.Lock()
		o, found := s.orders[id]
		if found && s.bug == CityDropped {
			o = clone(o)
			delete(o["customer"].(map[string]any)["address"].(map[string]any), "city")
		}
		s.mu.Unlock()
		if !found {
			fail(w, http.StatusNotFound, "no such order")
			return
		}
		answer(w, http.StatusOK, o)
	case item && r.Method == http.MethodDelete:
		s.mu.Lock()
		_, found := s.orders[id]
		if found {
			delete(s.orders, id)
			for i, o := range s.order {
				if o == id {
					s.order = append(s.order[:i], s.order[i+1:]...)
					break
				}
			}
		}
		s.mu.Unlock()
		if !found {
			fail(w, http.StatusNotFound, "no such order")
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		fail(w, http.StatusNotFound, "no such operation")
	}
}

// list answers a page of orders, oldest first, from the offset the
// cursor gives.
func (s *Shop) list(w http.ResponseWriter, r *http.Request) {
	from := 0
	if c := r.URL.Query().Get("cursor"); r.URL.Query().Has("cursor") {
		if !cursorRule.MatchString(c) {
			fail(w, http.StatusBadRequest, "cursor must be 1 to 6 digits")
			return
		}
		from, _ = strconv.Atoi(c)
	}
	keep, why := s.filter(r)
	if why != "" {
		fail(w, http.StatusBadRequest, why)
		return
	}
	s.mu.Lock()
	var page []any
	for i := from; i < len(s.order) && i < from+pageSize; i++ {
		o := s.orders[s.order[i]]
		if !keep(o) {
			continue // a filtered page may hold fewer orders
		}
		if s.bug == QuantityAsText {
			o = clone(o)
			for _, l := range o["lines"].([]any) {
				l.(map[string]any)["quantity"] = fmt.Sprint(l.(map[string]any)["quantity"])
			}
		}
		page = append(page, o)
	}
	var next any
	if from+pageSize < len(s.order) && !(s.bug == PageLost && from >= 2*pageSize) {
		next = strconv.Itoa(from + pageSize)
	}
	s.mu.Unlock()
	if page == nil {
		page = []any{}
	}
	answer(w, http.StatusOK, map[string]any{"data": page, "next_cursor": next})
}

// filter reads the deepObject filter of a list (filter[channel]=web&
// filter[min_lines]=2): what it keeps, or what is wrong with it.
func (s *Shop) filter(r *http.Request) (func(map[string]any) bool, string) {
	channel, minLines := "", 0
	for name, vs := range r.URL.Query() {
		m := filterParam.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		if len(vs) != 1 {
			return nil, "filter[" + m[1] + "] is given twice"
		}
		switch v := vs[0]; m[1] {
		case "channel":
			if v != "web" && v != "store" {
				return nil, "filter[channel] must be web or store"
			}
			channel = v
		case "min_lines":
			n, err := strconv.Atoi(v)
			if err != nil || (n < 1 || n > 5) && s.bug != FilterUnchecked {
				return nil, "filter[min_lines] must be 1 to 5"
			}
			minLines = n
		}
	}
	return func(o map[string]any) bool {
		lines, _ := o["lines"].([]any)
		return (channel == "" || o["channel"] == channel) && len(lines) >= minLines
	}, ""
}

// create stores a valid order under an identifier of its own.
func (s *Shop) create(w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		fail(w, http.StatusBadRequest, "the body must be JSON")
		return
	}
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	var in map[string]any
	if err := dec.Decode(&in); err != nil || in == nil {
		fail(w, http.StatusBadRequest, "the body must be a JSON object")
		return
	}
	if why := s.check(in); why != "" {
		fail(w, http.StatusBadRequest, why)
		return
	}
	s.mu.Lock()
	s.made++
	id := fmt.Sprintf("00000000-0000-4000-8000-%012d", s.made)
	in["id"] = id // readOnly: what the client sent is not kept
	s.orders[id] = in
	s.order = append(s.order, id)
	s.mu.Unlock()
	w.Header().Set("Location", "/orders/"+id)
	answer(w, http.StatusCreated, in)
}

// check says what is wrong with an order, "" for nothing. Formats
// (email, date-time) are not checked.
func (s *Shop) check(in map[string]any) string {
	c, ok := in["customer"].(map[string]any)
	if !ok {
		return "customer must be an object"
	}
	if n, ok := c["name"].(string); !ok || utf8.RuneCountInString(n) < 1 || utf8.RuneCountInString(n) > 40 {
		return "customer.name must be 1 to 40 characters"
	}
	if e, has := c["email"]; has {
		if _, ok := e.(string); !ok {
			return "customer.email must be a string"
		}
	}
	a, ok := c["address"].(map[string]any)
	if !ok {
		return "customer.address must be an object"
	}
	if city, ok := a["city"].(string); !ok || utf8.RuneCountInString(city) < 1 || utf8.RuneCountInString(city) > 60 {
		return "customer.address.city must be 1 to 60 characters"
	}
	if p, ok := a["postcode"].(string); !ok || !postcodeRule.MatchString(p) && s.bug != PostcodeUnchecked {
		return "customer.address.postcode must be five digits"
	}
	lines, ok := in["lines"].([]any)
	if !ok || len(lines) < 1 || len(lines) > 5 {
		return "lines must be 1 to 5 lines"
	}
	for i, l := range lines {
		l, ok := l.(map[string]any)
		if !ok {
			return fmt.Sprintf("lines[%d] must be an object", i)
		}
		if sku, ok := l["sku"].(string); !ok || !skuRule.MatchString(sku) {
			return fmt.Sprintf("lines[%d].sku must be like ABC-123", i)
		}
		q, ok := whole(l["quantity"])
		if !ok || (q < 1 || q > 99) && s.bug != QuantityUnbounded {
			return fmt.Sprintf("lines[%d].quantity must be 1 to 99", i)
		}
	}
	if ch, has := in["channel"]; has && ch != "web" && ch != "store" {
		return "channel must be web or store"
	}
	if t, has := in["tags"]; has {
		tags, ok := t.([]any)
		if !ok || len(tags) > 4 {
			return "tags must be at most 4 tags"
		}
		for i, t := range tags {
			if t, ok := t.(string); !ok || !tagRule.MatchString(t) && s.bug != TagUnchecked {
				return fmt.Sprintf("tags[%d] must be 2 to 12 lower-case letters", i)
			}
		}
	}
	if p, has := in["placed"]; has {
		if _, ok := p.(string); !ok {
			return "placed must be a string"
		}
	}
	if p, has := in["payment"]; has {
		if why := s.payment(p); why != "" {
			return why
		}
	}
	return ""
}

// payment says what is wrong with a payment: it must be exactly one of
// a card or an iban, and nothing else.
func (s *Shop) payment(v any) string {
	p, ok := v.(map[string]any)
	if !ok || len(p) != 1 {
		return "payment must hold a card or an iban"
	}
	card, isCard := p["card"]
	iban, isIBAN := p["iban"]
	switch {
	case s.bug == PaymentUnchecked && (isCard || isIBAN):
		return ""
	case isCard:
		if c, ok := card.(string); !ok || !cardRule.MatchString(c) {
			return "payment.card must be 16 digits"
		}
	case isIBAN:
		if c, ok := iban.(string); !ok || utf8.RuneCountInString(c) < 15 || utf8.RuneCountInString(c) > 34 {
			return "payment.iban must be 15 to 34 characters"
		}
	default:
		return "payment must hold a card or an iban"
	}
	return ""
}

// whole returns a JSON number that is a whole number (7.0 is one, as in
// JSON Schema 2020-12), within int64.
func whole(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// clone copies a JSON value.
func clone(o map[string]any) map[string]any {
	var b bytes.Buffer
	json.NewEncoder(&b).Encode(o)
	dec := json.NewDecoder(&b)
	dec.UseNumber()
	var out map[string]any
	dec.Decode(&out)
	return out
}

func fail(w http.ResponseWriter, status int, message string) {
	answer(w, status, map[string]any{"code": status, "message": message})
}

func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
