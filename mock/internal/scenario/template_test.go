package scenario_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// marshal is v's JSON, as the mock writes it.
func marshal(v any) string { return string(jsonx.Marshal(v)) }

// renderRule compiles one off-contract rule answering body (JSON) and
// renders its body over a request: decoded reqBody, headers h, token,
// and the rule's count seq.
func renderRule(t *testing.T, body string, reqBody string, h http.Header, token string, seq int64, faker func() *gofakeit.Faker) (string, error) {
	t.Helper()
	doc := plants(t)
	sc := &scenario.Scenario{Name: "t", Rules: []scenario.Rule{{OffContract: true, Respond: scenario.Respond{Body: decode(t, body)}}}}
	set, err := scenario.CompileScenarios(compiling(doc, nil), nil, []*scenario.Scenario{sc}, "t")
	if err != nil {
		t.Fatal(err)
	}
	rl, _, err := set.Initial.Match(t.Context(), request(t, doc, "POST /plants", "", nil), newSession(t))
	if err != nil || rl == nil {
		t.Fatalf("Match: %v, %v", rl, err)
	}
	var rb any
	if reqBody != "" {
		rb = decode(t, reqBody)
	}
	v, err := scenario.RenderBody(rl.RespBody, scenario.TemplateData(rb, h, token, seq), faker)
	if err != nil {
		return "", err
	}
	return marshal(v), nil
}

