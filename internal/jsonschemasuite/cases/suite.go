package cases

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Env is the environment variable that names a checkout of the suite.
const Env = "PLANTMOCK_JSONSCHEMA_SUITE"

// Group is one entry of a suite file: a schema and the instances it is
// tried on.
type Group struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []Test          `json:"tests"`
}

// Test is one instance of a group and the suite's verdict on it.
type Test struct {
	Description string          `json:"description"`
	Data        json.RawMessage `json:"data"`
	Valid       *bool           `json:"valid"`
}

// File is one file of required cases, named as the runner's deviations
// name it: draft2020-12/minLength.json.
type File struct {
	Name   string
	Groups []Group
}

// ReadDialect reads the required cases of one dialect: the files directly
// in tests/<dir> of the suite checkout, in name order (optional/ and other
// folders are left out).
func ReadDialect(suite, dir string) ([]File, error) {
	names, err := filepath.Glob(filepath.Join(suite, "tests", dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no tests/%s/*.json: is it a checkout of the JSON Schema Test Suite?", suite, dir)
	}
	sort.Strings(names)
	files := make([]File, 0, len(names))
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f := File{Name: dir + "/" + filepath.Base(name)}
		if err := json.Unmarshal(data, &f.Groups); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, g := range f.Groups {
			if len(g.Schema) == 0 {
				return nil, fmt.Errorf("%s: group %q has no schema", name, g.Description)
			}
			for _, c := range g.Tests {
				if len(c.Data) == 0 || c.Valid == nil {
					return nil, fmt.Errorf("%s: %s / %s lacks data or valid", name, g.Description, c.Description)
				}
			}
		}
		files = append(files, f)
	}
	return files, nil
}

// Dialect is one directory of the suite and how its groups become OpenAPI
// documents.
type Dialect struct {
	Dir     string // under tests/ of the suite
	OpenAPI string // the openapi field of the documents
	// Prepare returns the component schemas for a group's schema (Case is
	// the body's), or why the group is skipped.
	Prepare func(schema any) (schemas map[string]any, skip []string)
}

// Dialects returns the dialects run, in order: draft 2020-12 as OpenAPI
// 3.1.0, draft 4 as OpenAPI 3.0.3.
func Dialects() []Dialect {
	return []Dialect{
		{Dir: "draft2020-12", OpenAPI: "3.1.0", Prepare: prepare2020},
		{Dir: "draft4", OpenAPI: "3.0.3", Prepare: prepare4},
	}
}
