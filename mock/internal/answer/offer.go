package answer

import (
	"net/http"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"

	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// offer is one media type a response may be written in, worked out at
// start.
type offer struct {
	media *openapi.Media
	CT    string   // the Content-Type sent when Accept names nothing narrower
	CTH   []string // {ct}, shared by every answer; net/http only reads it
	kind  media.Kind
	// env is how a stored resource is wrapped in answers of this type;
	// nil when the answer is the resource (envelope.go).
	env *envelope
}

// offersOf returns the media types a response declares, JSON ones first,
// a JSON type before a range written as JSON (*/*): a client that states
// no preference gets JSON where the document offers it, in the schema of
// application/json where it declares one beside */*, else the first
// declared type.
func offersOf(resp *openapi.Response) []offer {
	if resp == nil {
		return nil
	}
	out := make([]offer, 0, len(resp.Content))
	for pass := range 3 {
		for _, m := range resp.Content {
			k := media.KindOf(m.Type)
			switch {
			case k != media.JSON && pass < 2, k == media.JSON && pass == 2:
				continue
			case k == media.JSON && strings.Contains(m.Type, "*") != (pass == 1):
				continue
			}
			ct := media.ContentType(m.Type, "")
			out = append(out, offer{media: m, CT: ct, CTH: []string{ct}, kind: k})
		}
	}
	return out
}

// types returns the declared media types of offers, in their order.
func types(offers []offer) []string {
	out := make([]string, len(offers))
	for i := range offers {
		out[i] = offers[i].media.Type
	}
	return out
}

// Negotiate chooses the offer an answer is written in, by the request's
// Accept header (RFC 9110 12.5.1). Without one, or with */*, it is the
// first offer. When nothing offered is acceptable, the answer is 406
// where the operation declares it; otherwise Accept is ignored, as RFC
// 9110 lets a server do, and the first offer answers. ct is the
// Content-Type to send.
func Negotiate(x *Turn, offers []offer) (o *offer, ct string, p *problem.Problem) {
	if len(offers) == 0 {
		return nil, "", nil
	}
	accept := x.R.Header["Accept"]
	if len(accept) == 0 || len(accept) == 1 && (accept[0] == "*/*" || accept[0] == "") {
		return &offers[0], offers[0].CT, nil
	}
	joined := strings.Join(accept, ", ")
	i, ok := media.Negotiate(joined, types(offers))
	if !ok {
		if x.Plan.Op.Declares(http.StatusNotAcceptable) {
			return nil, "", &problem.Problem{Code: problem.CodeNotAcceptable, Status: http.StatusNotAcceptable,
				Message: "Accept: " + cliptext.To(joined, 100) + " takes none of the declared media types (" + strings.Join(types(offers), ", ") + ")"}
		}
		return &offers[0], offers[0].CT, nil
	}
	o = &offers[i]
	if ct = media.ContentType(o.media.Type, joined); ct == o.CT {
		return o, o.CT, nil
	}
	return o, ct, nil
}

// JSONMedia returns the JSON media an operation declares for status, or nil.
func JSONMedia(op *openapi.Operation, status int) *openapi.Media {
	if resp := op.Response(status); resp != nil {
		return resp.JSON()
	}
	return nil
}

// OffersFor returns the offers of the response an operation declares for
// status: worked out at start for the statuses it names, else now.
func (pl *Plan) OffersFor(status int) []offer {
	if status == pl.Success {
		return pl.offers
	}
	if o, ok := pl.offersBy[status]; ok {
		return o
	}
	return offersOf(pl.Op.Response(status))
}
