package option

import (
	"reflect"
	"testing"
)

func TestClearCredentials(t *testing.T) {
	for _, c := range []struct {
		in, err string
		clear   bool
	}{
		{in: ""},
		{in: CredentialsMasked},
		{in: CredentialsClear, clear: true},
		{in: "Clear", err: `journal-credentials: must be masked or clear, not "Clear"`},
	} {
		t.Run(c.in, func(t *testing.T) {
			clear, err := ClearCredentials(c.in)
			if clear != c.clear || errText(err) != c.err {
				t.Errorf("ClearCredentials(%q) = %t, %q; want %t, %q", c.in, clear, errText(err), c.clear, c.err)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []string
		want map[string]struct{}
		err  string
	}{
		{name: "none"},
		{name: "two", in: []string{"abc", "d.e-f~"}, want: map[string]struct{}{"abc": {}, "d.e-f~": {}}},
		{name: "space", in: []string{"abc", "a b"}, err: `token: "a b" is not a valid bearer token (RFC 6750 token68)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Tokens(c.in)
			if !reflect.DeepEqual(got, c.want) || errText(err) != c.err {
				t.Errorf("Tokens(%q) = %v, %q; want %v, %q", c.in, got, errText(err), c.want, c.err)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
