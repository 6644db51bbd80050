package wire

import "strings"

// MatchContentType reports whether mediaType, the Content-Type of a part
// or body, is one of allowed: an Encoding Object's contentType, a media
// type ("image/png"), a wildcard ("image/*", "*/*") or a comma-separated
// list of them. Types compare without case; parameters (charset=utf-8) on
// either side are not compared.
func MatchContentType(allowed, mediaType string) bool {
	got := essence(mediaType)
	typ, sub, ok := strings.Cut(got, "/")
	if !ok || typ == "" || sub == "" {
		return false
	}
	for _, e := range splitList(allowed) {
		want := essence(e)
		wantType, wantSub, _ := strings.Cut(want, "/")
		switch {
		case want == "*/*":
			return true
		case wantSub == "*" && strings.EqualFold(wantType, typ):
			return true
		case strings.EqualFold(want, got):
			return true
		}
	}
	return false
}

// splitList splits a comma-separated list of media types, leaving alone
// commas inside quoted parameter values. Empty entries are dropped.
func splitList(list string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i <= len(list); i++ {
		if i < len(list) {
			switch list[i] {
			case '"':
				quoted = !quoted
				continue
			case '\\':
				if quoted && i+1 < len(list) {
					i++
				}
				continue
			case ',':
				if quoted {
					continue
				}
			default:
				continue
			}
		}
		if e := strings.TrimSpace(list[start:min(i, len(list))]); e != "" {
			out = append(out, e)
		}
		start = i + 1
	}
	return out
}
