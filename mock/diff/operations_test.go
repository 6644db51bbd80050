package diff_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/diff"
)

// shop is a document of two operations, GET /plants/{plantId} (lines
// 13 to 33) and DELETE /plants/{plantId} (34 to 38), secured by a
// bearer token or OAuth 2 with scopes; each case edits it.
const shop = `openapi: 3.0.3
info: {title: Shop, version: "1"}
components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
    oauth:
      type: oauth2
      flows: {clientCredentials: {tokenUrl: /token, scopes: {read: r, write: w}}}
paths:
  /plants/{plantId}:
    get:
      security: [{bearer: []}, {oauth: [read]}]
      parameters:
        - {name: plantId, in: path, required: true, schema: {type: string}}
        - name: view
          in: query
          schema: {type: string, enum: [short, full]}
      responses:
        "200":
          description: the plant
          headers:
            ETag:
              required: true
              schema: {type: string}
          content:
            application/json:
              schema: {type: object}
            application/xml:
              schema: {type: object}
        "404":
          description: none
    delete:
      security: [{bearer: []}]
      responses:
        "204":
          description: gone
`

// TestOperationChanges edits shop and holds each change to its rule,
// level, side and places. Each case says why in a line.
func TestOperationChanges(t *testing.T) {
	const get = "GET /plants/{plantId} "
	const view = "/paths/~1plants~1{plantId}/get/parameters/1/schema"
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		// A client of OLD that calls it is refused.
		{"operation removed", "    delete:\n      security: [{bearer: []}]\n      responses:\n        \"204\":\n          description: gone\n", "",
			[]string{"DELETE /plants/{plantId} operation-removed breaks-clients document old=/paths/~1plants~1{plantId}/delete:35 new=-"}},
		// A provider of OLD does not serve it.
		{"operation added", "    delete:", "    put:\n      responses:\n        \"204\": {description: kept}\n    delete:",
			[]string{"PUT /plants/{plantId} operation-added breaks-providers document old=- new=/paths/~1plants~1{plantId}/put:35"}},
		// The path parameter's name is no part of the request.
		{"path parameter renamed", "plantId", "id", nil},
		// A client of OLD does not send it.
		{"required parameter added", "      responses:\n        \"200\":", "        - {name: X-Tenant, in: header, required: true, schema: {type: string}}\n      responses:\n        \"200\":",
			[]string{get + "request-parameter-added-required breaks-clients request old=- new=/paths/~1plants~1{plantId}/get/parameters/2:20"}},
		// A request without it, which OLD took, is refused.
		{"parameter became required", "          in: query\n", "          in: query\n          required: true\n",
			[]string{get + "request-parameter-became-required breaks-clients request old=/paths/~1plants~1{plantId}/get/parameters/1:17 new=/paths/~1plants~1{plantId}/get/parameters/1:17"}},
		// A client of OLD that sends full is refused.
		{"parameter enum value removed", "enum: [short, full]", "enum: [short]",
			[]string{get + "request-parameter-enum-value-removed breaks-clients request old=/paths/~1plants~1{plantId}/get/parameters/1/schema/enum:19 new=/paths/~1plants~1{plantId}/get/parameters/1/schema/enum:19"}},
		// What a client sends in it is no longer read.
		{"parameter removed", "        - name: view\n          in: query\n          schema: {type: string, enum: [short, full]}\n", "",
			[]string{get + "request-parameter-removed breaks-clients request old=/paths/~1plants~1{plantId}/get/parameters/1:17 new=-"}},
		// view=full is an array of one item to NEW: only several values are new.
		{"query parameter became an array", "schema: {type: string, enum: [short, full]}", "schema: {type: array, items: {type: string, enum: [short, full]}}",
			[]string{get + "request-parameter-became-array breaks-providers request old=" + view + "/type:19 new=" + view + "/type:19"}},
		// Items of another type refuse what OLD's clients write.
		{"query parameter became an array of integers", "schema: {type: string, enum: [short, full]}", "schema: {type: array, items: {type: integer}}",
			[]string{
				get + "request-parameter-type-changed breaks-clients request old=" + view + "/type:19 new=" + view + "/items/type:19",
				get + "request-parameter-enum-removed breaks-providers request old=" + view + "/enum:19 new=" + view + "/items:19",
				get + "request-parameter-became-array breaks-providers request old=" + view + "/type:19 new=" + view + "/type:19",
			}},
		// Two values at least: a client of OLD writes one.
		{"query parameter became an array of two", "schema: {type: string, enum: [short, full]}", "schema: {type: array, minItems: 2, items: {type: string, enum: [short, full]}}",
			[]string{
				get + "request-parameter-became-array breaks-providers request old=" + view + "/type:19 new=" + view + "/type:19",
				get + "request-parameter-min-items-added breaks-clients request old=- new=" + view + "/minItems:19",
			}},
		// A provider of OLD may still answer 404.
		{"status removed", "        \"404\":\n          description: none\n", "",
			[]string{get + "response-status-removed breaks-providers response old=/paths/~1plants~1{plantId}/get/responses/404:33 new=-"}},
		// Clients handle a status they do not know by its class.
		{"error status added", "        \"404\":", "        \"429\":\n          description: slow\n        \"404\":",
			[]string{get + "response-status-added compatible response old=- new=/paths/~1plants~1{plantId}/get/responses/429:33"}},
		// A client of OLD may read a success it does not know as another.
		{"success status added", "        \"404\":", "        \"202\":\n          description: later\n        \"404\":",
			[]string{get + "response-success-status-added breaks-clients response old=- new=/paths/~1plants~1{plantId}/get/responses/202:33"}},
		// A client of OLD may rely on a required header.
		{"required header removed", "            ETag:\n              required: true\n              schema: {type: string}\n", "            X-Kept: {schema: {type: string}}\n",
			[]string{
				get + "response-header-added compatible response old=- new=/paths/~1plants~1{plantId}/get/responses/200/headers/X-Kept:24",
				get + "response-required-header-removed breaks-clients response old=/paths/~1plants~1{plantId}/get/responses/200/headers/ETag:25 new=-",
			}},
		// A header that allows fewer values: a provider of OLD may send a longer one.
		{"header bound added", "              schema: {type: string}\n          content:", "              schema: {type: string, maxLength: 10}\n          content:",
			[]string{get + "response-header-max-length-added breaks-providers response old=/paths/~1plants~1{plantId}/get/responses/200/headers/ETag/schema:26 new=/paths/~1plants~1{plantId}/get/responses/200/headers/ETag/schema/maxLength:26"}},
		// A client of OLD that asks for XML is not answered in it.
		{"response media type removed", "            application/xml:\n              schema: {type: object}\n", "",
			[]string{get + "response-media-type-removed breaks-clients response old=/paths/~1plants~1{plantId}/get/responses/200/content/application~1xml:31 new=-"}},
		// A client of OLD with a bearer token only is refused.
		{"security alternative removed", "[{bearer: []}, {oauth: [read]}]", "[{oauth: [read]}]",
			[]string{get + "security-alternative-removed breaks-clients request old=/paths/~1plants~1{plantId}/get:14 new=/paths/~1plants~1{plantId}/get:14"}},
		// A token without the write scope is refused.
		{"scope added", "{oauth: [read]}", "{oauth: [read, write]}",
			[]string{get + "security-scope-added breaks-clients request old=/paths/~1plants~1{plantId}/get:14 new=/paths/~1plants~1{plantId}/get:14"}},
		// Credentials go another way: every client sends them the old way.
		{"security scheme changed", "      scheme: bearer", "      scheme: basic",
			[]string{"security-scheme-changed breaks-clients document old=/components/securitySchemes/bearer:6 new=/components/securitySchemes/bearer:6"}},
		// A client of OLD writes view=a,b where NEW reads view=a&view=b.
		{"parameter style changed", "          in: query\n", "          in: query\n          explode: false\n",
			[]string{get + "request-parameter-style-changed breaks-clients request old=/paths/~1plants~1{plantId}/get/parameters/1:17 new=/paths/~1plants~1{plantId}/get/parameters/1:17"}},
		// A provider of OLD does not send it.
		{"required header added", "            ETag:", "            X-Id: {required: true, schema: {type: string}}\n            ETag:",
			[]string{get + "response-required-header-added breaks-providers response old=- new=/paths/~1plants~1{plantId}/get/responses/200/headers/X-Id:24"}},
		// A client of OLD may rely on it.
		{"header became optional", "              required: true\n", "              required: false\n",
			[]string{get + "response-header-became-optional breaks-clients response old=/paths/~1plants~1{plantId}/get/responses/200/headers/ETag:25 new=/paths/~1plants~1{plantId}/get/responses/200/headers/ETag:25"}},
		// A client of OLD does not ask for it.
		{"response media type added", "            application/xml:", "            text/csv: {schema: {type: string}}\n            application/xml:",
			[]string{get + "response-media-type-added compatible response old=- new=/paths/~1plants~1{plantId}/get/responses/200/content/text~1csv:30"}},
		// Optional security: a provider of OLD refuses requests without
		// credentials; every client of OLD is let in.
		{"security made optional", "[{bearer: []}, {oauth: [read]}]", "[{}, {bearer: []}]",
			[]string{get + "security-alternative-added breaks-providers request old=/paths/~1plants~1{plantId}/get:14 new=/paths/~1plants~1{plantId}/get:14"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edited := strings.ReplaceAll(shop, tt.old, tt.new)
			if edited == shop {
				t.Fatalf("the case edits nothing: %q is not in shop", tt.old)
			}
			check(t, compare(t, shop, edited), tt.want)
		})
	}
}

