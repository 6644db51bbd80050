package arazzo

import (
	"testing"
)

// TestLint lints descriptions against a document of two operations,
// listPlants (GET /plants) and getPlant (GET /plants/{id}): each kind
// of problem, and a clean description that has none.
func TestLint(t *testing.T) {
	has := func(id, ptr string) bool {
		return id == "listPlants" || id == "getPlant" || ptr == "/paths/~1plants/get" || ptr == "/paths/~1plants~1{id}/get"
	}
	head := "arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions: [{name: store, url: openapi.yaml, type: openapi}]\nworkflows:\n"
	// Line 5 is the first workflow, line 7 its first step.
	clean := `- workflowId: browse
  steps:
  - stepId: list
    operationId: listPlants
    successCriteria: [{condition: $statusCode == 200}]
    outputs: {first: $response.body#/0/id}
  - stepId: one
    operationPath: '{$sourceDescriptions.store.url}#/paths/~1plants~1{id}/get'
    parameters: [{name: id, in: path, value: $steps.list.outputs.first}]
    successCriteria: [{condition: $statusCode == 200 && $steps.list.outputs.first != null}]
    onSuccess: [{name: again, type: goto, stepId: list, criteria: [{condition: $steps.one.outputs.name == 'x'}]}]
    outputs: {name: $response.body#/name}
  outputs: {name: $steps.one.outputs.name}
- workflowId: after
  dependsOn: [browse]
  steps: [{stepId: s, operationId: $sourceDescriptions.store.getPlant}]
`
	for _, c := range []struct {
		name, flows string
		want        []Problem
	}{
		{"clean", clean, nil},
		{"unknown operationId", "- workflowId: w\n  steps:\n  - {stepId: s, operationId: deletePlant}\n",
			[]Problem{{7, "workflow w step s: operationId deletePlant: no operation of the document has that id"}}},
		{"unknown operationPath", "- workflowId: w\n  steps:\n  - {stepId: s, operationPath: '{$sourceDescriptions.store.url}#/paths/~1plants/post'}\n",
			[]Problem{{7, "workflow w step s: operationPath {$sourceDescriptions.store.url}#/paths/~1plants/post: no operation of the document is there"}}},
		{"goto unknown step", "- workflowId: w\n  steps:\n  - stepId: s\n    operationId: listPlants\n    onFailure: [{name: n, type: goto, stepId: nope}]\n",
			[]Problem{{7, `workflow w step s: onFailure n: stepId "nope": no step of workflow w has that id`}}},
		{"goto unknown workflow", "- workflowId: w\n  steps:\n  - stepId: s\n    operationId: listPlants\n    onSuccess: [{name: n, type: goto, workflowId: nope}]\n",
			[]Problem{{7, `workflow w step s: onSuccess n: workflowId "nope": no workflow has that id`}}},
		{"dependsOn nothing", "- workflowId: w\n  dependsOn: [v]\n  steps: [{stepId: s, operationId: listPlants}]\n",
			[]Problem{{5, `workflow w: dependsOn "v": no workflow has that id`}}},
		{"bad expression", "- workflowId: w\n  steps:\n  - stepId: s\n    operationId: getPlant\n    parameters: [{name: id, in: path, value: $response.nope}]\n",
			[]Problem{{7, `workflow w step s: parameter id: "$response.nope" is not a runtime expression: after $response. want header.NAME, query.NAME, path.NAME or body`}}},
		{"unknown step in $steps", "- workflowId: w\n  steps:\n  - stepId: s\n    operationId: getPlant\n    parameters: [{name: id, in: path, value: $steps.nope.outputs.id}]\n",
			[]Problem{{7, "workflow w step s: $steps.nope.outputs.id: no step of workflow w has id nope"}}},
		{"unknown output in $steps", "- workflowId: w\n  steps:\n  - {stepId: s, operationId: listPlants, outputs: {n: $statusCode}}\n  outputs: {id: $steps.s.outputs.id}\n",
			[]Problem{{5, "workflow w: $steps.s.outputs.id: step s has no output id"}}},
		{"$steps in a condition", "- workflowId: w\n  steps:\n  - stepId: s\n    operationId: listPlants\n    successCriteria: [{condition: $steps.t.outputs.x == 1}]\n",
			[]Problem{{7, "workflow w step s: $steps.t.outputs.x: no step of workflow w has id t"}}},
		{"parameter in", "- workflowId: w\n  steps:\n  - stepId: s\n    operationId: listPlants\n    parameters: [{name: q, in: body, value: 1}]\n",
			[]Problem{{7, `workflow w step s: parameter q: in "body": want path, query, header or cookie`}}},
		{"not YAML", "- [", []Problem{{0, "the Arazzo description is not YAML or JSON: go-yaml load error in parser (while parsing a flow node) at L6.C1: did not find expected node content"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Lint([]byte(head+c.flows), has)
			if len(got) != len(c.want) {
				t.Fatalf("Lint = %q, want %q", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("problem %d = %q, want %q", i, got[i], c.want[i])
				}
			}
		})
	}
}
