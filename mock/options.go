package mock

import "log/slog"

// DefaultMaxBody is the default limit on request bodies: 1 MiB.
const DefaultMaxBody = 1 << 20

// Options configure a Server. The zero value serves the embedded Plant
// Store document, accepts any well-formed bearer token, uses a random seed
// and logs nothing.
type Options struct {
	// Spec is an OpenAPI 3.0 or 3.1 document, YAML or JSON. Empty means the
	// embedded Plant Store document.
	Spec []byte

	// Tokens, when not empty, are the only bearer tokens (and API keys)
	// accepted; others get 401 with error="invalid_token".
	Tokens []string

	// Seed makes generated data reproducible: the same seed and the same
	// sequence of requests give the same answers. 0 picks a random seed.
	Seed int64

	// MaxBody limits request bodies in bytes; 0 means DefaultMaxBody.
	MaxBody int64

	// Logger receives start-up warnings and internal errors; nil discards.
	Logger *slog.Logger
}
