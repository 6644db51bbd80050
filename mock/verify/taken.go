package verify

import (
	"net/http"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// taken are the identifiers the run's creates made items with, so that
// a later create that happens to carry one again (two generated values
// alike: a task id "s" at two seeds) is not held to succeeding: the
// service rightly refuses it as a conflict. ids names the identifier
// property of each create that has a read (the read's path parameter),
// values holds what was taken, by create and value.
type taken struct {
	ids    map[*openapi.Operation]string
	values map[takenKey]bool
}

type takenKey struct {
	op *openapi.Operation
	id string
}

// newTaken finds the identifier property of each create of seqs.
func newTaken(seqs []sequence) *taken {
	t := &taken{ids: map[*openapi.Operation]string{}, values: map[takenKey]bool{}}
	for _, seq := range seqs {
		t.ids[seq.create] = seq.param.Name
	}
	return t
}

// key returns what c's body gives as its create's identifier; false
// where it gives none, or c is no create.
func (t *taken) key(c *exercise.Call) (takenKey, bool) {
	if t == nil {
		return takenKey{}, false // a runner that sends no create
	}
	name, ok := t.ids[c.Op]
	body, _ := c.Body.(map[string]any)
	if !ok || body == nil {
		return takenKey{}, false
	}
	id, ok := scalarText(body[name])
	return takenKey{c.Op, id}, ok
}

// take records the identifier of c's create, answered as s.
func (t *taken) take(c *exercise.Call, s *sent) {
	if s == nil || s.err != nil || s.resp.StatusCode < http.StatusOK || s.resp.StatusCode > 299 {
		return
	}
	if k, ok := t.key(c); ok {
		t.values[k] = true
	}
}

// again reports whether c's create carries an identifier an earlier
// create of the run took.
func (t *taken) again(c *exercise.Call) bool {
	k, ok := t.key(c)
	return ok && t.values[k]
}
