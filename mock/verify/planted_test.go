package verify_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/verify"
	"github.com/plantmock/plantmock/mock/verify/internal/planted"
)

// TestPlantedBugs verifies, at each seed from 1 to 20, a provider built
// with one contract bug at a time (ten kinds the issue names, a slow answer, a valid value
// refused, an enum value refused that only a request per enum value
// surely finds, and three that only sequences find: a list without
// the item just created, an update not applied, a repeated identifier
// accepted): verify must report that bug, once, and nothing else (the
// leaked writeOnly field as advice, the others as failures); built
// without a bug, it must report nothing.
func TestPlantedBugs(t *testing.T) {
	tests := []struct {
		bug    planted.Bug
		rule   string
		schema string // the failure's schema pointer, "" for none
		text   string // a part of the failure's text
	}{
		{planted.None, "", "", ""},
		{planted.UndeclaredStatus, "status", "", "status 203 is not declared"},
		{planted.MissingRequired, "body", "#/components/schemas/Item/required", "kind"},
		{planted.WrongType, "body", "#/components/schemas/Item/properties/id/type", "[0].id"},
		{planted.LeakedWriteOnly, "writeOnly advice", "#/components/schemas/Item/properties/secret/writeOnly", "secret"},
		{planted.Boundary500, "5xx", "", "500 index out of range"},
		{planted.MissingLocation, "header", "", "header.Location: required header is missing"},
		{planted.AcceptedEnum, "accepted invalid input", "#/components/schemas/Item/properties/kind/enum", "status 201"},
		{planted.IgnoredHeader, "accepted invalid input", "", "header.X-Tenant"},
		{planted.WrongErrorShape, "error shape", "#/components/schemas/Error/required", "status 400"},
		{planted.ReadDisagrees, "state", "#/components/schemas/Item/properties/name", "(copy)\"; it was created with"},
		{planted.RefusedValid, "valid input refused", "", "status 400 to a request the document calls valid"},
		{planted.SlowAnswer, "timeout", "", "no answer within 200ms"},
		{planted.ListOmits, "state", "#/paths/~1items/get/responses/200/content/application~1json/schema", "the list does not hold the item just created (id "},
		{planted.UpdateIgnored, "state", "#/components/schemas/Item/properties/name", "it was updated by PUT with"},
		{planted.DuplicateCreated, "state", "#/components/schemas/Tag/properties/name", "status 201: a create that repeats name"},
		{planted.EnumRefused, "valid input refused", "", "kind seed is not taken yet"},
	}
	if len(tests) != len(planted.Bugs())+1 {
		t.Fatalf("%d cases for %d bugs and none", len(tests), len(planted.Bugs()))
	}
	for seed := uint64(1); seed <= 20; seed++ {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("seed %d/%s", seed, tt.bug), func(t *testing.T) {
				plantedRun(t, seed, tt.bug, tt.rule, tt.schema, tt.text)
			})
		}
	}
}

// plantedRun verifies the planted provider built with bug at seed: it
// must report that bug (by rule, schema pointer and a part of its
// text), once, and nothing else; built without a bug, nothing. A rule
// that is advice (wantRule ends in " advice") is found as one advice
// and no failure; any other as one failure and no advice.
func plantedRun(t *testing.T, seed uint64, bug planted.Bug, wantRule, schema, text string) {
	t.Helper()
	p := planted.New(bug)
	srv := httptest.NewServer(p)
	defer srv.Close()
	defer p.Close()
	opts := verify.Options{Seed: seed}
	if bug == planted.SlowAnswer {
		opts.Timeout = 200 * time.Millisecond
	}
	rep, err := verify.Run(context.Background(), planted.Spec(), srv.URL, opts)
	if err != nil {
		t.Fatal(err)
	}
	if bug == planted.None {
		for _, f := range append(rep.Failures, rep.Advice...) {
			t.Errorf("a problem without a bug: %s\n%s", f, f.Curl)
		}
		if rep.Coverage != (verify.Coverage{Operations: 7, OperationsDeclared: 7, Statuses: 16, StatusesDeclared: 16, MediaTypes: 3, MediaTypesDeclared: 3}) {
			t.Errorf("coverage %s", rep.Coverage)
		}
		return
	}
	found, other := rep.Failures, rep.Advice
	rule, advice := strings.CutSuffix(wantRule, " advice")
	if advice {
		found, other = rep.Advice, rep.Failures
	}
	if len(found) != 1 || len(other) != 0 {
		for _, f := range append(found, other...) {
			t.Log(f)
		}
		t.Fatalf("%d found, %d of the other strength; want 1 and 0", len(found), len(other))
	}
	f := found[0]
	if f.Operation != bug.Operation() || f.Rule != rule || f.Schema != schema || !strings.Contains(f.Text, text) {
		t.Errorf("found %s\nwant %s: %s (%s) with %q", f, bug.Operation(), wantRule, schema, text)
	}
	path, _, _ := strings.Cut(strings.Fields(bug.Operation())[1], "{")
	if !strings.HasPrefix(f.Curl, "curl -sS -i ") || !strings.Contains(f.Curl, srv.URL+path) {
		t.Errorf("curl line %q", f.Curl)
	}
}
