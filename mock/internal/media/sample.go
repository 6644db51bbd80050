package media

import (
	"encoding/base64"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Sample returns a small valid body of the media type, for answers that
// cannot be generated from the schema, above all Binary ones:
//
//	image/png                   a 1x1 grey PNG (71 bytes)
//	image/gif                   a 1x1 GIF (35 bytes)
//	image/jpeg, image/jpg       a 1x1 grey baseline JPEG (159 bytes)
//	image/svg+xml               a 1x1 empty SVG document
//	application/pdf             a one-page empty PDF, 1 inch square
//	application/zip             an empty ZIP archive
//	application/gzip            the gzip of nothing
//	audio/wav, audio/x-wav      a WAV file of no samples (8 kHz, 8-bit mono)
//	other Binary types          the eight octets 00 01 02 ... 07
//
// For the other kinds it is an empty body of the kind: {} (or [] when s
// is an array schema) for JSON, an empty root element for XML, nothing
// for Form and Text. When s says the body is base64 text (format byte or
// base64), a Binary sample is base64-encoded. A range is sampled as the
// type ContentType sends for it without an Accept header, and a bare
// token (gzip) as application/TOKEN. The result is the caller's to keep.
func Sample(mediaType string, s *openapi.Schema) []byte {
	if Bare(mediaType) {
		mediaType = "application/" + mediaType
	}
	r, ok := parseRange(mediaType)
	if ok && !r.concrete() {
		r, ok = fallback(&r)
	}
	if !ok {
		r = known(octetStream)
	}
	switch kindOf(&r) {
	case JSON:
		if s.Is("array") {
			return []byte("[]")
		}
		return []byte("{}")
	case XML:
		return appendXML(nil, nil, s)
	case Form, Text:
		return []byte{}
	}
	body := sampleOf(&r)
	if base64Text(s) {
		return base64.StdEncoding.AppendEncode(nil, []byte(body))
	}
	return []byte(body)
}

// sampleOf returns the sample of a concrete Binary type.
func sampleOf(r *mediaRange) string {
	typ, sub := strings.ToLower(r.typ), strings.ToLower(r.sub)
	switch typ + "/" + sub {
	case "image/png":
		return samplePNG
	case "image/gif":
		return sampleGIF
	case "image/jpeg", "image/jpg", "image/pjpeg":
		return sampleJPEG
	case "image/svg+xml":
		return sampleSVG
	case "application/pdf", "application/x-pdf":
		return samplePDF
	case "application/zip", "application/x-zip-compressed":
		return sampleZIP
	case "application/gzip", "application/x-gzip":
		return sampleGzip
	case "audio/wav", "audio/wave", "audio/x-wav", "audio/vnd.wave":
		return sampleWAV
	}
	return sampleOctets
}

// The samples. Their tests decode each with the standard library, or
// check its structure where there is no decoder.
const (
	samplePNG = "\x89PNG\r\n\x1a\n" +
		"\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\b\x00\x00\x00\x00:~\x9bU" +
		"\x00\x00\x00\x0eIDATx\xdab\xfa\x0f\b\x00\x00\xff\xff\x01\x05\x01\x02G\xb5w\xbb" +
		"\x00\x00\x00\x00IEND\xaeB`\x82"

	sampleGIF = "GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00" +
		",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"

	// sampleJPEG is a baseline JPEG of one 8x8 block whose Huffman tables
	// have one code each: DC difference 0 and end of block.
	sampleJPEG = "\xff\xd8" + // SOI
		"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + // APP0
		"\xff\xdb\x00\x43\x00" + // DQT, table 0, all ones
		"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
		"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
		"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
		"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
		"\xff\xc0\x00\x0b\x08\x00\x01\x00\x01\x01\x01\x11\x00" + // SOF0, 1x1, one component
		"\xff\xc4\x00\x14\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" + // DHT DC 0
		"\xff\xc4\x00\x14\x10\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" + // DHT AC 0
		"\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00" + // SOS
		"\x3f" + // the codes 0 and 0, padded with ones
		"\xff\xd9" // EOI

	sampleSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>` + "\n"

	samplePDF = "%PDF-1.4\n" +
		"1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n" +
		"2 0 obj\n<</Type/Pages/Kids[3 0 R]/Count 1>>\nendobj\n" +
		"3 0 obj\n<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>\nendobj\n" +
		"xref\n0 4\n" +
		"0000000000 65535 f \n" +
		"0000000009 00000 n \n" +
		"0000000054 00000 n \n" +
		"0000000105 00000 n \n" +
		"trailer\n<</Size 4/Root 1 0 R>>\nstartxref\n168\n%%EOF\n"

	sampleZIP = "PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

	sampleGzip = "\x1f\x8b\b\x00\x00\x00\x00\x00\x02\xff\x01\x00\x00\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00"

	sampleWAV = "RIFF\x24\x00\x00\x00WAVE" +
		"fmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x40\x1f\x00\x00\x01\x00\x08\x00" +
		"data\x00\x00\x00\x00"

	sampleOctets = "\x00\x01\x02\x03\x04\x05\x06\x07"
)
