package option

import (
	"fmt"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// The values of the journal's credentials option (mock's
// JournalOptions.Credentials, plantmock's --journal-credentials).
const (
	CredentialsMasked = "masked" // kept masked: the default, also ""
	CredentialsClear  = "clear"  // kept whole
)

// ClearCredentials reads the journal's credentials option: whether it
// keeps credentials whole. A value other than "", CredentialsMasked and
// CredentialsClear is an *Error.
func ClearCredentials(v string) (bool, error) {
	switch v {
	case "", CredentialsMasked:
		return false, nil
	case CredentialsClear:
		return true, nil
	}
	return false, &Error{Name: "journal-credentials", Err: fmt.Errorf("must be %s or %s, not %q", CredentialsMasked, CredentialsClear, cliptext.To(v, 20))}
}

// Tokens returns the set of the bearer tokens given, nil for none. One
// that is not an RFC 6750 token68 is an *Error.
func Tokens(tokens []string) (map[string]struct{}, error) {
	if len(tokens) == 0 {
		return nil, nil
	}
	set := make(map[string]struct{}, len(tokens))
	for _, t := range tokens {
		if !wire.IsToken68(t) {
			return nil, &Error{Name: "token", Err: fmt.Errorf("%q is not a valid bearer token (RFC 6750 token68)", cliptext.To(t, 20))}
		}
		set[t] = struct{}{}
	}
	return set, nil
}
