package verify_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/verify"
)

// TestPlantedBugs verifies a provider built with one contract bug at a
// time (ten kinds the issue names, a slow answer, a valid value
// refused, an enum value refused that only a request per enum value
// surely finds, and three that only sequences find: a list without
// the item just created, an update not applied, a repeated identifier
// accepted): verify must report that bug, once, and nothing else;
// built without a bug, it must report nothing.
func TestPlantedBugs(t *testing.T) {
	tests := []struct {
		bug       bug
		operation string
		rule      string
		schema    string // the failure's schema pointer, "" for none
		text      string // a part of the failure's text
	}{
		{noBug, "", "", "", ""},
		{undeclaredStatus, "GET /items", "status", "", "status 203 is not declared"},
		{missingRequired, "POST /items", "body", "#/components/schemas/Item/required", "kind"},
		{wrongType, "GET /items", "body", "#/components/schemas/Item/properties/id/type", "[0].id"},
		{leakedWriteOnly, "POST /items", "writeOnly", "#/components/schemas/Item/properties/secret/writeOnly", "secret"},
		{boundary500, "GET /items", "5xx", "", "500 index out of range"},
		{missingLocation, "POST /items", "header", "", "header.Location: required header is missing"},
		{acceptedEnum, "POST /items", "accepted invalid input", "#/components/schemas/Item/properties/kind/enum", "status 201"},
		{ignoredHeader, "GET /items", "accepted invalid input", "", "header.X-Tenant"},
		{wrongErrorShape, "POST /items", "error shape", "#/components/schemas/Error/required", "status 400"},
		{readDisagrees, "GET /items/{id}", "state", "#/components/schemas/Item/properties/name", "(copy)\"; it was created with"},
		{refusedValid, "POST /items", "valid input refused", "", "status 400 to a request the document calls valid"},
		{slowAnswer, "GET /items", "timeout", "", "no answer within 200ms"},
		{listOmits, "GET /items", "state", "#/paths/~1items/get/responses/200/content/application~1json/schema", "the list does not hold the item just created (id "},
		{updateIgnored, "GET /items/{id}", "state", "#/components/schemas/Item/properties/name", "it was updated by PUT with"},
		{duplicateCreated, "POST /tags", "state", "#/components/schemas/Tag/properties/name", "status 201: a create that repeats name"},
		{enumRefused, "POST /items", "valid input refused", "", "kind seed is not taken yet"},
	}
	for _, tt := range tests {
		name := string(tt.bug)
		if name == "" {
			name = "no bug"
		}
		t.Run(name, func(t *testing.T) {
			p := newProvider(tt.bug)
			srv := httptest.NewServer(p)
			defer srv.Close()
			defer close(p.slow)
			opts := verify.Options{Seed: 3}
			if tt.bug == slowAnswer {
				opts.Timeout = 200 * time.Millisecond
			}
			rep, err := verify.Run(context.Background(), []byte(providerSpec), srv.URL, opts)
			if err != nil {
				t.Fatal(err)
			}
			if tt.bug == noBug {
				for _, f := range rep.Failures {
					t.Errorf("a failure without a bug: %s\n%s", f, f.Curl)
				}
				if rep.Coverage != (verify.Coverage{Operations: 7, OperationsDeclared: 7, Statuses: 16, StatusesDeclared: 16, MediaTypes: 3, MediaTypesDeclared: 3}) {
					t.Errorf("coverage %s", rep.Coverage)
				}
				return
			}
			if len(rep.Failures) != 1 {
				for _, f := range rep.Failures {
					t.Log(f)
				}
				t.Fatalf("%d failures, want 1", len(rep.Failures))
			}
			f := rep.Failures[0]
			if f.Operation != tt.operation || f.Rule != tt.rule || f.Schema != tt.schema || !strings.Contains(f.Text, tt.text) {
				t.Errorf("found %s\nwant %s: %s (%s) with %q", f, tt.operation, tt.rule, tt.schema, tt.text)
			}
			path, _, _ := strings.Cut(strings.Fields(tt.operation)[1], "{")
			if !strings.HasPrefix(f.Curl, "curl -sS -i ") || !strings.Contains(f.Curl, srv.URL+path) {
				t.Errorf("curl line %q", f.Curl)
			}
		})
	}
}
