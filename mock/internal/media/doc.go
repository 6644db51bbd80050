// Package media chooses the media type of a response and writes bodies of
// it. It serves every media type a response declares, not only JSON.
//
// Negotiate picks, among the media types a response offers, the one an
// Accept header prefers, and ContentType names the type to send when the
// offered one is a range (application/*, */*). KindOf tells how a media
// type is written: JSON, XML, Form and Text bodies are written from a JSON
// value by Encode (Writable reports this); Binary bodies (images,
// documents, archives, application/octet-stream and every type the
// package does not know) come from Sample, or from Encode when a string
// stands for the octets. JSON values are map[string]any, []any, string,
// json.Number, bool and nil, as package jsonx decodes them.
//
// The answer path calls, in order:
//
//	i, ok := media.Negotiate(r.Header.Get("Accept"), offered) // !ok: 406, or the first
//	ct := media.ContentType(offered[i], accept)
//	if media.Writable(ct) {
//		body, err = media.Encode(ct, value, schema) // err: fall back
//	} else {
//		body = media.Sample(ct, schema)
//	}
//
// # Negotiation
//
// Accept is read by RFC 9110, section 12.5.1: a list of media ranges
// with parameters and a weight q (0 to 1, three decimals; q=0 is "not
// acceptable"), compared case-insensitively. Malformed elements (no
// subtype, */json, a weight like q=2 or q=high) are skipped, so that a
// mistyped element does not spoil the header; a header with no
// well-formed element counts as absent, and an absent one accepts the
// first offered type.
//
// A concrete offered type takes the weight of the most specific range
// that matches it (text/html;level=1 before text/html before text/*
// before */*); a range with parameters matches only a type with the same
// parameters, values compared case-insensitively. The offered type with
// the highest weight wins; equal weights go to the one matched by the
// more specific range, so Accept: application/json, */* prefers JSON over
// an earlier text/html, and then to the earlier offered type. Offered
// ranges take the weight of the best type they could send. A subtype
// "*+json" (application/*+json) is a range of the types with that
// suffix.
//
// Reading a header allocates nothing for up to 16 elements.
//
// # Encoding
//
// JSON is compact with object keys sorted, as jsonx writes it; NDJSON
// writes an array's items one a line. XML follows the schemas' xml objects
// (see appendXML for the rules); null is an empty element, so that the
// elements of an object and the items of an array are all present, and a
// null attribute is left out. Form bodies write an object's properties as
// name=value pairs, declared properties first, in the schema's order,
// then the others sorted; XML and CSV use the same order. Text writes
// strings as they are; text/csv writes objects as rows under a header,
// text/html shows a value that is not a string in a small HTML document.
//
// Bodies are UTF-8 whatever charset parameter the media type has.
//
// Values a media type cannot carry (an array as a form, a number as an
// image) are errors wrapping ErrUnwritable; no value makes the package
// panic.
package media
