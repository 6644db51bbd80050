package openapi

import (
	"net/http"
	"regexp"
	"strconv"

	"github.com/plantmock/plantmock/mock/internal/stream"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// Operation is one method on one path template.
type Operation struct {
	Method string // upper case
	Path   string // the template, e.g. /plants/{plantId}
	Name   string // "METHOD /path/template"
	ID     string // operationId, if any

	Params []Param
	// Security lists alternative requirements; the request must satisfy one.
	// Empty means no authentication. An alternative with no schemes makes
	// authentication optional.
	Security []Requirement
	// Scopes are the scopes each alternative of Security asks of its
	// schemes, by scheme name (OAuth 2 and OpenID Connect scopes, or the
	// roles 3.1 lets other schemes name): Scopes[i] is Security[i]'s, nil
	// where it asks none.
	Scopes []map[string][]string
	Body   *RequestBody // nil when the operation takes no body

	// Responses are the declared responses in document order; Default is
	// the "default" response, if declared.
	Responses []*Response
	Default   *Response

	// Callbacks are the requests the server sends after answering, as
	// the operation's callbacks declare.
	Callbacks []*Hook

	// pathNames are the names of the template's parameters, in order.
	pathNames []string
	wire      *wire.Params
	place     // where it is written: see Place
}

// Param is a declared parameter.
type Param struct {
	Name          string
	In            string // path, query, header, cookie or querystring (3.2)
	Required      bool
	Schema        *Schema
	Style         string // as declared; "" means the default for In
	Explode       *bool  // as declared; nil means the default for Style
	AllowReserved bool
	// Content is the media type of a parameter declared with content
	// instead of schema (its value is, say, JSON text). A querystring
	// parameter always has one: the whole query string is its value,
	// an object for application/x-www-form-urlencoded.
	Content     *Media
	exampleList []Example // see ExampleList
	place                 // where it is written: see Place
}

// Requirement is one alternative of a security requirement: every scheme
// in it must be satisfied.
type Requirement []*SecurityScheme

// SecurityScheme is a declared security scheme.
type SecurityScheme struct {
	Name   string // the key under components.securitySchemes
	Type   string // http, apiKey, oauth2, openIdConnect, mutualTLS
	Scheme string // for http: bearer, basic, ... (lower case)
	In     string // for apiKey: header, query or cookie
	Param  string // for apiKey: the header, query or cookie name
	// Flows are the names of an oauth2 scheme's flows, in document
	// order: implicit, password, clientCredentials, authorizationCode,
	// deviceAuthorization (3.2). Every flow's token is a bearer token.
	Flows []string
	// TokenURL is the tokenUrl of an oauth2 scheme's clientCredentials
	// flow, as written (it may be relative to the server), "" for none.
	TokenURL string
	// MetadataURL is an oauth2 scheme's oauth2MetadataUrl (3.2), where
	// its authorization server's metadata is (RFC 8414).
	MetadataURL string
	// Deprecated is set for a scheme the document marks deprecated
	// (3.2): it is still accepted.
	Deprecated bool
	place      // where it is written: see Place
}

// RequestBody is a declared request body.
type RequestBody struct {
	Required bool
	Content  []*Media
	place    // where it is written: see Place
}

// Media is one media type of a body, with its schema (nil if none).
type Media struct {
	Type   string // e.g. application/json, application/*
	Schema *Schema
	// Example is the media type's example (or its first named example),
	// decoded to a JSON value; HasExample says whether there is one.
	Example    any
	HasExample bool
	// Examples are the media type's named examples, decoded.
	Examples map[string]any
	// Encoding says how the properties of a form or multipart body are
	// encoded, by property name.
	Encoding map[string]Encoding
	// Seq is how the media type frames items, for a sequential type
	// (server-sent events, JSON Lines, JSON text sequences,
	// multipart/mixed); NotSequential for every other type.
	Seq stream.Sequence
	// ItemSchema describes each item of a sequential type: the media
	// type's itemSchema (3.2), else its schema, or the items of its
	// schema when that is an array (how 3.0 and 3.1 documents describe
	// streams). Nil for types that are not sequential.
	ItemSchema *Schema
	// events says how an event's fields map onto ItemSchema, for
	// text/event-stream.
	events eventShape

	form        *wire.Form // for form and multipart bodies
	exampleList []Example  // see ExampleList
	place                  // where it is written: see Place
}

// Encoding is the declared encoding of one property of a form or
// multipart body.
type Encoding struct {
	ContentType   string
	Style         string
	Explode       *bool
	AllowReserved bool
}

// Response is one declared response.
type Response struct {
	Status  string // "200", "4XX" or "default"
	Code    int    // the status code, 0 for ranges and default
	Content []*Media
	// Headers names the response headers the spec requires.
	Headers []Header
	// Links are the response's links, in document order.
	Links []Link
	place // where it is written: see Place
}

// Header is a declared response header.
type Header struct {
	Name        string
	Required    bool
	Schema      *Schema
	exampleList []Example // see ExampleList
	place                 // where it is written: see Place
}

// JSON returns the first JSON media type of the response, or nil.
func (r *Response) JSON() *Media { return firstJSON(r.Content) }

// JSON returns the first JSON media type of the body, or nil.
func (b *RequestBody) JSON() *Media { return firstJSON(b.Content) }

// Media returns the declared media type that admits mt, a media type
// without parameters in lower case: the exact type, else a range such as
// application/* or */*; nil if none does.
func (b *RequestBody) Media(mt string) *Media { return mediaFor(b.Content, mt) }

func (r *Response) media(mt string) *Media { return mediaFor(r.Content, mt) }

func mediaFor(ms []*Media, mt string) *Media {
	var rng *Media
	for _, m := range ms {
		if m.Type == mt {
			return m
		}
		if rng == nil && wire.MatchContentType(m.Type, mt) {
			rng = m
		}
	}
	return rng
}

func firstJSON(ms []*Media) *Media {
	for _, m := range ms {
		if IsJSON(m.Type) {
			return m
		}
	}
	return nil
}

// Response returns the response declared for status code: the exact code,
// then its range (4XX), then default; nil if none.
func (o *Operation) Response(code int) *Response {
	var rng *Response
	for _, r := range o.Responses {
		if r.Code == code {
			return r
		}
		if r.Code == 0 && len(r.Status) == 3 && r.Status[0] == byte('0'+code/100) {
			rng = r
		}
	}
	if rng != nil {
		return rng
	}
	return o.Default
}

// Conflict returns the status the operation answers a create of an item
// that is there already with: 409, 422 or 400, the first it declares;
// else 409 where a 4XX range or default covers it. 0 when it declares
// none of these: it has no way to say the item is there. The mock
// answers with it, and verify holds a repeated create to it.
func (o *Operation) Conflict() int {
	return o.firstOf(http.StatusConflict, http.StatusUnprocessableEntity, http.StatusBadRequest)
}

// firstOf returns the first of codes the operation declares, else the
// first where a range or default covers it, else 0.
func (o *Operation) firstOf(codes ...int) int {
	for _, c := range codes {
		if o.Declares(c) {
			return c
		}
	}
	if o.Response(codes[0]) != nil {
		return codes[0]
	}
	return 0
}

// NotFound returns the status the operation answers a request for an
// item that is not there (never made, or deleted) with: 404, 410, 400
// or 422, the first it declares; else 404 where a 4XX range or default
// covers it; else 403 where it declares it (a service may hide what a
// client cannot have). 0 when it declares none of these: it has no way
// to say the item is not there (a 401 speaks of credentials, a 429 asks
// the client to try again). The mock answers with it, and verify holds
// a read after a delete to it.
func (o *Operation) NotFound() int {
	if c := o.firstOf(http.StatusNotFound, http.StatusGone, http.StatusBadRequest, http.StatusUnprocessableEntity); c != 0 {
		return c
	}
	if o.Declares(http.StatusForbidden) {
		return http.StatusForbidden
	}
	return 0
}

// Declares reports whether the operation declares status code exactly.
func (o *Operation) Declares(code int) bool {
	for _, r := range o.Responses {
		if r.Code == code {
			return true
		}
	}
	return false
}

// Success returns the status and response of a usual answer: the lowest
// declared 2xx, else 200 when 2XX or default covers it, else (an operation
// that declares no success) the first declared response, with its code
// (a range such as 4XX gives 400). It returns 200 and nil only for an
// operation that declares no response at all.
func (o *Operation) Success() (int, *Response) {
	var best *Response
	for _, r := range o.Responses {
		if r.Code >= 200 && r.Code < 300 && (best == nil || r.Code < best.Code) {
			best = r
		}
	}
	if best != nil {
		return best.Code, best
	}
	if r := o.Response(200); r != nil {
		return 200, r
	}
	if len(o.Responses) > 0 {
		r := o.Responses[0]
		if r.Code != 0 {
			return r.Code, r
		}
		if c := r.Status[0]; c >= '1' && c <= '5' {
			return int(c-'0') * 100, r
		}
	}
	return 200, nil
}

// statusCode parses "200" to 200; ranges and default give 0.
func statusCode(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 100 || n > 599 {
		return 0
	}
	return n
}

// Styled returns how the parameter is written, its style and explode
// with the defaults of OpenAPI applied where they are not declared: form
// for query and cookie parameters, simple for path and header ones;
// explode for form alone.
func (p *Param) Styled() (style string, explode bool) {
	style = p.Style
	if style == "" {
		switch p.In {
		case "query", "cookie":
			style = "form"
		default:
			style = "simple"
		}
	}
	explode = style == "form"
	if p.Explode != nil {
		explode = *p.Explode
	}
	return style, explode
}

// unnamedParam matches a path template's parameter, {plantId}.
var unnamedParam = regexp.MustCompile(`\{[^}/]*\}`)

// Key is how an operation of one version of a document is found in
// another: its method and its path template with the parameters
// unnamed, so that GET /plants/{id} is GET /plants/{plantId}.
func (o *Operation) Key() string { return OperationKey(o.Method, o.Path) }

// OperationKey is the Key of the operation of method on the path
// template path.
func OperationKey(method, path string) string {
	return method + " " + unnamedParam.ReplaceAllString(path, "{}")
}
