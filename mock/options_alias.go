package mock

import (
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/webhook"
)

// ProxyOptions make the mock a validating proxy in front of a real
// service (see Options.Proxy).
type ProxyOptions = pipeline.ProxyOptions

// WebhookOptions say how webhooks and callbacks are sent (see
// Options.Webhooks).
type WebhookOptions = webhook.Options

// OptionError is New's error for an option it cannot use; Name is the
// option's flag.
type OptionError = pipeline.OptionError

// ProxyError is New's error for an Options.Proxy.URL or Proxy.Invalid it
// cannot use.
type ProxyError = pipeline.ProxyError

// WebhookError is New's error for Options.Webhooks.Subscribers or Allow it
// cannot use; its message starts with the flag's name.
type WebhookError = pipeline.WebhookError

// Timeouts bound how long a client may hold a connection in each phase
// of an exchange: sending the header, sending the whole request, taking
// the answer, and between requests (see Limits.Timeouts).
type Timeouts = pipeline.Timeouts

// DefaultTimeouts are those of Limits.Timeouts's zero fields.
var DefaultTimeouts = pipeline.DefaultTimeouts
