package media

import (
	"bytes"
	"encoding/csv"
	"sort"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// appendCSV appends an object or an array as text/csv (RFC 4180: CRLF line
// ends, within quoted fields too). An object, or an array of objects, is a header row of property
// names, then one row per object: the names the items' schema declares,
// in its order, then the other names any object has, sorted; a missing or
// null property is an empty field. An array of anything else is one row
// per item: an array's items are its fields, another value the only
// field. Fields are the text of scalars and the JSON text of objects and
// arrays.
func appendCSV(dst []byte, v any, s *openapi.Schema) ([]byte, error) {
	var rows []any
	switch x := v.(type) {
	case map[string]any:
		rows = []any{x}
	case []any:
		rows = x
		if s != nil {
			s = s.Items
		}
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	if names := header(rows, s); names != nil {
		w.Write(names)
		rec := make([]string, len(names))
		for _, row := range rows {
			m := row.(map[string]any)
			for i, n := range names {
				rec[i] = string(appendCell(nil, m[n]))
			}
			w.Write(rec)
		}
	} else {
		for _, row := range rows {
			var rec []string
			if items, ok := row.([]any); ok {
				for _, it := range items {
					rec = append(rec, string(appendCell(nil, it)))
				}
			} else {
				rec = []string{string(appendCell(nil, row))}
			}
			w.Write(rec)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, err
	}
	return append(dst, b.Bytes()...), nil
}

// header returns the column names of rows that are all objects: those s
// declares first, in its order, then the others sorted; nil when some row
// is not an object or the objects have no properties.
func header(rows []any, s *openapi.Schema) []string {
	if len(rows) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, row := range rows {
		m, ok := row.(map[string]any)
		if !ok {
			return nil
		}
		for k := range m {
			seen[k] = true
		}
	}
	names := make([]string, 0, len(seen))
	if s != nil {
		for _, p := range s.Properties {
			if seen[p.Name] {
				names = append(names, p.Name)
				delete(seen, p.Name)
			}
		}
	}
	rest := len(names)
	for k := range seen {
		names = append(names, k)
	}
	sort.Strings(names[rest:])
	if len(names) == 0 {
		return nil
	}
	return names
}
