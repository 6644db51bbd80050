package admin

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/problem"
	"go.yaml.in/yaml/v4"
)

// Call is one call of the admin API, as GET /__admin/ lists it.
type Call struct {
	Method  string `json:"method"`
	Path    string `json:"path"`
	Name    string `json:"operationId"`
	Summary string `json:"summary"`
}

// methods are the keys of a path item that are operations, in the order
// a call's methods are listed.
var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// Calls returns the calls doc, an OpenAPI document, declares, in the
// order of its paths.
func Calls(doc string) ([]Call, error) {
	var d struct {
		Paths yaml.Node `yaml:"paths"`
	}
	if err := yaml.Unmarshal([]byte(doc), &d); err != nil {
		return nil, err
	}
	if d.Paths.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the admin document has no paths")
	}
	var out []Call
	for i := 0; i+1 < len(d.Paths.Content); i += 2 {
		path, item := d.Paths.Content[i].Value, d.Paths.Content[i+1]
		ops := map[string]Call{}
		for j := 0; j+1 < len(item.Content); j += 2 {
			var op struct {
				Name    string `yaml:"operationId"`
				Summary string `yaml:"summary"`
			}
			if item.Content[j+1].Kind != yaml.MappingNode || item.Content[j+1].Decode(&op) != nil {
				continue // parameters and other keys that are not operations
			}
			ops[item.Content[j].Value] = Call{Name: op.Name, Summary: op.Summary}
		}
		for _, m := range methods {
			if c, ok := ops[m]; ok {
				c.Method, c.Path = strings.ToUpper(m), path
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// index answers GET /__admin/: the calls of the admin API, from its own
// document, and where that document is.
func (a *api) index(w http.ResponseWriter, _ *http.Request) {
	calls, err := a.listed()
	if err != nil {
		writeError(w, http.StatusInternalServerError, problem.CodeInternal, "reading admin.yaml: "+err.Error())
		return
	}
	writeJSON(w, map[string]any{"calls": calls, "openapi": Prefix + "openapi.yaml"})
}
