package deliver

import (
	"fmt"
	"testing"
)

// TestAllowListCheck: --webhook-allow entries, by name and by address.
func TestAllowListCheck(t *testing.T) {
	for _, c := range []struct {
		allow  []string
		subs   []string // the URLs of the subscribers given at start
		target string
		ok     bool
	}{
		{nil, nil, "http://127.0.0.1:9/x", true},
		{nil, nil, "http://localhost:9/x", true},
		{nil, nil, "http://[::1]:9/x", true},
		{nil, nil, "http://hooks.example.com/x", false},
		{[]string{"hooks.example.com"}, nil, "https://hooks.example.com/x", true},
		{[]string{"hooks.example.com"}, nil, "http://127.0.0.1/x", false},
		{[]string{"loopback"}, nil, "http://127.0.0.1/x", true},
		{[]string{"*.example.com"}, nil, "http://a.b.example.com/x", true},
		{[]string{"*.example.com"}, nil, "http://example.org/x", false},
		{[]string{"hooks.example.com:8443"}, nil, "https://hooks.example.com:8443/x", true},
		{[]string{"hooks.example.com:8443"}, nil, "https://hooks.example.com/x", false},
		{[]string{"*"}, nil, "http://anything.test/x", true},
		{[]string{"*"}, nil, "ftp://anything.test/x", false},
		{[]string{"*"}, nil, "http://user:pw@anything.test/x", false},
		// Addresses: loopback needs loopback, link-local and metadata
		// addresses need their own entry, * or not.
		{[]string{"*"}, nil, "http://127.0.0.1/x", false},
		{[]string{"*", "loopback"}, nil, "http://127.0.0.1/x", true},
		{[]string{"localhost"}, nil, "http://127.0.0.1/x", true},
		{nil, nil, "http://0.0.0.0:9/x", true},
		{[]string{"*"}, nil, "http://[::]:9/x", false},
		{nil, nil, "http://[::ffff:127.0.0.1]:9/x", true},
		{nil, nil, "http://169.254.169.254/latest/meta-data", false},
		{[]string{"*"}, nil, "http://169.254.169.254/x", false},
		{[]string{"*"}, nil, "http://[::ffff:169.254.169.254]/x", false},
		{[]string{"*"}, nil, "http://[64:ff9b::a9fe:a9fe]/x", false},
		{[]string{"*"}, nil, "http://[fe80::1]/x", false},
		{[]string{"*"}, nil, "http://[fd00:ec2::254]/x", false},
		{[]string{"*"}, nil, "http://100.100.100.200/x", false},
		{[]string{"169.254.169.254"}, nil, "http://169.254.169.254/x", true},
		{[]string{"169.254.169.254:8080"}, nil, "http://169.254.169.254:8080/x", true},
		{[]string{"169.254.169.254:8080"}, nil, "http://169.254.169.254/x", false},
		{[]string{"[fe80::1]:80"}, nil, "http://[fe80::1]/x", true},
		{[]string{"*"}, nil, "http://10.0.0.7/x", true},
		// The subscribers' hosts are in the list, and only those.
		{nil, []string{"https://hooks.example.com:8443/in"}, "http://hooks.example.com/x", true},
		{nil, []string{"https://hooks.example.com:8443/in"}, "http://other.example.com/x", false},
	} {
		t.Run(fmt.Sprintf("%v %v %s", c.allow, c.subs, c.target), func(t *testing.T) {
			a, err := NewAllowList(c.allow, c.subs)
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Check("callback", c.target); (err == nil) != c.ok {
				t.Errorf("%v, want ok=%v", err, c.ok)
			}
		})
	}
	if _, err := NewAllowList([]string{"http://x/"}, nil); err == nil || err.Error() != `"http://x/" is not a host, host:port, *.domain, loopback or *` {
		t.Errorf("bad entry: %v", err)
	}
}
