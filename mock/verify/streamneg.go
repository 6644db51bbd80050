package verify

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
)

// streamMistakes are the invalid request bodies of a sequential media
// type made from c's items: the last item with a required property
// missing, or one of the wrong type, the items before it valid, so that
// a service that checks only the first item, or the body as one value,
// lets it through. Each is sent only where the engine's own check of
// the body, framed as it is sent, finds that item broken.
func streamMistakes(c *exercise.Call) []invalid {
	m := c.Media
	if m == nil || m.ItemSchema == nil || !m.Itemized() {
		return nil
	}
	items, _ := c.Body.([]any)
	if len(items) == 0 {
		return nil
	}
	last, _ := items[len(items)-1].(map[string]any)
	if last == nil {
		return nil
	}
	where := "item[" + strconv.Itoa(len(items)) + "]"
	var out []invalid
	for _, b := range []struct {
		what string
		b    breaker
	}{{"missing required property ", missingProperty}, {"wrong type of ", wrongType}} {
		v, why, ok := firstBreak(m.ItemSchema, last, b.b)
		if !ok {
			continue
		}
		broken := append(slices.Clone(items[:len(items)-1]), v)
		body, ct, err := exercise.StreamBody(m, broken, 0)
		if err != nil {
			continue
		}
		if vs, _ := m.CheckItems(bytes.NewReader(body), ct, true); len(vs) == 0 || !strings.HasPrefix(vs[0].Path, where) {
			continue // framed, the item reads as valid (a string of digits, as an event's data)
		}
		why.Path = where + "." + why.Path
		out = append(out, invalid{name: b.what + why.Path, why: why,
			mutate: func(req *http.Request, _ []byte) ([]byte, bool) {
				req.Header.Set("Content-Type", ct)
				return body, true
			}})
	}
	return out
}
