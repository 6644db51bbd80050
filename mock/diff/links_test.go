package diff_test

import (
	"strings"
	"testing"
)

// linked is a document whose POST /plants answers 201 with two links,
// to the plant (line 9) and to its owner (12); each case edits it.
const linked = `openapi: 3.0.3
info: {title: Links, version: "1"}
paths:
  /plants:
    post:
      responses:
        "201":
          description: made
          links:
            plant:
              operationId: getPlant
              parameters: {plantId: $response.body#/id}
            owner:
              operationRef: '#/paths/~1owners~1{id}/get'
              parameters: {id: $response.body#/owner}
  /plants/{plantId}:
    get:
      operationId: getPlant
      responses:
        "200": {description: the plant}
    delete:
      operationId: deletePlant
      responses:
        "204": {description: gone}
  /owners/{id}:
    get:
      operationId: getOwner
      responses:
        "200": {description: the owner}
`

// TestLinkChanges edits linked's links and holds each change to its
// rule, level, side and places. Each case says why in a line.
func TestLinkChanges(t *testing.T) {
	const (
		post  = "POST /plants "
		plant = "/paths/~1plants/post/responses/201/links/plant:11"
		owner = "/paths/~1plants/post/responses/201/links/owner:14"
	)
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		// A client of OLD that follows it has no way to its target.
		{"removed", "            owner:\n              operationRef: '#/paths/~1owners~1{id}/get'\n              parameters: {id: $response.body#/owner}\n", "",
			[]string{post + "response-link-removed breaks-clients response old=" + owner + " new=-"}},
		// A client of OLD does not follow it.
		{"added", "            owner:", "            plants:\n              operationId: getPlant\n            owner:",
			[]string{post + "response-link-added compatible response old=- new=/paths/~1plants/post/responses/201/links/plants:14"}},
		// A client of OLD that follows it calls the old operation.
		{"target changed", "              operationId: getPlant\n              parameters", "              operationId: deletePlant\n              parameters",
			[]string{post + "response-link-target-changed breaks-clients response old=" + plant + " new=" + plant}},
		// The same operation, another way to name it.
		{"operationRef to the same", "              operationRef: '#/paths/~1owners~1{id}/get'", "              operationId: getOwner", nil},
		// A client of OLD fills the target's parameter from elsewhere.
		{"parameter changed", "{plantId: $response.body#/id}", "{plantId: $response.body#/plantId}",
			[]string{post + "response-link-parameters-changed breaks-clients response old=" + plant + " new=" + plant}},
		// A client of OLD does not fill it.
		{"parameter added", "{id: $response.body#/owner}", "{id: $response.body#/owner, view: full}",
			[]string{post + "response-link-parameters-changed breaks-clients response old=" + owner + " new=" + owner}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, compare(t, linked, edit(t, linked, tt.old, tt.new)), tt.want)
		})
	}
	// An operationId renamed with its operation: the link leads to the
	// same one.
	renamed := strings.ReplaceAll(linked, "getPlant", "fetchPlant")
	check(t, compare(t, linked, renamed), nil)
}

// TestLinkReasons holds the reasons to naming the link, its response,
// its targets and the parameters that changed.
func TestLinkReasons(t *testing.T) {
	edited := strings.NewReplacer("operationId: getPlant\n              parameters", "operationId: getPlants\n              parameters",
		"{id: $response.body#/owner}", "{id: $response.body#/ownerId, view: full}").Replace(linked)
	check(t, reasons(t, linked, edited), []string{
		"link plant of the response 201 leads to operationId getPlants, no longer GET /plants/{plantId}: a client of OLD that follows it calls the old one",
		"link owner of the response 201 gives other values to id, view: a client of OLD that follows it gives the old ones",
	})
}
