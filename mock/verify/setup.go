package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"go.yaml.in/yaml/v4"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/verify/internal/arazzo"
)

// Set-up: the fixtures a service needs before it is verified, made by
// requests an Options.Setup lists or by Arazzo workflows, and the
// outputs they give, used as the values of the path parameters of
// their names.

// Setup makes fixtures before a run (Options.Setup).
type Setup struct {
	// Description is either an Arazzo description (1.0 or 1.1, YAML or
	// JSON), whose workflows run, or a list of requests:
	//
	//	setup:
	//	  - operation: putGenre            # an operationId, or "PUT /genres/{genreId}"
	//	    parameters: {genreId: fiction} # by name; where each goes, the document says
	//	    body: {name: Fiction}
	//	    outputs: {genreId: $response.body#/id}
	//
	// each sent in turn, which must succeed (a 2xx), its outputs Arazzo
	// runtime expressions over its exchange.
	Description []byte
	// Workflow names the one workflow of an Arazzo description to run,
	// with those it depends on; "" runs them all.
	Workflow string
	// File is the description's name, for the report.
	File string
}

// setupList is the list form of a Setup.
type setupList struct {
	Setup []struct {
		Operation  string         `yaml:"operation"`
		Parameters map[string]any `yaml:"parameters"`
		Body       any            `yaml:"body"`
		Outputs    map[string]any `yaml:"outputs"`
	} `yaml:"setup"`
}

// setupDocument reads a Setup as an Arazzo description: a list of
// requests is one workflow, "setup", with a step per request whose
// success is a 2xx, and the steps' outputs as its own.
func setupDocument(doc *openapi.Document, s *Setup) (*arazzo.Document, error) {
	var top map[string]any
	if err := yaml.Unmarshal(s.Description, &top); err != nil {
		return nil, fmt.Errorf("verify: the set-up: %s", oneLine(err.Error(), 200))
	}
	if _, isList := top["setup"]; !isList {
		d, err := arazzo.Parse(s.Description)
		if err != nil {
			return nil, fmt.Errorf("verify: the set-up: %w", err)
		}
		if s.Workflow != "" && d.Workflow(s.Workflow) == nil {
			return nil, fmt.Errorf("verify: the set-up has no workflow %s", s.Workflow)
		}
		return d, nil
	}
	if s.Workflow != "" {
		return nil, fmt.Errorf("verify: the set-up is a list of requests, not workflows: it has no workflow %s", s.Workflow)
	}
	var list setupList
	if err := yaml.Unmarshal(s.Description, &list); err != nil {
		return nil, fmt.Errorf("verify: the set-up: %s", oneLine(err.Error(), 200))
	}
	var steps []any
	outputs := map[string]any{}
	for i, rq := range list.Setup {
		op := findByName(doc, rq.Operation)
		if op == nil {
			return nil, fmt.Errorf("verify: the set-up's request %d: no operation is named %q (name one by its operationId or as \"METHOD /path\")", i+1, rq.Operation)
		}
		id := fmt.Sprintf("request%d", i+1)
		step := map[string]any{"stepId": id, "successCriteria": []any{map[string]any{"condition": "$statusCode >= 200 && $statusCode < 300"}}}
		if op.ID != "" {
			step["operationId"] = op.ID
		} else {
			step["operationPath"] = "{$sourceDescriptions.api.url}" + opPointer(op)
		}
		var params []any
		for _, name := range slices.Sorted(maps.Keys(rq.Parameters)) {
			in := ""
			for _, p := range op.Params {
				if p.Name == name {
					in = p.In
				}
			}
			if in == "" {
				return nil, fmt.Errorf("verify: the set-up's request %d (%s): the operation has no parameter %s", i+1, op.Name, name)
			}
			params = append(params, map[string]any{"name": name, "in": in, "value": rq.Parameters[name]})
		}
		if params != nil {
			step["parameters"] = params
		}
		if rq.Body != nil {
			step["requestBody"] = map[string]any{"payload": rq.Body}
		}
		if len(rq.Outputs) > 0 {
			step["outputs"] = rq.Outputs
			for name := range rq.Outputs {
				outputs[name] = "$steps." + id + ".outputs." + name
			}
		}
		steps = append(steps, step)
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("verify: the set-up lists no request")
	}
	desc := map[string]any{
		"arazzo":             "1.0.1",
		"info":               map[string]any{"title": "set-up", "version": "1"},
		"sourceDescriptions": []any{map[string]any{"name": "api", "url": "openapi.yaml", "type": "openapi"}},
		"workflows":          []any{map[string]any{"workflowId": "setup", "steps": steps, "outputs": outputs}},
	}
	b, err := json.Marshal(desc)
	if err != nil {
		return nil, err
	}
	d, err := arazzo.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("verify: the set-up: %w", err)
	}
	return d, nil
}

// findByName returns the operation n names (see named), or nil.
func findByName(doc *openapi.Document, n string) *openapi.Operation {
	for _, op := range doc.Operations {
		if named(op, n) {
			return op
		}
	}
	return nil
}

// setup runs the set-up's workflows and keeps the outputs of those that
// succeeded as fixtures: the values of the path parameters of their
// names. A workflow that fails is a failure of the run, as any.
func (r *runner) setup(ctx context.Context, d *arazzo.Document, s *Setup) error {
	before := len(r.rep.Workflows)
	err := r.workflows(ctx, d, &Workflows{File: s.File}, s.Workflow)
	for _, w := range r.rep.Workflows[before:] {
		w.Setup = true
		if !w.OK {
			continue
		}
		for k, v := range w.Outputs {
			if r.rep.Fixtures == nil {
				r.rep.Fixtures = map[string]any{}
			}
			r.rep.Fixtures[k] = v
		}
	}
	return err
}

// fixture returns the set-up's value for the path parameter name.
func (r *runner) fixture(name string) (any, bool) {
	v, ok := r.rep.Fixtures[name]
	return v, ok
}

// useFixtures sets c's path parameters that the set-up gave values for
// to those values: an item that exists, where a made-up one would be
// refused with 404.
func (r *runner) useFixtures(c *exercise.Call) {
	for _, p := range c.Op.Params {
		if v, ok := r.fixture(p.Name); ok && p.In == "path" {
			c.Values["path."+p.Name] = v
		}
	}
}
