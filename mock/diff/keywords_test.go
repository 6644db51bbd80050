package diff_test

import (
	"fmt"
	"testing"
)

// TestApplicatorChanges changes the JSON Schema 2020-12 keywords that
// hold subschemas or conditions, and what a string holds, in Plant's
// property tags (an array) or in Plant itself, and holds each change to
// its rule, level and places. A keyword added refuses values (it breaks
// clients in requests, providers in responses); one that may go either
// way (not, if, contains with maxContains, a media type) breaks clients
// on both sides.
func TestApplicatorChanges(t *testing.T) {
	// Plant, an object at line 22, with tags, an array of strings at
	// line 25: its keywords from line 26 on.
	const plant = "      type: object\n      properties:\n        tags:\n          type: array\n          items:\n            type: string\n"
	const tags = "/components/schemas/Plant/properties/tags"
	const op = "POST /plants "
	with := func(extra string) string { return plant + extra }
	// both is a change told once a side: level in requests, then in
	// responses.
	both := func(rule, reqLevel, respLevel, old, new string) []string {
		return []string{
			op + "request-" + rule + " " + reqLevel + " request old=" + old + " new=" + new,
			op + "response-" + rule + " " + respLevel + " response old=" + old + " new=" + new,
		}
	}
	const contains = "          contains:\n            const: fern\n"
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		// Arrays without a fern are refused.
		{"contains added", plant, with(contains),
			both("property-contains-added", "breaks-clients", "breaks-providers", tags+":25", tags+"/contains:29")},
		// Arrays without a fern pass again: more.
		{"contains removed", with(contains), plant,
			both("property-contains-removed", "breaks-providers", "breaks-clients", tags+"/contains:29", tags+":25")},
		// Two ferns are needed where one was.
		{"minContains increased", with(contains), with(contains + "          minContains: 2\n"),
			both("property-min-contains-increased", "breaks-clients", "breaks-providers", tags+":25", tags+"/minContains:30")},
		// minContains is 1 when absent: 0 lets arrays without a fern pass,
		// more values (decreased, not added).
		{"minContains 0 written", with(contains), with(contains + "          minContains: 0\n"),
			both("property-min-contains-decreased", "breaks-providers", "breaks-clients", tags+":25", tags+"/minContains:30")},
		// minContains removed goes back to 1: one fern is enough again, more
		// (decreased, not removed).
		{"minContains removed", with(contains + "          minContains: 2\n"), with(contains),
			both("property-min-contains-decreased", "breaks-providers", "breaks-clients", tags+"/minContains:30", tags+":25")},
		// Three ferns are too many now: fewer.
		{"maxContains added", with(contains), with(contains + "          maxContains: 2\n"),
			both("property-max-contains-added", "breaks-clients", "breaks-providers", tags+":25", tags+"/maxContains:30")},
		// Any count of ferns passes again: more.
		{"maxContains removed", with(contains + "          maxContains: 2\n"), with(contains),
			both("property-max-contains-removed", "breaks-providers", "breaks-clients", tags+"/maxContains:30", tags+":25")},
		// Three ferns are too many where they were not: fewer.
		{"maxContains decreased", with(contains + "          maxContains: 3\n"), with(contains + "          maxContains: 2\n"),
			both("property-max-contains-decreased", "breaks-clients", "breaks-providers", tags+"/maxContains:30", tags+"/maxContains:30")},
		// Arrays with more ferns pass.
		{"maxContains increased", with(contains + "          maxContains: 2\n"), with(contains + "          maxContains: 3\n"),
			both("property-max-contains-increased", "breaks-providers", "breaks-clients", tags+"/maxContains:30", tags+"/maxContains:30")},
		// With maxContains, a wider contains may count too many items:
		// other values.
		{"contains changed under maxContains", with(contains + "          maxContains: 1\n"),
			with("          contains:\n            type: string\n          maxContains: 1\n"),
			both("property-contains-changed", "breaks-clients", "breaks-clients", tags+"/contains:29", tags+"/contains:29")},
		// Without maxContains, contains is walked: a const changed is other values.
		{"contains walked", with(contains), with("          contains:\n            const: moss\n"),
			both("property-const-changed", "breaks-clients", "breaks-clients", tags+"/contains/const:29", tags+"/contains/const:29")},
		// A name that must come with another refuses objects without it.
		{"dependentRequired added", plant, "      dependentRequired:\n        tags: [name]\n" + plant,
			both("body-dependent-required-added", "breaks-clients", "breaks-providers", "/components/schemas/Plant:22", "/components/schemas/Plant/dependentRequired:23")},
		// Objects with tags but no name pass again: more.
		{"dependentRequired removed", "      dependentRequired:\n        tags: [name]\n" + plant, plant,
			both("body-dependent-required-removed", "breaks-providers", "breaks-clients", "/components/schemas/Plant/dependentRequired:23", "/components/schemas/Plant:22")},
		// Objects with tags must have at most three properties now: fewer.
		{"dependentSchemas added", plant, "      dependentSchemas:\n        tags:\n          maxProperties: 3\n" + plant,
			both("body-dependent-schema-added", "breaks-clients", "breaks-providers", "/components/schemas/Plant:22", "/components/schemas/Plant/dependentSchemas:23")},
		// Objects with tags may have any count of properties again: more.
		{"dependentSchemas removed", "      dependentSchemas:\n        tags:\n          maxProperties: 3\n" + plant, plant,
			both("body-dependent-schema-removed", "breaks-providers", "breaks-clients", "/components/schemas/Plant/dependentSchemas:23", "/components/schemas/Plant:22")},
		// A dependent schema's bound is walked like a property's.
		{"dependentSchemas walked", "      dependentSchemas:\n        tags:\n          maxProperties: 3\n" + plant,
			"      dependentSchemas:\n        tags:\n          maxProperties: 2\n" + plant,
			both("property-max-properties-decreased", "breaks-clients", "breaks-providers",
				"/components/schemas/Plant/dependentSchemas/tags/maxProperties:24", "/components/schemas/Plant/dependentSchemas/tags/maxProperties:24")},
		// Properties named x-… must be strings now.
		{"patternProperties added", plant, "      patternProperties:\n        '^x-':\n          type: string\n" + plant,
			both("body-pattern-property-added", "breaks-clients", "breaks-providers", "/components/schemas/Plant:22", "/components/schemas/Plant/patternProperties:23")},
		// Properties named x-… may hold any value again: more.
		{"patternProperties removed", "      patternProperties:\n        '^x-':\n          type: string\n" + plant, plant,
			both("body-pattern-property-removed", "breaks-providers", "breaks-clients", "/components/schemas/Plant/patternProperties:23", "/components/schemas/Plant:22")},
		// Beside additionalProperties false, a pattern property also lets
		// through what it matches: other values.
		{"patternProperties added to a closed object", "      additionalProperties: false\n" + plant,
			"      additionalProperties: false\n      patternProperties:\n        '^x-':\n          type: string\n" + plant,
			both("body-pattern-property-added", "breaks-clients", "breaks-clients", "/components/schemas/Plant:22", "/components/schemas/Plant/patternProperties:24")},
		// Removed beside additionalProperties false, which now judges
		// what it matched: an x-… property OLD took is refused: other.
		{"patternProperties removed from a closed object", "      additionalProperties: false\n      patternProperties:\n        '^x-':\n          type: string\n" + plant,
			"      additionalProperties: false\n" + plant,
			both("body-pattern-property-removed", "breaks-clients", "breaks-clients", "/components/schemas/Plant/patternProperties:24", "/components/schemas/Plant:22")},
		// Property names must start with a lower-case letter.
		{"propertyNames added", plant, "      propertyNames:\n        pattern: '^[a-z]'\n" + plant,
			both("body-property-names-added", "breaks-clients", "breaks-providers", "/components/schemas/Plant:22", "/components/schemas/Plant/propertyNames:23")},
		// Any property name passes again: more.
		{"propertyNames removed", "      propertyNames:\n        pattern: '^[a-z]'\n" + plant, plant,
			both("body-property-names-removed", "breaks-providers", "breaks-clients", "/components/schemas/Plant/propertyNames:23", "/components/schemas/Plant:22")},
		// A condition added refuses what its branch refuses.
		{"if and then added", plant, "      if:\n        required: [tags]\n      then:\n        required: [name]\n" + plant,
			both("body-conditional-added", "breaks-clients", "breaks-providers", "/components/schemas/Plant:22", "/components/schemas/Plant/if:23")},
		// The condition removed takes what its branch refused: more.
		{"if and then removed", "      if:\n        required: [tags]\n      then:\n        required: [name]\n" + plant, plant,
			both("body-conditional-removed", "breaks-providers", "breaks-clients", "/components/schemas/Plant/if:23", "/components/schemas/Plant:22")},
		// Under the same if, then is walked.
		{"then walked", "      if:\n        required: [tags]\n      then:\n        maxProperties: 3\n" + plant,
			"      if:\n        required: [tags]\n      then:\n        maxProperties: 2\n" + plant,
			both("property-max-properties-decreased", "breaks-clients", "breaks-providers",
				"/components/schemas/Plant/then/maxProperties:25", "/components/schemas/Plant/then/maxProperties:25")},
		// Another if sends values to the other branch.
		{"if changed", "      if:\n        required: [tags]\n      then:\n        required: [name]\n" + plant,
			"      if:\n        required: [name]\n      then:\n        required: [name]\n" + plant,
			both("body-conditional-changed", "breaks-clients", "breaks-clients", "/components/schemas/Plant/if:23", "/components/schemas/Plant/if:23")},
		// A narrower not refuses less, a wider more: other values.
		{"not changed", "      not:\n        required: [tags, name]\n" + plant, "      not:\n        required: [tags]\n" + plant,
			both("body-not-changed", "breaks-clients", "breaks-clients", "/components/schemas/Plant/not:23", "/components/schemas/Plant/not:23")},
		// An example is no value refused: not is no other.
		{"an example of not changed", "      not:\n        required: [tags]\n        examples: [{tags: [a]}]\n" + plant,
			"      not:\n        required: [tags]\n        examples: [{tags: [b]}]\n" + plant, nil},
		// A not added refuses what it matches; removed, takes it again.
		{"not added", plant, "      not:\n        required: [tags]\n" + plant, []string{
			op + "request-body-not-added breaks-clients request old=/components/schemas/Plant:22 new=/components/schemas/Plant/not:23",
			op + "response-body-not-added breaks-providers response old=/components/schemas/Plant:22 new=/components/schemas/Plant/not:23",
		}},
		{"not removed", "      not:\n        required: [tags]\n" + plant, plant, []string{
			op + "request-body-not-removed breaks-providers request old=/components/schemas/Plant/not:23 new=/components/schemas/Plant:22",
			op + "response-body-not-removed breaks-clients response old=/components/schemas/Plant/not:23 new=/components/schemas/Plant:22",
		}},
		// Under the same if, a then added refuses what it refuses; an else
		// removed takes what it refused.
		{"then added", "      if:\n        required: [tags]\n      else:\n        required: [name]\n" + plant,
			"      if:\n        required: [tags]\n      then:\n        maxProperties: 2\n      else:\n        required: [name]\n" + plant, []string{
				op + "request-body-then-added breaks-clients request old=/components/schemas/Plant:22 new=/components/schemas/Plant/then:25",
				op + "response-body-then-added breaks-providers response old=/components/schemas/Plant:22 new=/components/schemas/Plant/then:25",
			}},
		// Under the same if, a then removed takes what it refused (more);
		// an else added refuses what it refuses (fewer).
		{"then removed", "      if:\n        required: [tags]\n      then:\n        maxProperties: 2\n      else:\n        required: [name]\n" + plant,
			"      if:\n        required: [tags]\n      else:\n        required: [name]\n" + plant, []string{
				op + "request-body-then-removed breaks-providers request old=/components/schemas/Plant/then:25 new=/components/schemas/Plant:22",
				op + "response-body-then-removed breaks-clients response old=/components/schemas/Plant/then:25 new=/components/schemas/Plant:22",
			}},
		{"else added", "      if:\n        required: [tags]\n      then:\n        maxProperties: 2\n" + plant,
			"      if:\n        required: [tags]\n      then:\n        maxProperties: 2\n      else:\n        required: [name]\n" + plant, []string{
				op + "request-body-else-added breaks-clients request old=/components/schemas/Plant:22 new=/components/schemas/Plant/else:27",
				op + "response-body-else-added breaks-providers response old=/components/schemas/Plant:22 new=/components/schemas/Plant/else:27",
			}},
		{"else removed", "      if:\n        required: [tags]\n      then:\n        maxProperties: 2\n      else:\n        required: [name]\n" + plant,
			"      if:\n        required: [tags]\n      then:\n        maxProperties: 2\n" + plant, []string{
				op + "request-body-else-removed breaks-providers request old=/components/schemas/Plant/else:27 new=/components/schemas/Plant:22",
				op + "response-body-else-removed breaks-clients response old=/components/schemas/Plant/else:27 new=/components/schemas/Plant:22",
			}},
		// Unevaluated properties are taken again.
		{"unevaluatedProperties removed", "      unevaluatedProperties: false\n" + plant, plant, []string{
			op + "request-body-unevaluated-properties-removed breaks-providers request old=/components/schemas/Plant/unevaluatedProperties:22 new=/components/schemas/Plant:22",
			op + "response-body-unevaluated-properties-removed breaks-clients response old=/components/schemas/Plant/unevaluatedProperties:22 new=/components/schemas/Plant:22",
		}},
		// Items no keyword evaluated are refused.
		{"unevaluatedItems added", "      type: array\n      prefixItems:\n        - type: string\n",
			"      type: array\n      prefixItems:\n        - type: string\n      unevaluatedItems: false\n", []string{
				op + "request-body-unevaluated-items-added breaks-clients request old=/components/schemas/Plant:22 new=/components/schemas/Plant/unevaluatedItems:25",
				op + "response-body-unevaluated-items-added breaks-providers response old=/components/schemas/Plant:22 new=/components/schemas/Plant/unevaluatedItems:25",
			}},
		// Items no keyword evaluated pass again: more.
		{"unevaluatedItems removed", "      type: array\n      prefixItems:\n        - type: string\n      unevaluatedItems: false\n",
			"      type: array\n      prefixItems:\n        - type: string\n", []string{
				op + "request-body-unevaluated-items-removed breaks-providers request old=/components/schemas/Plant/unevaluatedItems:25 new=/components/schemas/Plant:22",
				op + "response-body-unevaluated-items-removed breaks-clients response old=/components/schemas/Plant/unevaluatedItems:25 new=/components/schemas/Plant:22",
			}},
		// Beside items, which evaluates every item left, it refuses none.
		{"unevaluatedItems beside items", with(""), with("          unevaluatedItems: false\n"), nil},
		// What the string holds is held to a schema, or no longer.
		{"contentSchema added", "      type: string\n      contentMediaType: application/json\n",
			"      type: string\n      contentMediaType: application/json\n      contentSchema:\n        maxLength: 20\n", []string{
				op + "request-body-content-schema-added breaks-clients request old=/components/schemas/Plant:22 new=/components/schemas/Plant/contentSchema:25",
				op + "response-body-content-schema-added breaks-providers response old=/components/schemas/Plant:22 new=/components/schemas/Plant/contentSchema:25",
			}},
		{"contentSchema removed", "      type: string\n      contentMediaType: application/json\n      contentSchema:\n        maxLength: 20\n",
			"      type: string\n      contentMediaType: application/json\n", []string{
				op + "request-body-content-schema-removed breaks-providers request old=/components/schemas/Plant/contentSchema:25 new=/components/schemas/Plant:22",
				op + "response-body-content-schema-removed breaks-clients response old=/components/schemas/Plant/contentSchema:25 new=/components/schemas/Plant:22",
			}},
		// Properties no keyword evaluated are refused.
		{"unevaluatedProperties added", plant, "      unevaluatedProperties: false\n" + plant,
			both("body-unevaluated-properties-added", "breaks-clients", "breaks-providers", "/components/schemas/Plant:22", "/components/schemas/Plant/unevaluatedProperties:22")},
		// additionalProperties evaluates every property left: none is
		// left to unevaluatedProperties.
		{"unevaluatedProperties beside additionalProperties", "      additionalProperties: true\n" + plant,
			"      additionalProperties: true\n      unevaluatedProperties: false\n" + plant, nil},
		// A string of JSON becomes a string of text: written and read another way.
		{"contentMediaType changed", "      type: string\n      contentMediaType: application/json\n", "      type: string\n      contentMediaType: text/plain\n",
			both("body-content-media-type-changed", "breaks-clients", "breaks-clients", "/components/schemas/Plant/contentMediaType:23", "/components/schemas/Plant/contentMediaType:23")},
		// Base64 becomes quoted-printable.
		{"contentEncoding changed", "      type: string\n      contentEncoding: base64\n", "      type: string\n      contentEncoding: quoted-printable\n",
			both("body-content-encoding-changed", "breaks-clients", "breaks-clients", "/components/schemas/Plant/contentEncoding:23", "/components/schemas/Plant/contentEncoding:23")},
		// contentSchema is walked.
		{"contentSchema walked", "      type: string\n      contentSchema:\n        maxLength: 40\n", "      type: string\n      contentSchema:\n        maxLength: 20\n",
			both("property-max-length-decreased", "breaks-clients", "breaks-providers", "/components/schemas/Plant/contentSchema/maxLength:24", "/components/schemas/Plant/contentSchema/maxLength:24")},
		// A first item that must be an integer, where items said string.
		{"prefixItems added before items", plant, with("          prefixItems:\n            - type: integer\n"),
			both("property-type-changed", "breaks-clients", "breaks-clients", tags+"/items/type:27", tags+"/prefixItems/0/type:29")},
		// The first two items swap types.
		{"prefixItems reordered", "      type: array\n      prefixItems:\n        - type: string\n        - type: integer\n",
			"      type: array\n      prefixItems:\n        - type: integer\n        - type: string\n",
			[]string{
				op + "request-property-type-changed breaks-clients request old=/components/schemas/Plant/prefixItems/0/type:24 new=/components/schemas/Plant/prefixItems/0/type:24",
				op + "request-property-type-changed breaks-clients request old=/components/schemas/Plant/prefixItems/1/type:25 new=/components/schemas/Plant/prefixItems/1/type:25",
				op + "response-property-type-changed breaks-clients response old=/components/schemas/Plant/prefixItems/0/type:24 new=/components/schemas/Plant/prefixItems/0/type:24",
				op + "response-property-type-changed breaks-clients response old=/components/schemas/Plant/prefixItems/1/type:25 new=/components/schemas/Plant/prefixItems/1/type:25",
			}},
		// A required name no property declares is compared too.
		{"required name added", plant, edit(t, plant, "type: object\n", "type: object\n      required: [name]\n"),
			both("body-required-added", "breaks-clients", "breaks-providers", "/components/schemas/Plant:22", "/components/schemas/Plant/required:23")},
		// items false: no array with an item passes.
		{"items became false", edit(t, plant, "          items:\n            type: string\n", ""),
			edit(t, plant, "          items:\n            type: string\n", "          items: false\n"),
			both("property-schema-became-false", "breaks-clients", "breaks-providers", "-", tags+"/items:26")},
		// items no longer false: arrays with items pass again, more; only
		// OLD has the keyword, as only NEW has it when it became false.
		{"items no longer false", edit(t, plant, "          items:\n            type: string\n", "          items: false\n"),
			edit(t, plant, "          items:\n            type: string\n", ""),
			both("property-schema-no-longer-false", "breaks-providers", "breaks-clients", tags+"/items:26", "-")},
		// maxLength beside type object: no string reaches it.
		{"maxLength of an object", with("      maxLength: 10\n"), with("      maxLength: 5\n"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, compare(t, fmt.Sprintf(plants, "3.1.0", tt.old), fmt.Sprintf(plants, "3.1.0", tt.new)), tt.want)
		})
	}
}
