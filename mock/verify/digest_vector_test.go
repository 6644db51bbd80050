package verify

import (
	"net/http"
	"testing"
)

// TestDigestAnswerVectors answers the challenges of RFC 7616's examples
// with their client nonces, and compares the Authorization values with
// the RFC's. Section 3.9.1: "Mufasa", "Circle of Life" (erratum 4495:
// a lower-case "of"), the SHA-256 challenge listed before the MD5 one,
// so SHA-256 is taken, and MD5 where it is the only one. Section
// 3.9.2's username* for a name a quoted string cannot hold: only the
// username is compared, as erratum 4897 disputes the hashes printed
// there (TestDigest checks userhash with a server's own computation).
func TestDigestAnswerVectors(t *testing.T) {
	const (
		sha256Challenge = `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`
		md5Challenge    = `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`
		noUserhash      = `Digest realm="api@example.org", qop="auth", algorithm=SHA-512-256, nonce="5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK", opaque="HRPCssKJSGjCrkzDg8OhwpzCiGPChXYjwrI2QmXDnsOS", charset=UTF-8, userhash=false`
		mufasaCnonce    = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
		jasonCnonce     = "NTg6RKcb9boFIAS3KrFK9BGeh+iDa/sm6jUMp2wds69v"
	)
	tests := []struct {
		name           string
		fields         []string // WWW-Authenticate
		user, password string
		uri, cnonce    string
		want           string // the Authorization value, or its username parameter
		onlyUsername   bool
	}{
		{"SHA-256 listed first", []string{sha256Challenge, md5Challenge}, "Mufasa", "Circle of Life", "/dir/index.html", mufasaCnonce,
			`Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`, false},
		{"MD5 alone", []string{md5Challenge}, "Mufasa", "Circle of Life", "/dir/index.html", mufasaCnonce,
			`Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, response="8ca523f5e9506fed4657c9700eebdbec", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`, false},
		{"MD5 after an unknown algorithm and a Basic challenge", []string{`Basic realm="x", Digest realm="x", nonce="n", algorithm=SHA3-256`, md5Challenge}, "Mufasa", "Circle of Life", "/dir/index.html", mufasaCnonce,
			`Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, response="8ca523f5e9506fed4657c9700eebdbec", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`, false},
		{"username*", []string{noUserhash}, "J\u00e4s\u00f8n Doe", "Secret, or not?", "/doe.json", jasonCnonce,
			`username*=UTF-8''J%C3%A4s%C3%B8n%20Doe`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch, ok := digestChallenge(http.Header{"Www-Authenticate": tt.fields})
			if !ok {
				t.Fatalf("no challenge read from %q", tt.fields)
			}
			got := digestAnswer(ch, tt.user, tt.password, http.MethodGet, tt.uri, nil, 1, tt.cnonce, false)
			if tt.onlyUsername {
				const prefix = "Digest "
				if len(got) < len(prefix)+len(tt.want) || got[len(prefix):len(prefix)+len(tt.want)] != tt.want {
					t.Errorf("answer\n%s\nwant it to start with %s%s", got, prefix, tt.want)
				}
				return
			}
			if got != tt.want {
				t.Errorf("answer\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
