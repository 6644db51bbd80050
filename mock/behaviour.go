package mock

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// behaviour is what an operation does when it answers as usual.
type behaviour uint8

const (
	canned  behaviour = iota // example or generated answer
	create                   // POST /things
	list                     // GET /things
	read                     // GET /things/{id}
	replace                  // PUT /things/{id}
	merge                    // PATCH /things/{id}
	remove                   // DELETE /things/{id}
	numBehaviours
)

// behaviours answers a valid request as its operation behaves, one entry
// per behaviour. Each keeps its resources in the Server's store.
var behaviours = [numBehaviours]func(*Server, *exchange) *problem{
	canned:  (*Server).canned,
	create:  (*Server).create,
	list:    (*Server).list,
	read:    (*Server).read,
	replace: (*Server).replace,
	merge:   (*Server).merge,
	remove:  (*Server).remove,
}

// create stores the body under its identifier, or under one the store
// assigns, and answers with it.
func (s *Server) create(x *exchange) *problem {
	pl := x.plan
	obj, _ := x.body.(map[string]any)
	if obj == nil {
		return invalid(CodeSchema, classSchema, "request body must be a JSON object")
	}
	col := pl.col.key(x.vals)
	applyDefaults(obj, pl.col.schema)
	if !pl.proven && pl.successMedia != nil {
		obj = complete(obj, pl.successMedia.Schema, x.fake(s))
	}
	key := pl.col.bodyKey(obj)
	_, err := s.store.Create(x.r.Context(), x.sess.name, col, key, pl.col.document(obj, key == ""))
	if err != nil {
		return s.storeProblem(err, pl.col, col, key)
	}
	return s.writeResource(x, obj)
}

// list answers with the collection's resources, oldest first, honouring a
// declared integer limit parameter.
func (s *Server) list(x *exchange) *problem {
	pl := x.plan
	limit := -1
	if pl.limit {
		if l := x.r.URL.Query().Get("limit"); l != "" {
			if n, err := strconv.Atoi(l); err == nil && n >= 0 {
				limit = n
			}
		}
	}
	col := pl.col.key(x.vals)
	docs, err := s.store.List(x.r.Context(), x.sess.name, col, limit)
	if err != nil {
		return s.storeProblem(err, pl.col, col, "")
	}
	items := make([]any, 0, len(docs))
	for _, d := range docs {
		v, err := jsonx.Decode(d)
		if err != nil {
			return internal("stored resource is not JSON: %v", err)
		}
		items = append(items, v)
	}
	return s.writeResource(x, items)
}

// read answers with the resource the path names.
func (s *Server) read(x *exchange) *problem {
	col, key := x.plan.col.key(x.vals), x.plan.col.pathKey(x.vals)
	doc, err := s.store.Get(x.r.Context(), x.sess.name, col, key)
	if err != nil {
		return s.storeProblem(err, x.plan.col, col, key)
	}
	return s.writeStored(x, doc)
}

// remove deletes the resource the path names and answers with it where
// the success response declares a body.
func (s *Server) remove(x *exchange) *problem {
	col, key := x.plan.col.key(x.vals), x.plan.col.pathKey(x.vals)
	doc, err := s.store.Delete(x.r.Context(), x.sess.name, col, key)
	if err != nil {
		return s.storeProblem(err, x.plan.col, col, key)
	}
	if x.plan.successMedia == nil || x.plan.successMedia.Schema == nil {
		return s.writeResource(x, nil)
	}
	return s.writeStored(x, doc)
}

// writeStored answers with a stored document.
func (s *Server) writeStored(x *exchange, doc []byte) *problem {
	if x.plan.successMedia == nil {
		return s.writeResource(x, nil)
	}
	v, err := jsonx.Decode(doc)
	if err != nil {
		return internal("stored resource is not JSON: %v", err)
	}
	return s.writeResource(x, v)
}

