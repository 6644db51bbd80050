package verify_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
	"github.com/plantmock/plantmock/mock/verify/internal/shop"
)

// TestShop verifies, at each seed from 1 to 20, the shop of package
// shop, a service written apart from the planted provider, from another
// document: built without a bug it gets no failure (only advice: the
// formats it does not check), and the checks that reach below the top
// level of its bodies and read its list page by page are sent (and
// advice for the 404 it answers to a method a path does not declare); built
// with each bug, verify finds it: a failure by the rule and where the
// document states it, on the bug's operation. An invalid value the shop
// takes is answered again by its list, so a bug of the create may show
// in GET /orders too; nowhere else.
func TestShop(t *testing.T) {
	const (
		order = "#/components/schemas/Order/properties/"
		data  = "#/paths/~1orders/get/responses/200/content/application~1json/schema/properties/data"
	)
	tests := []struct {
		bug    shop.Bug
		rule   string
		schema string // a part of the failure's schema pointer
		also   []string
	}{
		{shop.PostcodeUnchecked, "accepted invalid input", order + "customer/properties/address/properties/postcode/pattern", []string{"GET /orders"}},
		{shop.QuantityUnbounded, "accepted invalid input", order + "lines/items/properties/quantity/", []string{"GET /orders"}},
		{shop.PaymentUnchecked, "accepted invalid input", order + "payment/oneOf/", []string{"GET /orders"}},
		{shop.PageLost, "state", data, nil},
		{shop.CityDropped, "body", order + "customer/properties/address/required", nil},
		{shop.QuantityAsText, "body", order + "lines/items/properties/quantity/type", nil},
		{shop.FilterUnchecked, "accepted invalid input", "#/paths/~1orders/get/parameters/1/schema/properties/min_lines/", nil},
		{shop.TagUnchecked, "accepted invalid input", order + "tags/items/pattern", []string{"GET /orders"}},
	}
	if len(tests) != len(shop.Bugs()) {
		t.Fatalf("%d cases for %d bugs", len(tests), len(shop.Bugs()))
	}
	// sent are the checks every run without a bug must send: below the
	// top level of the body, and the list read past its first page.
	sent := []string{
		"POST /orders negative: missing required property customer.name (nested)",
		"POST /orders negative: wrong type of lines[0].sku (in an array item)",
		"POST /orders negative: property customer.address.postcode breaking its pattern (nested)",
		"POST /orders negative: property lines[0].quantity out of range (in an array item)",
		"GET /orders stateful: list after create, page 2",
		"GET /orders negative: parameter query.filter.min_lines out of range (deepObject, exploded)",
		"GET /orders negative: value of parameter query.filter.channel outside its enum (deepObject, exploded)",
		"POST /orders negative: item tags[0] breaking its pattern (a scalar array item)",
	}
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprintf("seed %d/no bug", seed), func(t *testing.T) {
			rep := runShop(t, shop.None, seed)
			for _, f := range rep.Failures {
				t.Errorf("a failure without a bug: %s\n%s", f, f.Curl)
			}
			for _, f := range rep.Advice {
				// The shop answers 404 to a method a path does not
				// declare, as many services do: advice.
				if !strings.HasSuffix(f.Schema, "/format") && !(f.Rule == "unsupported method" && strings.HasPrefix(f.Text, "status 404 to PATCH /orders")) {
					t.Errorf("advice that is not a format: %s", f)
				}
			}
			titles := map[string]bool{}
			for _, c := range rep.Checks {
				titles[c.Operation+" "+c.Title()] = true
			}
			for _, want := range sent {
				if !titles[want] {
					t.Errorf("no check %q", want)
				}
			}
			if !slices.ContainsFunc(rep.Checks, func(c *verify.Check) bool { return strings.HasSuffix(c.Name, "(in an alternative)") }) {
				t.Errorf("no check in a oneOf alternative")
			}
		})
		for _, tt := range tests {
			t.Run(fmt.Sprintf("seed %d/%s", seed, tt.bug.Name()), func(t *testing.T) {
				rep := runShop(t, tt.bug, seed)
				found := false
				for _, f := range rep.Failures {
					if f.Operation == tt.bug.Operation() && f.Rule == tt.rule && strings.Contains(f.Schema, tt.schema) {
						found = true
					}
					if f.Operation != tt.bug.Operation() && !slices.Contains(tt.also, f.Operation) {
						t.Errorf("a failure elsewhere: %s", f)
					}
				}
				if !found {
					for _, f := range rep.Failures {
						t.Log(f)
					}
					t.Errorf("not found: want %s: %s (%s...)", tt.bug.Operation(), tt.rule, tt.schema)
				}
			})
		}
	}
}

// runShop verifies the shop built with bug at seed.
func runShop(t *testing.T, bug shop.Bug, seed uint64) *verify.Report {
	t.Helper()
	srv := httptest.NewServer(shop.New(bug))
	defer srv.Close()
	rep, err := verify.Run(context.Background(), shop.Spec(), srv.URL, verify.Options{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Unmade) > 0 {
		t.Errorf("unmade: %q", rep.Unmade)
	}
	return rep
}
