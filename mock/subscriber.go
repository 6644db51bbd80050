package mock

import "github.com/plantmock/plantmock/mock/internal/session"

// Subscriber receives a webhook: the mock sends the webhook's requests
// to URL. Token, if set, is the credential for the security the webhook
// declares (a bearer token, an API key, or user:password for basic).
type Subscriber = session.Subscriber