// TestRenderBody: templates read the request's body, headers, token and
// the rule's count; a template that is a single action gives a number,
// true, false or null when its output reads as one; the rest is text.
func TestRenderBody(t *testing.T) {
	h := http.Header{"X-Trace": {"t-1", "t-2"}, "X-None": {}}
	tests := []struct{ name, body, reqBody, want string }{
		{"body, headers, token and seq",
			`{"error":"{{ .seq }}","message":"{{ .body.name }} by {{ .token }} ({{ index .headers \"X-Trace\" }})"}`, `{"name":"Fern"}`,
			`{"error":4,"message":"Fern by abc (t-1)"}`},
		{"typed output only for a single action",
			`{"ok":"{{ eq .body.name \"a\" }}","no":"{{ eq .body.name \"b\" }}","n":"{{ .seq }}","nothing":"{{ \"null\" }}","text":"x{{ .seq }}","two":"{{ .seq }}{{ .seq }}","quoted":"{{ printf \"%q\" .body.name }}","big":"{{ \"1e400\" }}","lead":"{{ \"01\" }}","sign":"{{ \"+1\" }}","space":"{{ \" 1\" }}"}`,
			`{"name":"a"}`,
			`{"big":1e400,"lead":"01","n":4,"no":false,"nothing":null,"ok":true,"quoted":"\"a\"","sign":"+1","space":" 1","text":"x4","two":"44"}`},
		{"arrays and static values stay", `[1,"a",{"k":["{{ .seq }}",null,true]}]`, ``, `[1,"a",{"k":[4,null,true]}]`},
		{"what the request lacks is no value", `{"a":"{{ .body.name }}","b":"[{{ index .headers \"X-None\" }}]"}`, `{}`, `{"a":"<no value>","b":"[]"}`},
		{"range and if without else", `{"m":"{{ range .body.tags }}{{ . }}{{ end }}{{ if .token }}!{{ end }}"}`, `{"tags":["x","y"]}`, `{"m":"xy!"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := renderRule(t, tt.body, tt.reqBody, h, "abc", 4, nil)
			if got != tt.want || err != nil {
				t.Errorf("rendered %s, %v\nwant %s", got, err, tt.want)
			}
		})
	}
}

// TestRenderFails: a template that fails as it runs is the error of the
// render.
func TestRenderFails(t *testing.T) {
	faker := func() *gofakeit.Faker { return gofakeit.New(1) }
	for _, c := range []struct{ body, want string }{
		{`{"m":"{{ fake .body.name }}"}`, `template: respond.body.m:1:3: executing "respond.body.m" at <fake .body.name>: error calling fake: gofakeit has no function "nope"`},
		// A request without a body has no .body to read in.
		{`["{{ .body.name }}"]`, `template: respond.body[0]:1:8: executing "respond.body[0]" at <.body.name>: nil pointer evaluating interface {}.name`},
	} {
		reqBody := `{"name":"nope"}`
		if c.body[0] == '[' {
			reqBody = ""
		}
		got, err := renderRule(t, c.body, reqBody, nil, "", 1, faker)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %s, %v\nwant the error %s", c.body, got, err, c.want)
		}
	}
}

// TestRenderFake: fake calls gofakeit's functions by name, whatever
// their case, with the faker given: the same seed gives the same names.
func TestRenderFake(t *testing.T) {
	const body = `{"m":"{{ fake \"firstname\" }} {{ fake \"LastName\" }}"}`
	answer := func(seed int64) string {
		t.Helper()
		f := gofakeit.New(seed)
		got, err := renderRule(t, body, ``, nil, "", 1, func() *gofakeit.Faker { return f })
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	want5 := answer(5)
	if got := answer(5); got != want5 {
		t.Errorf("seed 5 twice: %s and %s", want5, got)
	}
	if want := `{"m":"Alexis Veum"}`; want5 != want {
		t.Errorf("seed 5: %s, want %s", want5, want)
	}
	if got := answer(6); got == want5 {
		t.Errorf("seeds 5 and 6 give the same %s", got)
	}
}

// TestTemplateData: what a template sees of a request.
func TestTemplateData(t *testing.T) {
	d := scenario.TemplateData(map[string]any{"a": 1}, http.Header{"X-A": {"1", "2"}, "X-B": {}}, "tok", 3)
	b, _ := json.Marshal(d)
	if want := `{"body":{"a":1},"headers":{"X-A":"1"},"seq":3,"token":"tok"}`; string(b) != want {
		t.Errorf("TemplateData: %s, want %s", b, want)
	}
}

// TestRenderHeaders: a rule's header templates render as text, whatever
// they read as.
func TestRenderHeaders(t *testing.T) {
	doc := plants(t)
	sc := compileOne(t, doc, "name: s\nrules:\n  - respond: {headers: {Retry-After: '{{ .seq }}', X-Echo: '{{ .body.name }}-{{ .token }}'}}\n")
	rl, n, err := sc.Match(t.Context(), request(t, doc, "POST /plants", "{}", nil), newSession(t))
	if err != nil || rl == nil {
		t.Fatal(rl, err)
	}
	data := scenario.TemplateData(map[string]any{"name": "Fern"}, nil, "abc", n)
	var got []any
	for _, h := range rl.RespHeaders {
		v, err := h.T.Render(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, h.Name, v)
	}
	if s := marshal(got); s != `["Retry-After",1,"X-Echo","Fern-abc"]` {
		t.Errorf("headers: %s", s)
	}
}

// TestRenderItem: a stream's items see .item, their number, besides
// what the body's templates see.
func TestRenderItem(t *testing.T) {
	doc := shop(t)
	sc := compileOne(t, doc, `
name: s
rules:
  - when: {operation: GET /events}
    respond:
      stream: {items: [{data: 'n{{ .item }} of {{ .seq }}'}, {data: '{{ .item }}'}], error: {event: error, data: '{{ .item }}'}}`)
	rl, n, err := sc.Match(t.Context(), request(t, doc, "GET /events", "", nil), newSession(t))
	if err != nil || rl == nil || rl.Stream == nil {
		t.Fatal(rl, err)
	}
	st := rl.Stream
	data := scenario.TemplateData(nil, nil, "", n)
	var got []any
	for i, it := range st.Items {
		v, err := st.RenderItem(it, i+1, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	v, err := st.RenderItem(st.Error, 0, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, v)
	if s := marshal(got); s != `[{"data":"n1 of 1"},{"data":2},{"data":0,"event":"error"}]` {
		t.Errorf("items: %s", s)
	}
}
