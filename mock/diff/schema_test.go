package diff_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/diff"
)

// plants is a document whose POST /plants takes and answers a Plant,
// the schema at line 22 on; its openapi field is the first %s, Plant's
// keywords (indented six spaces) the second.
const plants = `openapi: %s
info: {title: Plants, version: "1"}
paths:
  /plants:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Plant'
      responses:
        "201":
          description: made
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Plant'
components:
  schemas:
    Plant:
%s`

// show writes a change on one line, as the tables want it.
func show(c diff.Change) string {
	where := func(l *diff.Location) string {
		if l == nil {
			return "-"
		}
		return fmt.Sprintf("%s:%d", l.Pointer, l.Line)
	}
	s := fmt.Sprintf("%s %s %s old=%s new=%s", c.Rule, c.Level, c.Side, where(c.Old), where(c.New))
	if c.Operation != "" {
		s = c.Operation + " " + s
	}
	return s
}

// compare runs diff.Compare and shows its changes.
func compare(t *testing.T, old, new string) []string {
	t.Helper()
	return compareBy(t, old, new, show)
}

// reasons runs diff.Compare and returns its changes' reasons.
func reasons(t *testing.T, old, new string) []string {
	t.Helper()
	return compareBy(t, old, new, func(c diff.Change) string { return c.Reason })
}

// compareBy runs diff.Compare and writes each change as line does.
func compareBy(t *testing.T, old, new string, line func(diff.Change) string) []string {
	t.Helper()
	r, err := diff.Compare([]byte(old), []byte(new))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range r.Changes {
		out = append(out, line(c))
	}
	return out
}

// edit returns doc with the first old replaced by new, failing the test
// when old is not in doc: a case that edits nothing passes for no
// reason. An empty old edits nothing, on purpose.
func edit(t *testing.T, doc, old, new string) string {
	t.Helper()
	if old != "" && !strings.Contains(doc, old) {
		t.Fatalf("the case edits nothing: %q is not in the document", old)
	}
	return strings.Replace(doc, old, new, 1)
}

