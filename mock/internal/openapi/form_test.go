package openapi

import (
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// formConversionSpec declares form fields whose types are told only
// through composition, as Stripe's description does (tiers[0][up_to] is
// anyOf [inf, integer], currency_options a map of objects).
const formConversionSpec = `openapi: 3.1.0
info: {title: conv, version: "1"}
paths:
  /things:
    post:
      requestBody:
        content:
          application/x-www-form-urlencoded:
            encoding:
              c: {style: deepObject, explode: true}
              e: {style: deepObject, explode: true}
              tiers: {style: deepObject, explode: true}
            schema:
              type: object
              additionalProperties: false
              properties:
                a: {allOf: [{type: integer}, {minimum: 1}]}
                b: {oneOf: [{type: integer}, {type: boolean}]}
                c: {type: object, additionalProperties: {type: integer}}
                d: {anyOf: [{type: number}, {type: string, enum: [x]}]}
                e: {type: object, additionalProperties: {anyOf: [{type: object, properties: {n: {type: integer}}}, {type: string}]}}
                tiers:
                  type: array
                  items:
                    type: object
                    properties:
                      up_to: {anyOf: [{type: string, enum: [inf]}, {type: integer}]}
      responses:
        "204": {description: ok}
`

// TestFormConversion: a form field's text is converted to what its
// schema accepts through allOf, oneOf, anyOf and additionalProperties,
// at any depth. OpenAPI says only that form fields are read as query
// parameters of their style (3.1.1, Encoding Object); which type a
// string of a composed schema stands for it leaves to the reader.
// plantmock takes the types the alternatives declare, as the servers
// behind form-encoded SDKs do (Stripe's takes up_to=inf and up_to=5),
// and a text no alternative takes is left a string for the schema to
// refuse, naming the field.
func TestFormConversion(t *testing.T) {
	d, err := Load([]byte(formConversionSpec))
	if err != nil {
		t.Fatal(err)
	}
	media := d.Operations[0].Body.Media("application/x-www-form-urlencoded")
	tests := []struct {
		body, want, refusal string
	}{
		{body: "a=5", want: `{"a":5}`},                   // allOf: the member's type
		{body: "b=7", want: `{"b":7}`},                   // oneOf: the integer alternative
		{body: "b=true", want: `{"b":true}`},             // oneOf: the boolean alternative
		{body: "c[k]=3", want: `{"c":{"k":3}}`},          // additionalProperties
		{body: "d=2.5", want: `{"d":2.5}`},               // anyOf: a number
		{body: "d=x", want: `{"d":"x"}`},                 // anyOf: the string enum
		{body: "e[z][n]=4", want: `{"e":{"z":{"n":4}}}`}, // anyOf under additionalProperties: the object
		{body: "e[z]=s", want: `{"e":{"z":"s"}}`},        // the same: the string
		{body: "tiers[0][up_to]=inf&tiers[1][up_to]=5", want: `{"tiers":[{"up_to":"inf"},{"up_to":5}]}`},
		{body: "a=0", refusal: "a: 0 is under the minimum 1"},
		{body: "b=maybe", refusal: "b: matches none of the oneOf alternatives"},
		{body: "c[k]=x", refusal: "c.k: expected integer, got string"},
		{body: "tiers[0][up_to]=all", refusal: "tiers[0].up_to: matches none of the anyOf alternatives"},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			v, vs := media.DecodeForm([]byte(tt.body), "application/x-www-form-urlencoded")
			if len(vs) > 0 {
				t.Fatalf("decoding: %v", vs)
			}
			vs = media.Schema.ValidateRequest(v)
			switch {
			case tt.refusal != "":
				if len(vs) != 1 || vs[0].String() != tt.refusal {
					t.Errorf("violations = %v, want %q", vs, tt.refusal)
				}
			case len(vs) > 0:
				t.Errorf("violations = %v, want none", vs)
			case string(jsonx.Marshal(v)) != tt.want:
				t.Errorf("decoded = %s, want %s", jsonx.Marshal(v), tt.want)
			}
		})
	}
}
