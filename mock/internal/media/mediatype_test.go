package media

import (
	"testing"
)

func TestParseRange(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
		typ, sub string
		full     string
		nparams  int
		q        int
	}{
		{"type", "application/json", true, "application", "json", "application/json", 0, 1000},
		{"case kept", "Text/HTML", true, "Text", "HTML", "Text/HTML", 0, 1000},
		{"spaces around", " \ttext/plain \t", true, "text", "plain", "text/plain", 0, 1000},
		{"any", "*/*", true, "*", "*", "*/*", 0, 1000},
		{"type range", "image/*", true, "image", "*", "image/*", 0, 1000},
		{"suffix range", "application/*+json", true, "application", "*+json", "application/*+json", 0, 1000},
		{"weight", "text/html;q=0.5", true, "text", "html", "text/html", 0, 500},
		{"weight with spaces", "text/html ; Q = 0.25", true, "text", "html", "text/html", 0, 250},
		{"weight quoted", `text/html;q="0.7"`, true, "text", "html", "text/html", 0, 700},
		{"weight 1.000", "text/html;q=1.000", true, "text", "html", "text/html", 0, 1000},
		{"weight 0.", "text/html;q=0.", true, "text", "html", "text/html", 0, 0},
		{"weight 0.001", "text/html;q=0.001", true, "text", "html", "text/html", 0, 1},
		{"parameter", "text/html;level=1", true, "text", "html", "text/html;level=1", 1, 1000},
		{"parameters then weight", `text/plain; format=flowed; x="a;b" ;q=0.3`, true, "text", "plain", `text/plain; format=flowed; x="a;b"`, 2, 300},
		{"extension after weight ignored", "text/plain;q=0.3;ext=1", true, "text", "plain", "text/plain", 0, 300},
		{"trailing semicolon", "text/plain;", true, "text", "plain", "text/plain", 0, 1000},
		{"empty parameter", "text/plain;;a=b", true, "text", "plain", "text/plain;;a=b", 1, 1000},
		{"vendor type", "application/vnd.api+json;ext=bulk", true, "application", "vnd.api+json", "application/vnd.api+json;ext=bulk", 1, 1000},

		{"empty", "", false, "", "", "", 0, 0},
		{"no subtype", "json", false, "", "", "", 0, 0},
		{"empty subtype", "text/", false, "", "", "", 0, 0},
		{"empty type", "/plain", false, "", "", "", 0, 0},
		{"wildcard type, concrete subtype", "*/json", false, "", "", "", 0, 0},
		{"wildcard inside type", "te*t/plain", false, "", "", "", 0, 0},
		{"wildcard inside subtype", "text/pl*in", false, "", "", "", 0, 0},
		{"bare star suffix", "application/*+", false, "", "", "", 0, 0},
		{"two stars", "application/*+*", false, "", "", "", 0, 0},
		{"weight above 1", "text/html;q=1.5", false, "", "", "", 0, 0},
		{"weight 2", "text/html;q=2", false, "", "", "", 0, 0},
		{"weight four decimals", "text/html;q=0.1234", false, "", "", "", 0, 0},
		{"weight word", "text/html;q=high", false, "", "", "", 0, 0},
		{"weight empty", "text/html;q=", false, "", "", "", 0, 0},
		{"weight .5", "text/html;q=.5", false, "", "", "", 0, 0},
		{"parameter without value", "text/html;level", false, "", "", "", 0, 0},
		{"unclosed quote", `text/html;a="b`, false, "", "", "", 0, 0},
		{"garbage after type", "text/html x", false, "", "", "", 0, 0},
		{"space inside", "text /html", false, "", "", "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := parseRange(tt.in)
			if ok != tt.ok {
				t.Fatalf("parseRange(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			}
			if !ok {
				return
			}
			if r.typ != tt.typ || r.sub != tt.sub || r.full != tt.full || r.nparams != tt.nparams || r.q != tt.q {
				t.Errorf("parseRange(%q) = {%q %q %q %d %d}, want {%q %q %q %d %d}", tt.in,
					r.typ, r.sub, r.full, r.nparams, r.q, tt.typ, tt.sub, tt.full, tt.nparams, tt.q)
			}
		})
	}
}

func TestCovers(t *testing.T) {
	tests := []struct {
		x, y string
		want bool
	}{
		{"*/*", "text/plain", true},
		{"*/*", "*/*", true},
		{"text/*", "text/plain", true},
		{"TEXT/*", "text/Plain", true},
		{"text/*", "image/png", false},
		{"text/*", "*/*", false},
		{"text/plain", "text/plain", true},
		{"text/plain", "text/PLAIN", true},
		{"text/plain", "text/html", false},
		{"text/plain", "text/*", false},
		{"application/*+json", "application/problem+json", true},
		{"application/*+json", "application/PROBLEM+JSON", true},
		{"application/*+json", "application/json", false},
		{"application/*+json", "application/*+json", true},
		{"application/*+json", "application/*", false},
		{"application/*", "application/*+json", true},
		{"application/*+json", "text/x+json", false},
		{"application/*+xml", "application/atom+xml", true},
		{"application/*+xml", "application/atom+json", false},
	}
	for _, tt := range tests {
		t.Run(tt.x+" over "+tt.y, func(t *testing.T) {
			x, ok1 := parseRange(tt.x)
			y, ok2 := parseRange(tt.y)
			if !ok1 || !ok2 {
				t.Fatal("bad test input")
			}
			if got := covers(&x, &y); got != tt.want {
				t.Errorf("covers(%s, %s) = %v, want %v", tt.x, tt.y, got, tt.want)
			}
		})
	}
}

func TestParamsIn(t *testing.T) {
	tests := []struct {
		a, c string
		want bool
	}{
		{"text/plain", "text/plain;format=flowed", true},
		{"text/plain;format=flowed", "text/plain;format=flowed", true},
		{"text/plain;format=flowed", "text/plain; FORMAT=Flowed", true},
		{`text/plain;format="flowed"`, "text/plain;format=flowed", true},
		{"text/plain;format=flowed", "text/plain;format=fixed", false},
		{"text/plain;format=flowed", "text/plain", false},
		{"text/plain;a=1;b=2", "text/plain;b=2;a=1", true},
		{"text/plain;a=1;b=2", "text/plain;b=2;c=1", false},
	}
	for _, tt := range tests {
		t.Run(tt.a+" in "+tt.c, func(t *testing.T) {
			a, _ := parseRange(tt.a)
			c, _ := parseRange(tt.c)
			if got := paramsIn(&a, &c); got != tt.want {
				t.Errorf("paramsIn(%s, %s) = %v, want %v", tt.a, tt.c, got, tt.want)
			}
		})
	}
}