// check compares got with want, line by line.
func check(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const name = "/components/schemas/Plant/properties/name"

// TestSchemaChanges changes Plant, which POST /plants takes and answers,
// and holds each change to its rule, level and places: the request's
// change first (a request that accepts less breaks clients, more breaks
// providers), then the response's (one that allows more breaks clients,
// less breaks providers). Each case says why in a line.
func TestSchemaChanges(t *testing.T) {
	// Plant with name of type string, bounded at 40 characters: name at
	// line 25, its keywords at 26 and 27.
	const plant = "      type: object\n      required: [name]\n      properties:\n        name:\n          type: string\n          maxLength: 40\n"
	with := func(old, new string) string { return edit(t, plant, old, new) }
	// of is Plant with name of type typ and the keywords kws in place of
	// type string and maxLength: type at line 26, kws from 27 on.
	of := func(typ string, kws ...string) string {
		return with("type: string\n          maxLength: 40", "type: "+typ+strings.Join(append([]string{""}, kws...), "\n          "))
	}
	op := "POST /plants "
	both := func(rule, reqLevel, respLevel, old, new string) []string {
		return []string{
			op + "request-" + rule + " " + reqLevel + " request old=" + old + " new=" + new,
			op + "response-" + rule + " " + respLevel + " response old=" + old + " new=" + new,
		}
	}
	tests := []struct {
		name     string
		old, new string // the openapi fields
		oldPlant string
		newPlant string
		want     []string
	}{
		{"unchanged", "3.0.3", "3.0.3", plant, plant, nil},
		// A tighter bound refuses requests OLD took; answers are only fewer.
		{"max length decreased", "3.0.3", "3.0.3", plant, with("maxLength: 40", "maxLength: 20"),
			both("property-max-length-decreased", "breaks-clients", "breaks-providers", name+"/maxLength:27", name+"/maxLength:27")},
		// A looser bound: a provider of OLD refuses long names, and clients may get them.
		{"max length increased", "3.1.0", "3.1.0", plant, with("maxLength: 40", "maxLength: 80"),
			both("property-max-length-increased", "breaks-providers", "breaks-clients", name+"/maxLength:27", name+"/maxLength:27")},
		// A bound where there was none: OLD's place is the schema, NEW's the keyword.
		{"min length added", "3.0.3", "3.2.0", plant, with("maxLength: 40", "maxLength: 40\n          minLength: 2"),
			both("property-min-length-added", "breaks-clients", "breaks-providers", name+":26", name+"/minLength:28")},
		// A bound removed accepts more.
		{"max length removed", "3.1.0", "3.0.3", plant, with("          maxLength: 40\n", ""),
			both("property-max-length-removed", "breaks-providers", "breaks-clients", name+"/maxLength:27", name+":26")},
		// An enum value removed refuses requests that sent it.
		{"enum value removed", "3.0.3", "3.0.3", with("maxLength: 40", "enum: [fern, moss]"), with("maxLength: 40", "enum: [fern]"),
			both("property-enum-value-removed", "breaks-clients", "breaks-providers", name+"/enum:27", name+"/enum:27")},
		// An enum value added reaches clients that switch on the values.
		{"enum value added", "3.1.0", "3.1.0", with("maxLength: 40", "enum: [fern]"), with("maxLength: 40", "enum: [fern, moss]"),
			both("property-enum-value-added", "breaks-providers", "breaks-clients", name+"/enum:27", name+"/enum:27")},
		// A new required property: clients of OLD do not send it; providers of OLD do not answer it.
		{"required property added", "3.0.3", "3.0.3", plant, with("required: [name]", "required: [name, kind]") + "        kind:\n          type: string\n",
			[]string{
				op + "request-required-property-added breaks-clients request old=- new=/components/schemas/Plant/properties/kind:29",
				op + "response-required-property-added breaks-providers response old=- new=/components/schemas/Plant/properties/kind:29",
			}},
		// An optional property added to an open object: OLD's clients neither send nor read it.
		{"optional property added", "3.0.3", "3.0.3", plant, plant + "        kind:\n          type: string\n",
			[]string{
				op + "request-property-added compatible request old=- new=/components/schemas/Plant/properties/kind:29",
				op + "response-property-added compatible response old=- new=/components/schemas/Plant/properties/kind:29",
			}},
		// A property removed from an open object: clients that read it lose it.
		{"property removed", "3.0.3", "3.0.3", plant + "        kind:\n          type: string\n", plant,
			[]string{
				op + "request-property-removed breaks-providers request old=/components/schemas/Plant/properties/kind:29 new=-",
				op + "response-property-removed breaks-clients response old=/components/schemas/Plant/properties/kind:29 new=-",
			}},
		// No longer required: answers may leave it out.
		{"required removed", "3.0.3", "3.0.3", plant, with("required: [name]", "required: []"),
			both("property-became-optional", "breaks-providers", "breaks-clients", "/components/schemas/Plant/required:23", "/components/schemas/Plant/required:23")},
		// integer to number accepts 1.5 too.
		{"type widened", "3.0.3", "3.0.3", with("type: string\n          maxLength: 40", "type: integer"), with("type: string\n          maxLength: 40", "type: number"),
			both("property-type-widened", "breaks-providers", "breaks-clients", name+"/type:26", name+"/type:26")},
		// string to integer: neither holds the other.
		{"type changed", "3.0.3", "3.0.3", plant, with("type: string", "type: integer"),
			both("property-type-changed", "breaks-clients", "breaks-clients", name+"/type:26", name+"/type:26")},
		// 3.0's nullable added: null is one more value.
		{"nullable added in 3.0", "3.0.3", "3.0.3", plant, with("maxLength: 40", "maxLength: 40\n          nullable: true"),
			both("property-nullable-added", "breaks-providers", "breaks-clients", name+"/type:26", name+"/nullable:28")},
		// 3.1's null type removed: null is refused.
		{"null type removed in 3.1", "3.1.0", "3.1.0", with("type: string", `type: [string, "null"]`), plant,
			both("property-nullable-removed", "breaks-clients", "breaks-providers", name+"/type:26", name+"/type:26")},
		// 3.0's nullable and 3.1's null type are the same values.
		{"nullable from 3.0 to 3.1", "3.0.3", "3.1.0", with("maxLength: 40", "maxLength: 40\n          nullable: true"), with("type: string", `type: [string, "null"]`), nil},
		// 3.0's exclusiveMinimum flag and 3.1's number are the same bound.
		{"exclusive minimum from 3.0 to 3.2", "3.0.3", "3.2.0",
			with("type: string\n          maxLength: 40", "type: number\n          minimum: 0\n          exclusiveMinimum: true"),
			with("type: string\n          maxLength: 40", "type: number\n          exclusiveMinimum: 0"), nil},
		// Made exclusive at the same value: 0 is refused.
		{"minimum made exclusive", "3.1.0", "3.1.0", with("type: string\n          maxLength: 40", "type: number\n          minimum: 0"),
			with("type: string\n          maxLength: 40", "type: number\n          exclusiveMinimum: 0"),
			both("property-minimum-increased", "breaks-clients", "breaks-providers", name+"/minimum:27", name+"/exclusiveMinimum:27")},
		// 3.0's flag alone makes the bound exclusive: 100 is refused,
		// fewer; the keyword changed is the flag.
		{"maximum made exclusive in 3.0", "3.0.3", "3.0.3", of("number", "maximum: 100"), of("number", "maximum: 100", "exclusiveMaximum: true"),
			both("property-maximum-decreased", "breaks-clients", "breaks-providers", name+"/maximum:27", name+"/exclusiveMaximum:28")},
		// The flag removed: 0 is taken again, more.
		{"minimum made inclusive in 3.0", "3.0.3", "3.0.3", of("number", "minimum: 0", "exclusiveMinimum: true"), of("number", "minimum: 0"),
			both("property-minimum-decreased", "breaks-providers", "breaks-clients", name+"/exclusiveMinimum:28", name+"/minimum:27")},
		// A changed pattern may refuse what the old one took, either way.
		{"pattern changed", "3.0.3", "3.0.3", with("maxLength: 40", "pattern: '^[a-z]+$'"), with("maxLength: 40", "pattern: '^[a-z ]+$'"),
			both("property-pattern-changed", "breaks-clients", "breaks-clients", name+"/pattern:27", name+"/pattern:27")},
		// additionalProperties false refuses properties OLD let through.
		{"additional properties forbidden", "3.0.3", "3.0.3", plant, with("required: [name]", "required: [name]\n      additionalProperties: false"),
			both("body-additional-properties-forbidden", "breaks-clients", "breaks-providers", "/components/schemas/Plant:22", "/components/schemas/Plant/additionalProperties:24")},
		// Another format: other strings.
		{"format changed", "3.0.3", "3.0.3", with("maxLength: 40", "maxLength: 40\n          format: uuid"), with("maxLength: 40", "maxLength: 40\n          format: email"), []string{
			op + "request-property-format-changed breaks-clients request old=/components/schemas/Plant/properties/name/format:28 new=/components/schemas/Plant/properties/name/format:28",
			op + "response-property-format-changed breaks-clients response old=/components/schemas/Plant/properties/name/format:28 new=/components/schemas/Plant/properties/name/format:28",
		}},
		// A format removed takes strings OLD refused.
		{"format removed", "3.0.3", "3.0.3", with("maxLength: 40", "maxLength: 40\n          format: uuid"), plant, []string{
			op + "request-property-format-removed breaks-providers request old=/components/schemas/Plant/properties/name/format:28 new=/components/schemas/Plant/properties/name:26",
			op + "response-property-format-removed breaks-clients response old=/components/schemas/Plant/properties/name/format:28 new=/components/schemas/Plant/properties/name:26",
		}},
		// A format added may refuse strings OLD took.
		{"format added", "3.0.3", "3.0.3", plant, with("maxLength: 40", "maxLength: 40\n          format: uuid"),
			both("property-format-added", "breaks-clients", "breaks-providers", name+":26", name+"/format:28")},
		// A multipleOf that is a multiple of the old one accepts fewer values.
		{"multiple of changed", "3.0.3", "3.0.3", with("type: string\n          maxLength: 40", "type: number\n          multipleOf: 2"),
			with("type: string\n          maxLength: 40", "type: number\n          multipleOf: 4"),
			both("property-multiple-of-changed", "breaks-clients", "breaks-providers", name+"/multipleOf:27", name+"/multipleOf:27")},
		// number to integer refuses 1.5: fewer values.
		{"type narrowed", "3.0.3", "3.0.3", of("number"), of("integer"),
			both("property-type-narrowed", "breaks-clients", "breaks-providers", name+"/type:26", name+"/type:26")},
		// An enum where there was none refuses the other strings: fewer.
		{"enum added", "3.0.3", "3.0.3", plant, with("maxLength: 40", "maxLength: 40\n          enum: [fern, moss]"),
			both("property-enum-added", "breaks-clients", "breaks-providers", name+":26", name+"/enum:28")},
		// A const where there was none refuses every other string: fewer.
		{"const added", "3.1.0", "3.1.0", plant, with("maxLength: 40", "maxLength: 40\n          const: fern"),
			both("property-const-added", "breaks-clients", "breaks-providers", name+":26", name+"/const:28")},
		// A const removed takes every string again: more.
		{"const removed", "3.1.0", "3.1.0", with("maxLength: 40", "maxLength: 40\n          const: fern"), plant,
			both("property-const-removed", "breaks-providers", "breaks-clients", name+"/const:28", name+":26")},
		// A lower bound where there was none refuses -1: fewer.
		{"minimum added", "3.0.3", "3.0.3", of("number"), of("number", "minimum: 0"),
			both("property-minimum-added", "breaks-clients", "breaks-providers", name+":26", name+"/minimum:27")},
		// The lower bound removed takes -1 again: more.
		{"minimum removed", "3.0.3", "3.0.3", of("number", "minimum: 0"), of("number"),
			both("property-minimum-removed", "breaks-providers", "breaks-clients", name+"/minimum:27", name+":26")},
		// A lower minimum takes -5 too: more.
		{"minimum decreased", "3.0.3", "3.0.3", of("number", "minimum: 0"), of("number", "minimum: -10"),
			both("property-minimum-decreased", "breaks-providers", "breaks-clients", name+"/minimum:27", name+"/minimum:27")},
		// An upper bound where there was none refuses 101: fewer.
		{"maximum added", "3.0.3", "3.0.3", of("number"), of("number", "maximum: 100"),
			both("property-maximum-added", "breaks-clients", "breaks-providers", name+":26", name+"/maximum:27")},
		// The upper bound removed takes 101 again: more.
		{"maximum removed", "3.0.3", "3.0.3", of("number", "maximum: 100"), of("number"),
			both("property-maximum-removed", "breaks-providers", "breaks-clients", name+"/maximum:27", name+":26")},
		// A higher maximum takes 150 too: more.
		{"maximum increased", "3.0.3", "3.0.3", of("number", "maximum: 100"), of("number", "maximum: 200"),
			both("property-maximum-increased", "breaks-providers", "breaks-clients", name+"/maximum:27", name+"/maximum:27")},
		// A lower maximum refuses 75: fewer.
		{"maximum decreased", "3.0.3", "3.0.3", of("number", "maximum: 100"), of("number", "maximum: 50"),
			both("property-maximum-decreased", "breaks-clients", "breaks-providers", name+"/maximum:27", name+"/maximum:27")},
		// Without minLength, "a" is taken again: more.
		{"min length removed", "3.0.3", "3.0.3", with("maxLength: 40", "maxLength: 40\n          minLength: 2"), plant,
			both("property-min-length-removed", "breaks-providers", "breaks-clients", name+"/minLength:28", name+":26")},
		// A longer minimum refuses "ivy": fewer.
		{"min length increased", "3.0.3", "3.0.3", with("maxLength: 40", "maxLength: 40\n          minLength: 2"),
			with("maxLength: 40", "maxLength: 40\n          minLength: 5"),
			both("property-min-length-increased", "breaks-clients", "breaks-providers", name+"/minLength:28", name+"/minLength:28")},
		// A shorter minimum takes "a" too: more.
		{"min length decreased", "3.0.3", "3.0.3", with("maxLength: 40", "maxLength: 40\n          minLength: 2"),
			with("maxLength: 40", "maxLength: 40\n          minLength: 1"),
			both("property-min-length-decreased", "breaks-providers", "breaks-clients", name+"/minLength:28", name+"/minLength:28")},
		// Without minItems, [] is taken again: more.
		{"min items removed", "3.0.3", "3.0.3", of("array", "minItems: 1"), of("array"),
			both("property-min-items-removed", "breaks-providers", "breaks-clients", name+"/minItems:27", name+":26")},
		// Two items are needed where one was: fewer.
		{"min items increased", "3.0.3", "3.0.3", of("array", "minItems: 1"), of("array", "minItems: 2"),
			both("property-min-items-increased", "breaks-clients", "breaks-providers", name+"/minItems:27", name+"/minItems:27")},
		// One item is enough where two were needed: more.
		{"min items decreased", "3.0.3", "3.0.3", of("array", "minItems: 2"), of("array", "minItems: 1"),
			both("property-min-items-decreased", "breaks-providers", "breaks-clients", name+"/minItems:27", name+"/minItems:27")},
		// At most five items, where any count was taken: fewer.
		{"max items added", "3.0.3", "3.0.3", of("array"), of("array", "maxItems: 5"),
			both("property-max-items-added", "breaks-clients", "breaks-providers", name+":26", name+"/maxItems:27")},
		// Without maxItems, six items are taken again: more.
		{"max items removed", "3.0.3", "3.0.3", of("array", "maxItems: 5"), of("array"),
			both("property-max-items-removed", "breaks-providers", "breaks-clients", name+"/maxItems:27", name+":26")},
		// Ten items fit where five did: more.
		{"max items increased", "3.0.3", "3.0.3", of("array", "maxItems: 5"), of("array", "maxItems: 10"),
			both("property-max-items-increased", "breaks-providers", "breaks-clients", name+"/maxItems:27", name+"/maxItems:27")},
		// Four items are too many now: fewer.
		{"max items decreased", "3.0.3", "3.0.3", of("array", "maxItems: 5"), of("array", "maxItems: 3"),
			both("property-max-items-decreased", "breaks-clients", "breaks-providers", name+"/maxItems:27", name+"/maxItems:27")},
		// An empty object is refused now: fewer.
		{"min properties added", "3.0.3", "3.0.3", of("object"), of("object", "minProperties: 1"),
			both("property-min-properties-added", "breaks-clients", "breaks-providers", name+":26", name+"/minProperties:27")},
		// An empty object is taken again: more.
		{"min properties removed", "3.0.3", "3.0.3", of("object", "minProperties: 1"), of("object"),
			both("property-min-properties-removed", "breaks-providers", "breaks-clients", name+"/minProperties:27", name+":26")},
		// One property is too few now: fewer.
		{"min properties increased", "3.0.3", "3.0.3", of("object", "minProperties: 1"), of("object", "minProperties: 2"),
			both("property-min-properties-increased", "breaks-clients", "breaks-providers", name+"/minProperties:27", name+"/minProperties:27")},
		// One property is enough now: more.
		{"min properties decreased", "3.0.3", "3.0.3", of("object", "minProperties: 2"), of("object", "minProperties: 1"),
			both("property-min-properties-decreased", "breaks-providers", "breaks-clients", name+"/minProperties:27", name+"/minProperties:27")},
		// Four properties are too many now: fewer.
		{"max properties added", "3.0.3", "3.0.3", of("object"), of("object", "maxProperties: 3"),
			both("property-max-properties-added", "breaks-clients", "breaks-providers", name+":26", name+"/maxProperties:27")},
		// Four properties are taken again: more.
		{"max properties removed", "3.0.3", "3.0.3", of("object", "maxProperties: 3"), of("object"),
			both("property-max-properties-removed", "breaks-providers", "breaks-clients", name+"/maxProperties:27", name+":26")},
		// Five properties fit where three did: more.
		{"max properties increased", "3.0.3", "3.0.3", of("object", "maxProperties: 3"), of("object", "maxProperties: 5"),
			both("property-max-properties-increased", "breaks-providers", "breaks-clients", name+"/maxProperties:27", name+"/maxProperties:27")},
		// Odd numbers are refused now: fewer.
		{"multiple of added", "3.0.3", "3.0.3", of("number"), of("number", "multipleOf: 2"),
			both("property-multiple-of-added", "breaks-clients", "breaks-providers", name+":26", name+"/multipleOf:27")},
		// Odd numbers are taken again: more.
		{"multiple of removed", "3.0.3", "3.0.3", of("number", "multipleOf: 2"), of("number"),
			both("property-multiple-of-removed", "breaks-providers", "breaks-clients", name+"/multipleOf:27", name+":26")},
		// A pattern where there was none refuses "Fern": fewer.
		{"pattern added", "3.0.3", "3.0.3", plant, with("maxLength: 40", "maxLength: 40\n          pattern: '^[a-z]+$'"),
			both("property-pattern-added", "breaks-clients", "breaks-providers", name+":26", name+"/pattern:28")},
		// The pattern removed takes "Fern" again: more.
		{"pattern removed", "3.0.3", "3.0.3", with("maxLength: 40", "maxLength: 40\n          pattern: '^[a-z]+$'"), plant,
			both("property-pattern-removed", "breaks-providers", "breaks-clients", name+"/pattern:28", name+":26")},
		// uniqueItems refuses [a, a]: fewer.
		{"unique items added", "3.0.3", "3.0.3", of("array"), of("array", "uniqueItems: true"),
			both("property-unique-items-added", "breaks-clients", "breaks-providers", name+":26", name+"/uniqueItems:27")},
		// Without uniqueItems, [a, a] is taken again: more.
		{"unique items removed", "3.0.3", "3.0.3", of("array", "uniqueItems: true"), of("array"),
			both("property-unique-items-removed", "breaks-providers", "breaks-clients", name+"/uniqueItems:27", name+":26")},
		// Properties besides name are taken again: more.
		{"additional properties allowed", "3.0.3", "3.0.3", with("required: [name]", "required: [name]\n      additionalProperties: false"), plant,
			both("body-additional-properties-allowed", "breaks-providers", "breaks-clients", "/components/schemas/Plant/additionalProperties:24", "/components/schemas/Plant:22")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, compare(t, fmt.Sprintf(plants, tt.old, tt.oldPlant), fmt.Sprintf(plants, tt.new, tt.newPlant)), tt.want)
		})
	}
}