// replace stores the body in place of the resource the path names.
func (s *Server) replace(x *exchange) *problem {
	pl := x.plan
	obj, _ := x.body.(map[string]any)
	if obj == nil {
		return invalid(CodeSchema, classSchema, "request body must be a JSON object")
	}
	col, key := pl.col.key(x.vals), pl.col.pathKey(x.vals)
	if p := pl.col.sameID(obj, key); p != nil {
		return p
	}
	doc := jsonx.Marshal(obj)
	if _, err := s.store.Update(x.r.Context(), x.sess.name, col, key, func([]byte) ([]byte, error) { return doc, nil }); err != nil {
		return s.storeProblem(err, pl.col, col, key)
	}
	return s.writeResource(x, obj)
}

// merge applies the body as an RFC 7396 merge patch to the resource the
// path names; the result must still match the create schema.
func (s *Server) merge(x *exchange) *problem {
	pl := x.plan
	patch, _ := x.body.(map[string]any)
	if patch == nil {
		return invalid(CodeSchema, classSchema, "a merge patch must be a JSON object")
	}
	col, key := pl.col.key(x.vals), pl.col.pathKey(x.vals)
	var merged map[string]any
	_, err := s.store.Update(x.r.Context(), x.sess.name, col, key, func(old []byte) ([]byte, error) {
		v, err := jsonx.Decode(old)
		if err != nil {
			return nil, internal("stored resource is not JSON: %v", err)
		}
		cur, _ := v.(map[string]any)
		if cur == nil {
			return nil, internal("stored resource is not an object")
		}
		merged = mergePatch(cur, patch)
		if p := pl.col.sameID(merged, key); p != nil {
			return nil, p
		}
		if vs := pl.col.schema.Validate(merged); len(vs) > 0 {
			return nil, &problem{code: CodeSchema, class: classSchema, message: "the patched resource does not match the schema", violations: vs}
		}
		return jsonx.Marshal(merged), nil
	})
	if err != nil {
		return s.storeProblem(err, pl.col, col, key)
	}
	return s.writeResource(x, merged)
}

// storeProblem is the answer to a store error: a problem of the caller's
// passed through, a duplicate or unknown identifier, a full store, or an
// internal error.
func (s *Server) storeProblem(err error, c *collection, col, key string) *problem {
	var p *problem
	switch {
	case errors.As(err, &p):
		return p
	case errors.Is(err, store.ErrExists):
		return invalid(CodeDuplicate, classConflict, "%s already exists in %s", c.describe(key), col)
	case errors.Is(err, store.ErrNotFound):
		return invalid(CodeNotFound, classNotFound, "no resource with %s in %s", c.describe(key), col)
	case errors.Is(err, store.ErrFull):
		return s.full()
	}
	return internal("the store failed: %v", err)
}

// full is the answer to a create beyond MaxResources.
func (s *Server) full() *problem {
	return invalid(CodeFull, classRequest, "the mock holds the most resources it may (%d, --max-resources); delete some or reset the store", s.maxResources)
}

// applyDefaults sets absent properties that declare a default, as a
// server would on create.
func applyDefaults(obj map[string]any, schema *openapi.Schema) {
	for _, p := range schema.Properties {
		if _, ok := obj[p.Name]; !ok && p.Schema != nil && p.Schema.HasDefault {
			obj[p.Name] = p.Schema.Default
		}
	}
}

// mergePatch applies an RFC 7396 JSON merge patch to target, in place.
func mergePatch(target, patch map[string]any) map[string]any {
	for k, pv := range patch {
		if pv == nil {
			delete(target, k)
			continue
		}
		if pm, ok := pv.(map[string]any); ok {
			tm, _ := target[k].(map[string]any)
			if tm == nil {
				tm = map[string]any{}
			}
			target[k] = mergePatch(tm, pm)
			continue
		}
		target[k] = pv
	}
	return target
}

// sameID refuses a body whose identifier differs from the path's and fills
// it in when the body has none.
func (c *collection) sameID(obj map[string]any, key string) *problem {
	if c.idProp == "" {
		return nil
	}
	id, ok := obj[c.idProp]
	if !ok {
		obj[c.idProp] = c.typedID(key)
		return nil
	}
	if keyOf(id) != key {
		return &problem{code: CodeSchema, class: classSchema, message: "request body does not match the path",
			violations: []openapi.Violation{{Path: c.idProp, Reason: fmt.Sprintf("is %s but the path addresses %s", jsonx.Marshal(id), jsonx.Marshal(c.typedID(key)))}}}
	}
	return nil
}
