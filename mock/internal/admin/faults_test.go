package admin

import (
	"slices"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// TestFaultEnumListsTheTable: the admin document's Scenario schema names
// every fault of scenario's table, and only those, in its order: a fault
// added to the table without the document would be answered by the admin
// API and refused by every client that checks its answers.
func TestFaultEnumListsTheTable(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas struct {
				Scenario struct {
					Properties struct {
						Rules struct {
							Items struct {
								Properties struct {
									Respond struct {
										Properties struct {
											Fault struct {
												Enum []string `yaml:"enum"`
											} `yaml:"fault"`
										} `yaml:"properties"`
									} `yaml:"respond"`
								} `yaml:"properties"`
							} `yaml:"items"`
						} `yaml:"rules"`
					} `yaml:"properties"`
				} `yaml:"Scenario"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal([]byte(OpenAPI), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Components.Schemas.Scenario.Properties.Rules.Items.Properties.Respond.Properties.Fault.Enum
	var want []string
	for _, f := range scenario.Faults {
		want = append(want, string(f.Name))
	}
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("admin.yaml's fault enum is %q; the table of faults has %q", got, want)
	}
}