// TestRequestBodyChanges holds the request body's own changes, and its
// media types', to their rules.
func TestRequestBodyChanges(t *testing.T) {
	const doc = `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /plants:
    post:
      requestBody:
        content:
          application/json: {schema: {type: object}}
          text/plain: {schema: {type: string}}
      responses:
        "201": {description: made}
`
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		// A request without a body, which OLD took, is refused.
		{"became required", "      requestBody:\n", "      requestBody:\n        required: true\n",
			[]string{"POST /plants request-body-became-required breaks-clients request old=/paths/~1plants/post/requestBody:7 new=/paths/~1plants/post/requestBody:7"}},
		// A client of OLD that sends text is refused.
		{"media type removed", "          text/plain: {schema: {type: string}}\n", "",
			[]string{"POST /plants request-media-type-removed breaks-clients request old=/paths/~1plants/post/requestBody/content/text~1plain:9 new=-"}},
		// A provider of OLD refuses form bodies.
		{"media type added", "          text/plain:", "          application/x-www-form-urlencoded: {schema: {type: object}}\n          text/plain:",
			[]string{"POST /plants request-media-type-added breaks-providers request old=- new=/paths/~1plants/post/requestBody/content/application~1x-www-form-urlencoded:9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, compare(t, doc, edit(t, doc, tt.old, tt.new)), tt.want)
		})
	}
}