// TestRecursiveSchema changes a bound of a schema that contains itself:
// the walk ends, and the change is told once a side.
func TestRecursiveSchema(t *testing.T) {
	const plant = "      type: object\n      properties:\n        name:\n          type: string\n          maxLength: 40\n        children:\n          type: array\n          items:\n            $ref: '#/components/schemas/Plant'\n"
	got := compare(t, fmt.Sprintf(plants, "3.1.0", plant), fmt.Sprintf(plants, "3.1.0", strings.Replace(plant, "maxLength: 40", "maxLength: 20", 1)))
	check(t, got, []string{
		"POST /plants request-property-max-length-decreased breaks-clients request old=/components/schemas/Plant/properties/name/maxLength:26 new=/components/schemas/Plant/properties/name/maxLength:26",
		"POST /plants response-property-max-length-decreased breaks-providers response old=/components/schemas/Plant/properties/name/maxLength:26 new=/components/schemas/Plant/properties/name/maxLength:26",
	})
}

// TestReasons holds a change's reason to the sentence it says: the
// subject with its media type and property, what changed, what it does.
func TestReasons(t *testing.T) {
	const plant = "      type: object\n      required: [name]\n      properties:\n        name:\n          type: string\n          enum: [fern, moss]\n"
	check(t, reasons(t, fmt.Sprintf(plants, "3.0.3", plant), fmt.Sprintf(plants, "3.1.0", strings.Replace(plant, "[fern, moss]", "[fern]", 1))), []string{
		`request body (application/json) property name: enum value "moss" was removed; a request OLD accepted may be refused`,
		`response 201 (application/json) property name: enum value "moss" was removed; a provider of OLD may send values NEW forbids`,
	})
}

