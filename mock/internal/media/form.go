package media

import "github.com/plantmock/plantmock/mock/internal/openapi"

// appendForm appends an object as application/x-www-form-urlencoded:
// name=value pairs joined by '&', in the order of members. Scalars are
// their text, objects their JSON text; an array is one pair per item
// (exploded), and the empty array one pair with the empty value, as a
// form decoder reads it back. Null properties and null items are left
// out. Names and values are escaped as url.QueryEscape does.
func appendForm(dst []byte, r *mediaRange, v any, s *openapi.Schema) ([]byte, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, unwritable(r, v)
	}
	first := true
	var cell []byte
	pair := func(name string, v any) {
		if !first {
			dst = append(dst, '&')
		}
		first = false
		dst = appendQueryEscape(dst, name)
		dst = append(dst, '=')
		cell = appendCell(cell[:0], v)
		dst = appendQueryEscape(dst, cell)
	}
	for _, mb := range members(m, s) {
		switch x := mb.value.(type) {
		case nil:
		case []any:
			if len(x) == 0 {
				pair(mb.name, "")
			}
			for _, it := range x {
				if it != nil {
					pair(mb.name, it)
				}
			}
		default:
			pair(mb.name, x)
		}
	}
	return dst, nil
}

// appendQueryEscape appends s escaped for a query or form value, as
// url.QueryEscape does: letters, digits and -_.~ as they are, space as
// '+', other bytes as %XX.
func appendQueryEscape[T string | []byte](dst []byte, s T) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			dst = append(dst, c)
		case c == ' ':
			dst = append(dst, '+')
		default:
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		}
	}
	return dst
}
