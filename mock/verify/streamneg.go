package verify

import (
	"net/http"
	"strconv"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/stream"
)

// streamMistakes are the invalid request bodies of a sequential media
// type (JSON Lines, a JSON text sequence) made from c's items: the last
// item with a required property missing, or one of the wrong type, the
// items before it valid, so that a service that checks only the first
// item, or the body as one value, lets it through.
func streamMistakes(c *exercise.Call) []invalid {
	m := c.Media
	if m == nil || m.ItemSchema == nil || m.Seq != stream.Lines && m.Seq != stream.Records {
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
		why.Path = where + "." + why.Path
		var body []byte
		for i, it := range items {
			if i == len(items)-1 {
				it = v
			}
			if m.Seq == stream.Lines {
				body = stream.AppendLine(body, jsonx.Marshal(it))
			} else {
				body = stream.AppendRecord(body, jsonx.Marshal(it))
			}
		}
		out = append(out, invalid{name: b.what + why.Path, why: why,
			mutate: func(*http.Request, []byte) ([]byte, bool) { return body, true }})
	}
	return out
}