// TestChangesBetweenEdits holds the rules no edit of a document shows
// by itself (a part OLD has that the document lacks) to what they say:
// OLD and NEW are each an edit of the same document.
func TestChangesBetweenEdits(t *testing.T) {
	const body = `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /plants:
    post:
      requestBody:
        content:
          application/json: {schema: {type: object}}
      responses:
        "201": {description: made}
`
	const get = "GET /plants/{plantId} "
	noBody := [2]string{"      requestBody:\n        content:\n          application/json: {schema: {type: object}}\n", ""}
	required := [2]string{"      requestBody:\n", "      requestBody:\n        required: true\n"}
	tests := []struct {
		name     string
		doc      string
		old, new [2]string // edits of doc; none where empty
		want     []string
	}{
		// A provider of OLD may refuse a request without it.
		{"parameter became optional", shop, [2]string{"          in: query\n", "          in: query\n          required: true\n"}, [2]string{}, []string{get + "request-parameter-became-optional breaks-providers request old=/paths/~1plants~1{plantId}/get/parameters/1:17 new=/paths/~1plants~1{plantId}/get/parameters/1:17"}},
		// A token with fewer scopes: a provider of OLD refuses it.
		{"scope removed", shop, [2]string{"{oauth: [read]}", "{oauth: [read, write]}"}, [2]string{}, []string{get + "security-scope-removed breaks-providers request old=/paths/~1plants~1{plantId}/get:14 new=/paths/~1plants~1{plantId}/get:14"}},
		// It was optional: no client could rely on it.
		{"optional header removed", shop, [2]string{"            ETag:", "            X-Kept: {schema: {type: string}}\n            ETag:"}, [2]string{}, []string{get + "response-header-removed compatible response old=/paths/~1plants~1{plantId}/get/responses/200/headers/X-Kept:24 new=-"}},
		// A provider of OLD may leave it out.
		{"header became required", shop, [2]string{"              required: true\n", "              required: false\n"}, [2]string{}, []string{get + "response-header-became-required breaks-providers response old=/paths/~1plants~1{plantId}/get/responses/200/headers/ETag:25 new=/paths/~1plants~1{plantId}/get/responses/200/headers/ETag:25"}},
		// What a client of OLD sends in it is not read.
		{"body removed", body, [2]string{}, noBody, []string{"POST /plants request-body-removed breaks-clients request old=/paths/~1plants/post/requestBody:7 new=-"}},
		// A provider of OLD does not read it.
		{"body added", body, noBody, [2]string{}, []string{"POST /plants request-body-added breaks-providers request old=- new=/paths/~1plants/post/requestBody:7"}},
		// A client of OLD sends none.
		{"required body added", body, noBody, required, []string{"POST /plants request-body-added-required breaks-clients request old=- new=/paths/~1plants/post/requestBody:7"}},
		// A provider of OLD may refuse a request without one.
		{"body became optional", body, required, [2]string{}, []string{"POST /plants request-body-became-optional breaks-providers request old=/paths/~1plants/post/requestBody:7 new=/paths/~1plants/post/requestBody:7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, compare(t, edit(t, tt.doc, tt.old[0], tt.old[1]), edit(t, tt.doc, tt.new[0], tt.new[1])), tt.want)
		})
	}
}

