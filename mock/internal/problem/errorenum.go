package problem

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// An error schema's string enums (error: [record_not_found,
// url_not_found], code: [INVALID_ARGUMENT, NOT_FOUND, ...]) get the value
// that best names the problem answered: the one whose words match most of
// the problem's, weighed by their length, so that a 404 for an unknown
// path is url_not_found and one for an unknown identifier
// record_not_found. The problem's words are its status text and number,
// and the words of its Code below. Ties go to the first value in the
// enum's order; without any match, the first value.

// CodeWords are the words, lower case and without separators, that name
// each Code's problem.
var CodeWords = map[Code][]string{
	CodeBodyMissing:    {"missing", "required", "empty", "body", "request", "invalid"},
	CodeBodyNotJSON:    {"malformed", "parse", "json", "syntax", "body", "request", "invalid"},
	CodeContentType:    {"unsupportedmediatype", "mediatype", "contenttype", "unsupported", "request"},
	CodeBodyTooLarge:   {"toolarge", "payload", "size", "limit", "request"},
	CodeSchema:         {"validation", "invalid", "schema", "unprocessable", "body", "request"},
	CodeParameter:      {"parameter", "param", "query", "invalid", "validation", "request"},
	CodeScenario:       {"header", "invalid", "request"},
	CodePrefer:         {"header", "invalid", "request"},
	CodeSession:        {"header", "invalid", "request"},
	CodeFull:           {"limit", "quota", "exceeded", "full", "capacity"},
	CodeWebhook:        {"notfound", "webhook"},
	CodeNoCredentials:  {"unauthorized", "unauthenticated", "authentication", "credentials", "missing", "auth"},
	CodeBadCredentials: {"unauthorized", "unauthenticated", "authentication", "credentials", "invalid", "auth"},
	CodeTokenRejected:  {"unauthorized", "unauthenticated", "authentication", "token", "invalid", "auth"},
	CodeForbidden:      {"forbidden", "permission", "denied", "access"},
	CodeNoRoute:        {"notfound", "url", "path", "route", "endpoint", "uri"},
	CodeNotFound:       {"notfound", "record", "resource", "item", "entity", "object"},
	CodeMethod:         {"methodnotallowed", "notallowed", "method"},
	CodeNotAcceptable:  {"notacceptable", "accept"},
	CodeDuplicate:      {"conflict", "duplicate", "exists", "already"},
	CodeInternal:       {"internal", "servererror", "unexpected"},
	CodeBadGateway:     {"badgateway", "upstream", "gateway"},
	CodeUnavailable:    {"unavailable", "timeout", "retry"},
	CodeGatewayTimeout: {"gatewaytimeout", "timeout", "upstream", "gateway"},
}

// choice is one value of an enum an error part may take.
type choice struct {
	words string // the value lower case, letters and digits only
	lit   []byte // the value as JSON
}

// choices returns the values of s's enum that s admits, when it has one
// of strings only (and no const); nil otherwise.
func choices(s *openapi.Schema) []choice {
	if s == nil || s.HasConst || len(s.Enum) == 0 {
		return nil
	}
	var out []choice
	for _, v := range s.Enum {
		str, ok := v.(string)
		if !ok {
			return nil
		}
		if len(s.Validate(v)) == 0 {
			out = append(out, choice{words: openapi.Squash(str), lit: jsonx.Marshal(str)})
		}
	}
	return out[:min(len(out), 256)] // a segment picks by a byte
}

// speaksOfErrors reports whether some value of cs names some problem: an
// optional enum property whose values do not (a colour, a severity) is
// left out of error bodies.
func speaksOfErrors(cs []choice) bool {
	for _, c := range ErrorCodes {
		for _, st := range ErrorStatuses {
			if _, n := pick(cs, c, int(st)); n > 0 {
				return true
			}
		}
	}
	return false
}

// pick returns the index of the choice that best names the problem with
// code and status, and its score; (0, 0) when none matches.
func pick(cs []choice, code Code, status int) (best int, score int) {
	words := CodeWords[code]
	text := openapi.Squash(http.StatusText(status))
	num := strconv.Itoa(status)
	for i, c := range cs {
		n := 0
		for _, w := range words {
			if strings.Contains(c.words, w) && w != text {
				n += len(w)
			}
		}
		if text != "" && strings.Contains(c.words, text) {
			n += len(text)
		}
		if strings.Contains(c.words, num) {
			n += len(num)
		}
		if n > score {
			best, score = i, n
		}
	}
	return best, score
}
