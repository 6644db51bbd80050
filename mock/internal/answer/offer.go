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
	// made is the envelope of a list made up from the schema, whose
	// paging fields are set to agree with its items (madelist.go); nil
	// when the schema is no such list.
	made *envelope
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
			out = append(out, offer{media: m, CT: ct, CTH: []string{ct}, kind: k, made: madeListOf(m.Schema)})
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

// Negotiate chooses the offer an answer is written in: the stream,
// where one must be sent (see streamFirst), else by the request's Accept
// header (RFC 9110 12.5.1). Without one, or with */*, it is the first
// offer. When nothing offered is acceptable, the answer is 406 where the
// operation declares it; otherwise Accept is ignored, as RFC 9110 lets a
// server do, and the first offer answers. ct is the Content-Type to
// send. scripted says that a rule scripts the answer's stream.
func (s *Answerer) Negotiate(x *Turn, offers []offer, scripted bool) (o *offer, ct string, p *problem.Problem) {
	if len(offers) == 0 {
		return nil, "", nil
	}
	if i := s.streamFirst(x, offers, scripted); i >= 0 {
		return &offers[i], offers[i].CT, nil
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

// streamFirst returns the offer a stream is sent in whatever Accept
// says, or -1 where Accept chooses: the first offer that streams, for a
// rule's stream (scripted), and for a request body whose boolean stream
// member is true where the answer is offered both as JSON and as a
// stream, as OpenAI's, Anthropic's, Mistral's and Ollama's APIs are
// asked (their SDKs send Accept: application/json with stream: true).
// IgnoreStreamField leaves the latter to Accept.
func (s *Answerer) streamFirst(x *Turn, offers []offer, scripted bool) int {
	if !scripted && (s.IgnoreStreamField || !asksStream(x.Body)) {
		return -1
	}
	at, whole := -1, false // whole: a JSON offer that is one value
	for i := range offers {
		switch streams := offers[i].media.Streams(); {
		case streams && at < 0:
			at = i
		case !streams && offers[i].kind == media.JSON:
			whole = true
		}
	}
	if !scripted && !whole {
		return -1
	}
	return at
}

// asksStream reports whether a request body asks for its answer as a
// stream: it is an object whose stream member is true.
func asksStream(body any) bool {
	obj, ok := body.(map[string]any)
	return ok && obj["stream"] == true
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
