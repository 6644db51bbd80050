package answer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// Owner finds the document that keeps the collection at a path, its
// plans and the path within it; a nil document for none.
type Owner func(path string) (d *openapi.Document, plans Plans, rest string)

// SeedData fills session def's store from seed data, each collection as
// the plans of the document owner finds for it take it. Every
// collection is checked before any is filled.
func (s *Answerer) SeedData(owner Owner, def *session.Session, data []byte) error {
	v, err := jsonx.Decode(data)
	if err != nil {
		return fmt.Errorf("seed data: %v", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("seed data must be a JSON object of collection paths to arrays of resources")
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	seeds := make([]seed, len(names))
	for i, col := range names {
		var p *problem.Problem
		d, plans, rest := owner("/" + strings.Trim(col, "/"))
		if d == nil {
			return fmt.Errorf("seed data: %s is under no document's base path", col)
		}
		if seeds[i], p = s.seedOf(d, plans, rest, obj[col]); p != nil {
			return fmt.Errorf("seed data: %s", p.Text())
		}
	}
	for _, sd := range seeds {
		if _, p := s.fill(context.Background(), def, sd); p != nil {
			return fmt.Errorf("seed data: %s", p.Text())
		}
	}
	return nil
}

// seed is one collection's seed data, checked: the items to fill it with.
type seed struct {
	c     *collection
	col   string // the collection's path with its parameters
	items []store.Item
}

// SeedCollection makes a collection of a session hold exactly the given resources,
// each valid against the collection's create schema, with identifiers as
// a create gives them: its own, else one the store assigns.
func (s *Answerer) SeedCollection(ctx context.Context, d *openapi.Document, plans Plans, ss *session.Session, path string, v any) (int, *problem.Problem) {
	sd, p := s.seedOf(d, plans, path, v)
	if p != nil {
		return 0, p
	}
	return s.fill(ctx, ss, sd)
}

// seedOf checks the seed data of the collection at path, as the plans
// of d take it.
func (s *Answerer) seedOf(d *openapi.Document, plans Plans, path string, v any) (seed, *problem.Problem) {
	route, vals, _ := d.Find(path, "POST")
	var pl *Plan
	if route != nil {
		if op := route.Operation("POST"); op != nil && plans[op].Do == Create {
			pl = plans[op]
		}
	}
	if pl == nil {
		return seed{}, &problem.Problem{Code: problem.CodeNoRoute, Message: fmt.Sprintf("%s is not a collection the document creates resources in (POST with a JSON object body)", path)}
	}
	list, isArray := v.([]any)
	if !isArray {
		return seed{}, &problem.Problem{Code: problem.CodeSchema, Message: path + ": seed data must be a JSON array of resources"}
	}
	c := pl.Col
	items := make([]store.Item, 0, len(list))
	given := map[string]int{}
	var vs []openapi.Violation
	for i, it := range list {
		obj, _ := it.(map[string]any)
		before := len(vs)
		for _, x := range c.Schema.ValidateRequest(it) {
			at := fmt.Sprintf("[%d]", i)
			if x.Path != "" {
				at += "." + x.Path
			}
			vs = append(vs, openapi.Violation{Path: at, Reason: x.Reason})
		}
		if obj == nil || len(vs) > before {
			continue
		}
		applyDefaults(obj, c.Schema)
		key := ""
		if id, ok := obj[c.IdProp]; ok && c.IdProp != "" {
			key = c.keyOf(id) // seed data gives identifiers, assigned ones too
		} else if !c.seqKeys && c.IdProp != "" {
			key = c.newKey(obj, func() *gofakeit.Faker { return gen.Faker(s.Seed, uint64(i)) })
		}
		if key != "" {
			if j, dup := given[key]; dup {
				vs = append(vs, openapi.Violation{Path: fmt.Sprintf("[%d]", i), Reason: fmt.Sprintf("%s repeats item %d", c.describe(key), j)})
				continue
			}
			given[key] = i
		}
		_, given := obj[c.IdProp]
		items = append(items, store.Item{Key: key, Doc: func(key string) []byte { return jsonx.Marshal(c.identify(obj, key, given)) }})
	}
	if len(vs) > 0 {
		return seed{}, &problem.Problem{Code: problem.CodeSchema, Message: path + ": seed data does not match the create schema", Violations: vs}
	}
	return seed{c: c, col: c.Key(vals), items: items}, nil
}

// fill makes a session's collection hold exactly a seed's items.
func (s *Answerer) fill(ctx context.Context, ss *session.Session, sd seed) (int, *problem.Problem) {
	if _, err := s.Store.Fill(ctx, ss.Name, sd.col, sd.items); err != nil {
		if errors.Is(err, store.ErrExists) {
			return 0, problem.Internal("the store refused distinct identifiers: %v", err)
		}
		return 0, s.storeProblem(err, sd.c, sd.col, "")
	}
	return len(sd.items), nil
}
