package media

import (
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TypeOf returns the Content-Type to send for a declared media type:
// wildcards and none are sent as application/json.
func TypeOf(m *openapi.Media) string {
	if m == nil || strings.Contains(m.Type, "*") {
		return "application/json"
	}
	return m.Type
}
