package wire

import "testing"

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