// TestLoadError names the document that cannot be loaded.
func TestLoadError(t *testing.T) {
	for _, tt := range []struct {
		name     string
		old, new string
		isNew    bool
		text     string
	}{
		{"old", "swagger: '2.0'", shop, false, "OLD: a Swagger 2.0 document: convert it to OpenAPI 3 (for instance with swagger2openapi)"},
		{"new", shop, "openapi: 4.0.0", true, "NEW: OpenAPI 4.0.0 is not supported: only 3.0, 3.1 and 3.2 are"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := diff.Compare([]byte(tt.old), []byte(tt.new))
			var le *diff.LoadError
			if !errors.As(err, &le) || le.New != tt.isNew || err.Error() != tt.text {
				t.Errorf("error %v, want %q (NEW %v)", err, tt.text, tt.isNew)
			}
		})
	}
}

// TestParameterBecameArray turns a query parameter of strings or
// integers into an array of strings: token=5 is the string "5" too, so
// no value a client of OLD writes is refused; only several are new.
func TestParameterBecameArray(t *testing.T) {
	const doc = `openapi: 3.1.0
info: {title: Shop, version: "1"}
paths:
  /plants:
    get:
      parameters:
        - name: token
          in: query
          schema: %s
      responses:
        "204": {description: none}
`
	const token = "/paths/~1plants/get/parameters/0/schema"
	got := compare(t, fmt.Sprintf(doc, "{type: [string, integer]}"), fmt.Sprintf(doc, "{type: array, items: {type: string}}"))
	check(t, got, []string{"GET /plants request-parameter-became-array breaks-providers request old=" + token + "/type:9 new=" + token + "/type:9"})
}
