package bookstore

import _ "embed"

//go:embed bookstore.yaml
var spec string

// Spec returns the OpenAPI document the provider keeps (but for its
// bug): bookstore.yaml, a copy the caller may change.
func Spec() []byte { return []byte(spec) }

// The tokens the provider takes besides those its token endpoint
// issues, and the client that endpoint knows.
const (
	ReaderToken  = "reader-token" // scope read
	WriterToken  = "writer-token" // scopes read and write
	ClientID     = "shelf-app"
	ClientSecret = "s3cret"
)
