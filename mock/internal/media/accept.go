package media

import "strings"

// Negotiate chooses, among the media types a response offers, the one to
// answer a request whose Accept header is accept (its lines joined with
// ", "), by RFC 9110 section 12.5.1. It returns the index in offered of
// the type with the highest quality; equal qualities go to the type
// matched by the more specific range, then to a concrete type rather than
// a range, then to the earlier type. An offered type may be a range
// (application/*, */*): it takes the quality of the best type it could
// send, which ContentType names.
//
// An empty accept, or one with no well-formed element, accepts the first
// offered type. ok is false when offered is empty or the header makes
// every offered type unacceptable (q=0 or no range matches it).
func Negotiate(accept string, offered []string) (i int, ok bool) {
	if len(offered) == 0 {
		return -1, false
	}
	if trimOWS(accept) == "" {
		return 0, true
	}
	var buf [16]mediaRange
	ranges := parseAccept(buf[:0], accept)
	if len(ranges) == 0 {
		return 0, true
	}
	i, bq, bs, ranged := -1, 0, -1, false
	for j, o := range offered {
		or, ok := parseRange(o)
		if !ok {
			continue
		}
		q, s, _ := choose(ranges, &or)
		if q > bq || q == bq && q > 0 && (s > bs || s == bs && ranged && or.concrete()) {
			i, bq, bs, ranged = j, q, s, !or.concrete()
		}
	}
	return i, i >= 0
}

// ContentType returns the Content-Type to send for offered, the type
// Negotiate chose for the Accept header accept. A concrete type is
// returned as it is. For a range it is the type, in lower case and
// without parameters, that accept weighs most among the acceptable types
// the range includes and the defaults of the acceptable ranges it
// overlaps: application/* with Accept: application/xml gives
// application/xml, */* with Accept: text/* gives text/plain. When accept
// admits none, it is the default of the range itself.
//
// The defaults are application/json for */* and application/*,
// text/plain for text/*, image/png for image/*, audio/wav for audio/*,
// video/mp4 for video/*, font/woff2 for font/*, application/json for a
// +json suffix range (application/*+json) and application/xml for a +xml
// one. A bare token (see Bare) is sent as declared. Other ranges, and
// text that is not a media type, give application/octet-stream.
func ContentType(offered, accept string) string {
	o, ok := parseRange(offered)
	if !ok {
		if Bare(offered) {
			return offered
		}
		return octetStream
	}
	if o.concrete() {
		return offered
	}
	var buf [16]mediaRange
	if ranges := parseAccept(buf[:0], accept); len(ranges) > 0 {
		if q, _, c := choose(ranges, &o); q > 0 {
			return strings.ToLower(c)
		}
	}
	if c, ok := fallback(&o); ok {
		return c.full
	}
	return octetStream
}

const octetStream = "application/octet-stream"

// parseAccept appends the well-formed elements of an Accept header to
// dst; malformed ones are skipped.
func parseAccept(dst []mediaRange, accept string) []mediaRange {
	for i := 0; i < len(accept); {
		r, end, ok := parseElement(accept, i)
		if ok {
			dst = append(dst, r)
		} else {
			end = elementEnd(accept, end)
		}
		i = end + 1
	}
	return dst
}

// quality returns the weight ranges give the concrete type c: that of the
// most specific range that matches it (the higher weight among equally
// specific ones), with that range's specificity; 0 and -1 when none
// matches.
func quality(ranges []mediaRange, c *mediaRange) (q, spec int) {
	q, spec = 0, -1
	for i := range ranges {
		a := &ranges[i]
		if !covers(a, c) || !paramsIn(a, c) {
			continue
		}
		if s := a.spec(); s > spec || s == spec && a.q > q {
			q, spec = a.q, s
		}
	}
	return q, spec
}

// choose returns the quality of offered type o under ranges, the
// specificity that decided it, and the essence of the type to send. A
// range o is worth its best candidate: each acceptable range it includes
// (or, if it is the narrower, o itself), made concrete by fallback, and
// weighed as a concrete type.
func choose(ranges []mediaRange, o *mediaRange) (q, spec int, send string) {
	if o.concrete() {
		q, spec = quality(ranges, o)
		return q, spec, o.essence()
	}
	q, spec = 0, -1
	for i := range ranges {
		a := &ranges[i]
		if a.q == 0 {
			continue
		}
		var c mediaRange
		switch {
		case covers(o, a) && a.concrete():
			c = *a
		case covers(o, a):
			var ok bool
			if c, ok = fallback(a); !ok {
				continue
			}
		case covers(a, o):
			var ok bool
			if c, ok = fallback(o); !ok {
				continue
			}
		default:
			continue
		}
		if cq, cs := quality(ranges, &c); cq > q || cq == q && cq > 0 && cs > spec {
			q, spec, send = cq, cs, c.essence()
		}
	}
	return q, spec, send
}

// fallback returns the type sent for a range when nothing narrower is
// asked for; ok is false when the range has none.
func fallback(r *mediaRange) (mediaRange, bool) {
	switch {
	case r.typ == "*":
		return known("application/json"), true
	case r.sub[0] == '*' && len(r.sub) > 1: // *+suffix
		switch sfx := r.sub[2:]; {
		case strings.EqualFold(sfx, "json"):
			return known("application/json"), true
		case strings.EqualFold(sfx, "xml"):
			return known("application/xml"), true
		}
		return mediaRange{}, false
	}
	for _, d := range [...]string{"application/json", "text/plain", "image/png", "audio/wav", "video/mp4", "font/woff2"} {
		if len(d) > len(r.typ) && d[len(r.typ)] == '/' && strings.EqualFold(d[:len(r.typ)], r.typ) {
			return known(d), true
		}
	}
	return mediaRange{}, false
}

// known reads a concrete type written in lower case without parameters.
func known(t string) mediaRange {
	i := strings.IndexByte(t, '/')
	return mediaRange{typ: t[:i], sub: t[i+1:], full: t, q: 1000}
}
