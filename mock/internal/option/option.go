// Package option holds the errors of options a mock cannot use, which
// the command line turns into one line naming the flag and exit 2.
package option

// Error is an Options value New cannot use. Name is the option as
// the command line spells it ("admin-cors").
type Error struct {
	Name string
	Err  error
}

// Error names the option and says what is wrong with its value.
func (e *Error) Error() string { return e.Name + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ProxyError is New's error for an Options.Proxy.URL or Proxy.Invalid it
// cannot use.
type ProxyError struct{ Err error }

func (e *ProxyError) Error() string { return e.Err.Error() }

func (e *ProxyError) Unwrap() error { return e.Err }

// WebhookError is New's error for Options.Webhooks.Subscribers or Allow it
// cannot use; its message starts with the flag's name.
type WebhookError struct{ Err error }

func (e *WebhookError) Error() string { return e.Err.Error() }

func (e *WebhookError) Unwrap() error { return e.Err }
