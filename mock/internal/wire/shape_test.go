package wire

import "testing"

func TestIsNumber(t *testing.T) {
	tests := map[string]bool{
		"0": true, "-0": true, "10": true, "1.5": true, "1e5": true, "1E+5": true, "-1.25e-10": true,
		"": false, "-": false, "01": false, "1.": false, ".5": false, "1e": false, "1e+": false, "+1": false,
		"0x1": false, "1_000": false, " 1": false, "1 ": false, "NaN": false, "Infinity": false, "--1": false,
	}
	for s, want := range tests {
		if got := isNumber(s); got != want {
			t.Errorf("isNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestKindOf(t *testing.T) {
	tests := []struct {
		name  string
		shape *Shape
		want  kind
	}{
		{"nil", nil, kindAny},
		{"empty", &Shape{}, kindAny},
		{"string", str, kindScalar},
		{"array or string", &Shape{Types: Array | String}, kindArray},
		{"array or object", &Shape{Types: Array | Object}, kindArray},
		{"object or null", &Shape{Types: Object | Null}, kindObject},
		{"items without a type", &Shape{Items: str}, kindArray},
		{"properties without a type", &Shape{Properties: map[string]*Shape{"a": str}}, kindObject},
		{"additional without a type", &Shape{Additional: str}, kindObject},
	}
	for _, tt := range tests {
		if got := kindOf(tt.shape); got != tt.want {
			t.Errorf("%s: kindOf = %v, want %v", tt.name, got, tt.want)
		}
	}
}