// TestCompositionChanges changes what allOf members, anyOf and oneOf
// alternatives, readOnly and the discriminator say.
func TestCompositionChanges(t *testing.T) {
	const op = "POST /plants "
	const oneOf = "      oneOf:\n        - $ref: '#/components/schemas/Fern'\n        - $ref: '#/components/schemas/Moss'\n" +
		"      discriminator:\n        propertyName: kind\n        mapping:\n          fern: '#/components/schemas/Fern'\n          moss: '#/components/schemas/Moss'\n" +
		"    Fern:\n      type: object\n    Moss:\n      type: object\n"
	kind := func(values string) string { return "    Kind:\n      type: string\n      enum: [" + values + "]\n" }
	const kindProp = "/components/schemas/Plant/properties/kind"
	// address is Plant with a property address of two alternatives, a
	// string (its type at line 26) and Address, which has no type.
	address := func(of, stringType string) string {
		return "      type: object\n      properties:\n        address:\n          " + of + ":\n            - type: " + stringType +
			"\n            - $ref: '#/components/schemas/Address'\n    Address:\n      properties:\n        street: {type: string}\n"
	}
	const addr = "/components/schemas/Plant/properties/address/oneOf/0/type"
	const disc = "/components/schemas/Plant/discriminator"
	tests := []struct {
		name     string
		old, new string // Plant's keywords
		want     []string
	}{
		// A bound in an allOf member, not merged into its parent, is
		// compared member by member.
		{"allOf member's bound", "      type: object\n      properties:\n        name:\n          allOf:\n            - type: string\n            - maxLength: 40\n",
			"      type: object\n      properties:\n        name:\n          allOf:\n            - type: string\n            - maxLength: 20\n",
			[]string{
				op + "request-property-max-length-decreased breaks-clients request old=" + name + "/allOf/1/maxLength:27 new=" + name + "/allOf/1/maxLength:27",
				op + "response-property-max-length-decreased breaks-providers response old=" + name + "/allOf/1/maxLength:27 new=" + name + "/allOf/1/maxLength:27",
			}},
		// An allOf member added: its own bound counts as added.
		{"allOf member added", "      type: object\n      properties:\n        name:\n          allOf:\n            - type: string\n",
			"      type: object\n      properties:\n        name:\n          allOf:\n            - type: string\n            - maxLength: 20\n",
			[]string{
				op + "request-property-max-length-added breaks-clients request old=- new=" + name + "/allOf/1/maxLength:27",
				op + "response-property-max-length-added breaks-providers response old=- new=" + name + "/allOf/1/maxLength:27",
			}},
		// An anyOf alternative removed refuses the values only it took.
		{"anyOf alternative removed", "      type: object\n      properties:\n        name:\n          anyOf:\n            - type: string\n            - type: integer\n",
			"      type: object\n      properties:\n        name:\n          anyOf:\n            - type: string\n",
			[]string{
				op + "request-property-alternative-removed breaks-clients request old=" + name + "/anyOf/1:27 new=-",
				op + "response-property-alternative-removed breaks-providers response old=" + name + "/anyOf/1:27 new=-",
			}},
		// A required property made readOnly: a provider ignores it in
		// requests, and clients need no longer send it.
		{"became readOnly", "      type: object\n      required: [name]\n      properties:\n        name:\n          type: string\n",
			"      type: object\n      required: [name]\n      properties:\n        name:\n          type: string\n          readOnly: true\n",
			[]string{
				op + "request-property-became-optional breaks-providers request old=/components/schemas/Plant/required:23 new=/components/schemas/Plant/required:23",
				op + "request-property-became-read-only breaks-clients request old=" + name + ":26 new=" + name + "/readOnly:27",
			}},
		// A property made writeOnly is no longer returned; requests are as they were.
		{"became writeOnly", "      type: object\n      properties:\n        name:\n          type: string\n",
			"      type: object\n      properties:\n        name:\n          type: string\n          writeOnly: true\n",
			[]string{op + "response-property-became-write-only breaks-clients response old=" + name + ":25 new=" + name + "/writeOnly:26"}},
		// A oneOf alternative and its mapping removed: a Moss is refused.
		{"oneOf alternative and mapping removed", oneOf,
			strings.Replace(strings.Replace(oneOf, "        - $ref: '#/components/schemas/Moss'\n", "", 1), "          moss: '#/components/schemas/Moss'\n", "", 1),
			[]string{
				op + "request-body-alternative-removed breaks-clients request old=/components/schemas/Moss:33 new=-",
				op + "request-body-discriminator-mapping-removed breaks-clients request old=/components/schemas/Plant/discriminator:26 new=/components/schemas/Plant/discriminator:25",
				op + "response-body-alternative-removed breaks-providers response old=/components/schemas/Moss:33 new=-",
				op + "response-body-discriminator-mapping-removed breaks-providers response old=/components/schemas/Plant/discriminator:26 new=/components/schemas/Plant/discriminator:25",
			}},
		// The discriminator read from another property: a value OLD
		// accepted may lack it, or name another schema: other values.
		{"discriminator property changed", oneOf, edit(t, oneOf, "propertyName: kind", "propertyName: family"),
			[]string{
				op + "request-body-discriminator-property-changed breaks-clients request old=" + disc + ":26 new=" + disc + ":26",
				op + "response-body-discriminator-property-changed breaks-clients response old=" + disc + ":26 new=" + disc + ":26",
			}},
		// moss mapped where OLD had only fern: a value that says moss
		// finds its schema now: more.
		{"discriminator mapping added", edit(t, oneOf, "          moss: '#/components/schemas/Moss'\n", ""), oneOf,
			[]string{
				op + "request-body-discriminator-mapping-added breaks-providers request old=" + disc + ":26 new=" + disc + ":26",
				op + "response-body-discriminator-mapping-added breaks-clients response old=" + disc + ":26 new=" + disc + ":26",
			}},
		// moss mapped to Fern: a moss is held to another schema, which
		// may refuse it or take what Moss refused: other values.
		{"discriminator mapping changed", oneOf, edit(t, oneOf, "moss: '#/components/schemas/Moss'", "moss: '#/components/schemas/Fern'"),
			[]string{
				op + "request-body-discriminator-mapping-changed breaks-clients request old=" + disc + ":26 new=" + disc + ":26",
				op + "response-body-discriminator-mapping-changed breaks-clients response old=" + disc + ":26 new=" + disc + ":26",
			}},
		// Wrapped in oneOf with null: still Kind, which lost moss, and
		// null, which no other alternative takes, is one more value.
		{"wrapped in oneOf with null", "      type: object\n      properties:\n        kind:\n          $ref: '#/components/schemas/Kind'\n" + kind("fern, moss"),
			"      type: object\n      properties:\n        kind:\n          oneOf:\n            - type: 'null'\n            - $ref: '#/components/schemas/Kind'\n" + kind("fern"),
			[]string{
				op + "request-property-alternative-added breaks-providers request old=- new=" + kindProp + "/oneOf/0:26",
				op + "request-property-enum-value-removed breaks-clients request old=/components/schemas/Kind/enum:28 new=/components/schemas/Kind/enum:30",
				op + "response-property-alternative-added breaks-clients response old=- new=" + kindProp + "/oneOf/0:26",
				op + "response-property-enum-value-removed breaks-providers response old=/components/schemas/Kind/enum:28 new=/components/schemas/Kind/enum:30",
			}},
		// Wrapped beside null, inline: matched by its type, not its place.
		{"wrapped after null, inline", "      type: string\n      enum: [fern, moss]\n",
			"      oneOf:\n        - type: 'null'\n        - type: string\n          enum: [fern, moss]\n",
			[]string{
				op + "request-body-alternative-added breaks-providers request old=- new=/components/schemas/Plant/oneOf/0:23",
				op + "response-body-alternative-added breaks-clients response old=- new=/components/schemas/Plant/oneOf/0:23",
			}},
		// Wrapped in two oneOf alternatives that both take an object with
		// name and kind: OLD's objects had both, and oneOf refuses them.
		{"wrapped in overlapping oneOf", "      type: object\n      required: [name, kind]\n",
			"      oneOf:\n        - type: object\n          required: [name]\n        - type: object\n          required: [kind]\n",
			[]string{
				op + "request-body-required-removed breaks-providers request old=/components/schemas/Plant/required:23 new=/components/schemas/Plant/oneOf/0/required:24",
				op + "request-body-alternative-added breaks-clients request old=- new=/components/schemas/Plant/oneOf/1:25",
				op + "response-body-required-removed breaks-clients response old=/components/schemas/Plant/required:23 new=/components/schemas/Plant/oneOf/0/required:24",
				op + "response-body-alternative-added breaks-clients response old=- new=/components/schemas/Plant/oneOf/1:25",
			}},
		// Address has no type, so it takes null: null matched two
		// alternatives of oneOf, which refused it, and now matches one.
		{"null left to the other alternative of oneOf", address("oneOf", `[string, "null"]`), address("oneOf", "string"),
			[]string{
				op + "request-property-nullable-removed-in-one-of breaks-providers request old=" + addr + ":26 new=" + addr + ":26",
				op + "response-property-nullable-removed-in-one-of breaks-clients response old=" + addr + ":26 new=" + addr + ":26",
			}},
		// The reverse: null now matches both alternatives of oneOf, which
		// refuses it where it passed by Address alone: fewer.
		{"null taken by a second alternative of oneOf", address("oneOf", "string"), address("oneOf", `[string, "null"]`),
			[]string{
				op + "request-property-nullable-added-in-one-of breaks-clients request old=" + addr + ":26 new=" + addr + ":26",
				op + "response-property-nullable-added-in-one-of breaks-providers response old=" + addr + ":26 new=" + addr + ":26",
			}},
		// In anyOf, null passes by Address either way.
		{"null left to the other alternative of anyOf", address("anyOf", `[string, "null"]`), address("anyOf", "string"), nil},
		// anyOf where there was none: one more condition each value
		// must meet, whatever its alternatives accept: fewer.
		{"anyOf added", "      type: object\n      properties:\n        name: {type: string}\n",
			"      type: object\n      properties:\n        name: {type: string}\n      anyOf:\n        - required: [name]\n        - required: [kind]\n",
			[]string{
				op + "request-body-any-of-added breaks-clients request old=/components/schemas/Plant:22 new=/components/schemas/Plant/anyOf:26",
				op + "response-body-any-of-added breaks-providers response old=/components/schemas/Plant:22 new=/components/schemas/Plant/anyOf:26",
			}},
		// A property whose schema is a component is placed where it is
		// declared, not at the component.
		{"property of a component added", "      type: object\n      properties:\n        name: {type: string}\n    Owner:\n      type: object\n",
			"      type: object\n      properties:\n        name: {type: string}\n        owner:\n          $ref: '#/components/schemas/Owner'\n    Owner:\n      type: object\n",
			[]string{
				op + "request-property-added compatible request old=- new=/components/schemas/Plant/properties/owner:26",
				op + "response-property-added compatible response old=- new=/components/schemas/Plant/properties/owner:26",
			}},
		// Removed alike: placed where OLD declared it.
		{"property of a component removed",
			"      type: object\n      properties:\n        name: {type: string}\n        owner:\n          $ref: '#/components/schemas/Owner'\n    Owner:\n      type: object\n",
			"      type: object\n      properties:\n        name: {type: string}\n    Owner:\n      type: object\n",
			[]string{
				op + "request-property-removed breaks-providers request old=/components/schemas/Plant/properties/owner:26 new=-",
				op + "response-property-removed breaks-clients response old=/components/schemas/Plant/properties/owner:26 new=-",
			}},
		// anyOf became oneOf: an object with name and kind matched both
		// alternatives, which oneOf refuses: fewer.
		{"anyOf became oneOf", "      anyOf:\n        - {type: object, required: [name]}\n        - {type: object, required: [kind]}\n",
			"      oneOf:\n        - {type: object, required: [name]}\n        - {type: object, required: [kind]}\n", []string{
				op + "request-body-any-of-became-one-of breaks-clients request old=/components/schemas/Plant/anyOf:23 new=/components/schemas/Plant/oneOf:23",
				op + "response-body-any-of-became-one-of breaks-providers response old=/components/schemas/Plant/anyOf:23 new=/components/schemas/Plant/oneOf:23",
			}},
		// Alternatives no value matches both of: the same values.
		{"disjoint anyOf became oneOf", "      anyOf:\n        - type: string\n        - type: integer\n",
			"      oneOf:\n        - type: string\n        - type: integer\n", nil},
		// required moved into anyOf's one alternative: the same values.
		{"required moved into anyOf", "      type: object\n      required: [name]\n      properties:\n        name: {type: string}\n",
			"      type: object\n      anyOf:\n        - required: [name]\n      properties:\n        name: {type: string}\n", nil},
		// The property removed but still required: any value, but it
		// must be there.
		{"property removed, still required", "      type: object\n      properties:\n        name: {type: string}\n",
			"      type: object\n      required: [name]\n", []string{
				op + "request-body-required-added breaks-clients request old=/components/schemas/Plant:22 new=/components/schemas/Plant/required:23",
				op + "request-property-removed breaks-providers request old=/components/schemas/Plant/properties/name:24 new=-",
				op + "response-body-required-added breaks-providers response old=/components/schemas/Plant:22 new=/components/schemas/Plant/required:23",
				op + "response-property-removed breaks-clients response old=/components/schemas/Plant/properties/name:24 new=-",
			}},
		// oneOf removed whole: a value no longer has to match one of
		// its alternatives: more.
		{"oneOf removed", "      type: object\n      oneOf:\n        - required: [name]\n        - required: [kind]\n", "      type: object\n",
			[]string{
				op + "request-body-one-of-removed breaks-providers request old=/components/schemas/Plant/oneOf:24 new=/components/schemas/Plant:22",
				op + "response-body-one-of-removed breaks-clients response old=/components/schemas/Plant/oneOf:24 new=/components/schemas/Plant:22",
			}},
		// A property that took any value wrapped in oneOf of a string
		// and an integer: fewer, and the integer alternative adds no
		// value OLD refused.
		{"any value wrapped in oneOf", "      type: object\n      properties:\n        name: {}\n",
			"      type: object\n      properties:\n        name:\n          oneOf:\n            - type: string\n            - type: integer\n",
			[]string{
				op + "request-property-type-narrowed breaks-clients request old=" + name + ":24 new=" + name + "/oneOf/0/type:26",
				op + "response-property-type-narrowed breaks-providers response old=" + name + ":24 new=" + name + "/oneOf/0/type:26",
			}},
		// Unwrapped into a schema that takes both: more, and the integer
		// alternative loses no value.
		{"unwrapped into both types", "      anyOf:\n        - type: string\n        - type: integer\n", "      type: [string, integer]\n",
			[]string{
				op + "request-body-type-widened breaks-providers request old=/components/schemas/Plant/anyOf/0/type:23 new=/components/schemas/Plant/type:22",
				op + "response-body-type-widened breaks-clients response old=/components/schemas/Plant/anyOf/0/type:23 new=/components/schemas/Plant/type:22",
			}},
		// Unwrapped: the string alternative is kept, the integer one removed.
		{"unwrapped from anyOf", "      anyOf:\n        - type: string\n        - type: integer\n", "      type: string\n",
			[]string{
				op + "request-body-alternative-removed breaks-clients request old=/components/schemas/Plant/anyOf/1:24 new=-",
				op + "response-body-alternative-removed breaks-providers response old=/components/schemas/Plant/anyOf/1:24 new=-",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, compare(t, fmt.Sprintf(plants, "3.1.0", tt.old), fmt.Sprintf(plants, "3.2.0", tt.new)), tt.want)
		})
	}
}
