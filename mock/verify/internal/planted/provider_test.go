package planted_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/verify/internal/planted"
)

// TestRequests sends the provider requests of every kind, answered or
// refused, and checks each answer and that Requests counted them all.
func TestRequests(t *testing.T) {
	p := planted.New(planted.None)
	srv := httptest.NewServer(p)
	defer srv.Close()
	defer p.Close()
	tests := []struct {
		name, method, path, auth, body string
		status                         int
		answer                         string
	}{
		{"no credentials", "GET", "/items", "", "", 401, `{"code":401,"message":"no credentials"}`},
		{"no tenant", "GET", "/items", "Bearer t", "", 400, `{"code":400,"message":"X-Tenant is required"}`},
		{"create", "POST", "/items", "Bearer t", `{"name":"rake","kind":"tool","secret":"s"}`, 201, `{"id":1,"kind":"tool","name":"rake"}`},
		{"read", "GET", "/items/1", "Bearer t", "", 200, `{"id":1,"name":"rake","kind":"tool"}`},
		{"replace", "PUT", "/items/1", "Bearer t", `{"name":"hoe","kind":"seed"}`, 200, `{"id":1,"kind":"seed","name":"hoe"}`},
		{"read after replace", "GET", "/items/1", "Bearer t", "", 200, `{"id":1,"name":"hoe","kind":"seed"}`},
		{"replace absent", "PUT", "/items/9", "Bearer t", `{"name":"hoe","kind":"seed"}`, 404, `{"code":404,"message":"no such item"}`},
		{"create tag", "POST", "/tags", "Bearer t", `{"name":"perennial","color":"green"}`, 201, `{"color":"green","name":"perennial"}`},
		{"repeat tag", "POST", "/tags", "Bearer t", `{"name":"perennial"}`, 409, `{"code":409,"message":"the tag exists"}`},
		{"read tag", "GET", "/tags/perennial", "Bearer t", "", 200, `{"color":"green","name":"perennial"}`},
		{"absent tag", "GET", "/tags/annual", "Bearer t", "", 404, `{"code":404,"message":"no such tag"}`},
		{"undeclared path", "GET", "/plants", "Bearer t", "", 404, `{"code":404,"message":"no such path"}`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != tt.status || strings.TrimSpace(string(body)) != tt.answer {
				t.Errorf("%d %s, want %d %s", res.StatusCode, body, tt.status, tt.answer)
			}
			if got := p.Requests(); got != int64(i+1) {
				t.Errorf("Requests() = %d after %d requests", got, i+1)
			}
		})
	}
}

// TestParseBug finds every bug by its name, and refuses a name no bug
// has.
func TestParseBug(t *testing.T) {
	for _, b := range append([]planted.Bug{planted.None}, planted.Bugs()...) {
		t.Run(b.String(), func(t *testing.T) {
			got, err := planted.ParseBug(b.Name())
			if err != nil || got != b {
				t.Errorf("ParseBug(%q) = %v, %v", b.Name(), got, err)
			}
			if (b == planted.None) != (b.Operation() == "") {
				t.Errorf("operation %q", b.Operation())
			}
		})
	}
	t.Run("unknown", func(t *testing.T) {
		_, err := planted.ParseBug("typo")
		if err == nil || !strings.HasPrefix(err.Error(), `planted: no bug is named "typo" (one of none, undeclared-status, `) {
			t.Errorf("error %v", err)
		}
	})
}
