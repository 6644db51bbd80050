// Package wire turns what a request carries on the wire (parameters,
// application/x-www-form-urlencoded and multipart/form-data bodies) into
// JSON values, for the caller to validate against the parameter's or the
// body's schema. It knows nothing of OpenAPI documents: the caller
// describes each schema by a Shape, each parameter by a Param, the
// encoding of form properties by Encoding. JSON values are
// map[string]any, []any, string, json.Number, bool and nil.
//
// NewParams compiles the parameters of an operation once; Params.Decode
// then reads a request, parsing its query string and its Cookie header
// once for all parameters. NewForm compiles a form body's schema and
// encodings; Form.DecodeURLEncoded and Form.DecodeMultipart read bodies.
// Problems are reported as *Error, naming the value ("query.color") and
// saying why in plain words. No input makes the package panic.
//
// The styles and explode values of OpenAPI 3.0 and 3.1 are read as the
// "Style Examples" table of the specification writes them. Where the
// specification is silent or ambiguous, this package decides as follows.
//
// # Percent-encoding and reserved characters
//
// Values are percent-decoded before anything is judged of them, so
// tags=a%2Fb is the value a/b. A malformed escape (%zz) is an error, and
// so is a decoded value that is not UTF-8. In query strings and form
// bodies '+' is a space, as in application/x-www-form-urlencoded (OpenAPI
// 3.1.1, appendix E); a plus sign is sent as %2B. Path, header and cookie
// values have no such rule.
//
// allowReserved is not enforced: a reserved character (:/?#[]@!$&'()*+,;=)
// left unencoded in a query value is accepted whether allowReserved is
// true or false. The characters whose raw presence changes a query's
// meaning ('&', '=', '+', '#' and the delimiters of the style) cannot be
// told from their intended use once sent, and the others read the same
// encoded or not; meanwhile common clients leave some of them unencoded
// (axios keeps : $ , [ ], encodeURIComponent keeps ! ' ( ) *, people
// typing URLs keep / and :). Refusing them would refuse working clients
// without catching one ambiguous value. Param therefore has no
// AllowReserved field; Encoding.AllowReserved counts only by its presence,
// which the specification gives a meaning.
//
// # Delimiters
//
// Path values are split on the delimiters of their style before they are
// decoded: %2C inside an element is a comma of its text. A query (or form
// body, or cookie) value of style form with explode false is split the
// same way when it holds a raw comma; when it holds none it is decoded
// first, so that a list whose commas were all encoded by the client
// (URLSearchParams and url.Values encode every comma) is still a list.
// spaceDelimited and pipeDelimited values are decoded, then split on
// spaces or pipes, so that %20, '+', '|' and %7C all delimit.
//
// For label style with explode false, the specification's table writes
// .blue.black.brown where RFC 6570 writes .blue,black,brown: a value
// holding a raw comma is split on commas, any other on dots. A scalar
// label or matrix value is all the text after its prefix (.1.5 is 1.5).
// Matrix style accepts a name without "=" (;color, ;R=100;G) as an empty
// value, as RFC 6570 writes it.
//
// # Types
//
// A Shape's Types decide how a value is read: as an array when arrays are
// allowed, else as an object when objects are, else as one text. The text
// of a scalar becomes a boolean for "true" or "false" when booleans are
// allowed, a json.Number when numbers or integers are allowed and it is a
// JSON number literal, nil for "null" when null is allowed and strings
// are not; these are tried before string, so "10" is a number for a
// schema allowing integers and strings. Text that fits none of them stays
// a string, for the schema to report. A shape allowing any type keeps
// text as text.
//
// # Presence, empty values and repetition
//
// ?flag and ?flag= are both present with the empty value: the empty
// string for a scalar, the empty array or object for an array or object
// (the "empty" column of the specification's table). The schema decides
// whether the empty string is allowed.
//
// A query name may repeat only for an exploded array (style form,
// spaceDelimited or pipeDelimited with explode true), each value one
// item, and for properties of an exploded object that are arrays;
// repeating any other is an error. A cookie repeated for a parameter
// taking one value is read from its first occurrence, as browsers send
// the cookie of the most specific path first.
//
// An exploded object of style form (R=100&G=200) takes its declared
// properties; one that declares none, a free-form object, takes every
// query name (or cookie) that no other parameter of the operation reads.
//
// deepObject names nest: filter[price][max]=10 is
// {"price":{"max":10}}, to 10 levels. A deepObject parameter written
// without brackets, with empty brackets (filter[]) or with a name that is
// both a value and an object is an error.
//
// # Headers and cookies
//
// The lines of a header field are joined with ", " into one list (RFC
// 9110, section 5.3). For arrays and objects the list is split on commas,
// spaces around elements dropped and empty elements ignored (section
// 5.6.1); a scalar is the whole text. Header values are not
// percent-decoded: they are not URIs. Fields that Go's server takes out of
// the request's Header are read where it keeps them: Host from
// Request.Host, Transfer-Encoding from Request.TransferEncoding (only
// chunked gets that far). Cookies are read from the Cookie header lines, pairs
// separated by ';', a double-quoted value unquoted; their values are
// percent-decoded, form style being RFC 6570's form expansion.
//
// # Form bodies
//
// A property of an application/x-www-form-urlencoded body whose encoding
// gives style, explode or allowReserved is read as a query parameter of
// that style. Otherwise its content type is used (OpenAPI 3.1.1 says the
// two are exclusive): the encoding's contentType, or by default JSON for
// an object or an array of objects and text otherwise; a repeated name is
// an array whose items each have that content type. multipart/form-data
// parts are read by content type, except the text parts of a property
// whose encoding gives a style, read as that style's pairs (OpenAPI 3.1
// and 3.2; see Encoding). Names the schema does not declare
// are properties too, read by the shape of additionalProperties.
package wire
