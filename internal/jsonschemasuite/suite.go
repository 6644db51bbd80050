package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// group is one entry of a suite file: a schema and the instances it is
// tried on.
type group struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []testCase      `json:"tests"`
}

// testCase is one instance of a group and the suite's verdict on it.
type testCase struct {
	Description string          `json:"description"`
	Data        json.RawMessage `json:"data"`
	Valid       *bool           `json:"valid"`
}

// suiteFile is one file of required cases, named as deviations name it:
// draft2020-12/minLength.json.
type suiteFile struct {
	name   string
	groups []group
}

// caseID names one case of the suite.
type caseID struct {
	File, Group, Case string
}

func (id caseID) String() string { return id.File + ": " + id.Group + " / " + id.Case }

// readDialect reads the required cases of one dialect: the files directly
// in tests/<dir> of the suite checkout, in name order (optional/ and other
// folders are left out).
func readDialect(suite, dir string) ([]suiteFile, error) {
	names, err := filepath.Glob(filepath.Join(suite, "tests", dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no tests/%s/*.json: is it a checkout of the JSON Schema Test Suite?", suite, dir)
	}
	sort.Strings(names)
	files := make([]suiteFile, 0, len(names))
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f := suiteFile{name: dir + "/" + filepath.Base(name)}
		if err := json.Unmarshal(data, &f.groups); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, g := range f.groups {
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
