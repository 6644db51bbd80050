package state_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyStateImportsRedis: of the module's Go files, only this package
// and the Redis store's own import the Redis store, and only the Redis
// store and the test servers import the Redis client: mock and the
// binary reach Redis through state.Backend alone.
func TestOnlyStateImportsRedis(t *testing.T) {
	const root = "../../.."
	allowed := map[string][]string{
		"github.com/plantmock/plantmock/mock/internal/store/redisstore": {"mock/internal/state", "mock/internal/store/redisstore"},
		"github.com/redis/rueidis":                                      {"mock/internal/store/redisstore", "internal/redistest"},
	}
	importers := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for banned := range allowed {
				if p == banned || strings.HasPrefix(p, banned+"/") {
					importers[banned] = append(importers[banned], filepath.ToSlash(rel))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for banned, dirs := range allowed {
		t.Run(banned, func(t *testing.T) {
			if len(importers[banned]) == 0 {
				t.Fatalf("no file imports %s: is the walk in the module's root?", banned)
			}
			for _, dir := range slices.Compact(slices.Sorted(slices.Values(importers[banned]))) {
				if !slices.Contains(dirs, dir) {
					t.Errorf("%s imports %s; only %s may", dir, banned, strings.Join(dirs, " and "))
				}
			}
		})
	}
}
