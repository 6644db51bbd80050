package mock

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// errorShape writes error bodies in the shape of a declared error schema.
// It is worked out once per schema; rendering only appends bytes.
//
// The rule, for each property of the schema in order:
//   - an integer or number property named status or statusCode gets the
//     HTTP status; any other integer property (error, code, ...) gets the
//     Code, the first such one only;
//   - a string property named message, detail, details, description,
//     error_description, msg or reason gets the message; title, or error
//     when a message property exists too, gets the status text;
//   - any other required property gets a value generated from its schema;
//     other optional properties are left out.
//
// Without a usable object schema the body is {"error": code, "message": text}.
type errorShape struct {
	contentType string
	fields      []errorField
	message     *openapi.Schema // the schema of the message property, for maxLength
}

type fieldRole uint8

const (
	roleCode fieldRole = iota
	roleStatus
	roleMessage
	roleTitle
	roleStatic
)

type errorField struct {
	key    []byte // `"name":`
	role   fieldRole
	static []byte // roleStatic: the JSON value
}

var defaultShape = &errorShape{
	contentType: "application/json",
	fields: []errorField{
		{key: []byte(`"error":`), role: roleCode},
		{key: []byte(`"message":`), role: roleMessage},
	},
}

func newErrorShape(m *openapi.Media) *errorShape {
	if m == nil || m.Schema == nil || !m.Schema.Is("object") || len(m.Schema.Properties) == 0 {
		return defaultShape
	}
	s := m.Schema
	sh := &errorShape{contentType: contentTypeOf(m)}
	hasMessage := false
	for _, p := range s.Properties {
		if messageNames[strings.ToLower(p.Name)] && p.Schema.Is("string") {
			hasMessage = true
		}
	}
	haveCode, haveMessage, haveTitle := false, false, false
	for _, p := range s.Properties {
		name := strings.ToLower(p.Name)
		f := errorField{key: append(jsonx.AppendString(nil, p.Name), ':'), role: roleStatic}
		ps := p.Schema
		switch {
		case (ps.Is("integer") || ps.Is("number")) && (name == "status" || name == "statuscode" || name == "status_code"):
			f.role = roleStatus
		case (ps.Is("integer") || ps.Is("number")) && !haveCode:
			f.role, haveCode = roleCode, true
		case ps.Is("string") && messageNames[name] && !haveMessage:
			f.role, haveMessage = roleMessage, true
			sh.message = ps
		case ps.Is("string") && !haveTitle && (name == "title" || (name == "error" && hasMessage)):
			f.role, haveTitle = roleTitle, true
		case ps.Is("string") && !haveMessage && !hasMessage && s.Requires(p.Name):
			f.role, haveMessage = roleMessage, true
			sh.message = ps
		case s.Requires(p.Name):
			f.static = jsonx.Marshal(gen.Value(ps, gen.Faker(1, 0)))
		default:
			continue
		}
		sh.fields = append(sh.fields, f)
	}
	return sh
}

var messageNames = map[string]bool{
	"message": true, "detail": true, "details": true, "description": true,
	"error_description": true, "msg": true, "reason": true,
}

func (sh *errorShape) render(buf []byte, status int, code Code, msg string) []byte {
	buf = append(buf, '{')
	for i, f := range sh.fields {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, f.key...)
		switch f.role {
		case roleCode:
			buf = strconv.AppendInt(buf, int64(code), 10)
		case roleStatus:
			buf = strconv.AppendInt(buf, int64(status), 10)
		case roleMessage:
			if sh.message != nil && sh.message.MaxLength != nil && int64(len(msg)) > *sh.message.MaxLength {
				r := []rune(msg)
				if int64(len(r)) > *sh.message.MaxLength {
					msg = string(r[:*sh.message.MaxLength])
				}
			}
			buf = jsonx.AppendString(buf, msg)
		case roleTitle:
			buf = jsonx.AppendString(buf, http.StatusText(status))
		default:
			buf = append(buf, f.static...)
		}
	}
	return append(buf, '}')
}
