package problem

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// ErrorShape writes error bodies in the shape of a declared error schema,
// whatever its type. It is worked out once per schema and checked then;
// rendering only appends bytes.
//
// An error has four parts: the Code, the HTTP status, the message and the
// status text. The shape puts them where the schema has room, by type:
//
//   - object: each property in order. An integer or number property named
//     status, statusCode or status_code gets the HTTP status; any other
//     one (error, code, ...) gets the Code, the first such one only. A
//     string enum property gets the value that names the problem (see
//     errorenum.go), when it is required or some value names a problem.
//     A string property whose name says message (messageLike: message,
//     detail, description, errorDescription, error_message, ...) gets the
//     message; title, or error when a message property exists too, gets
//     the status text. Without such a message property, title gets the
//     message, else the first required string property, else the first
//     object, array or alternatives property that can carry it, fitted by
//     these rules in turn ({"error": {"code": ..., "message": ...}}). Any
//     other required property gets a valid value generated from its
//     schema; other optional properties are left out. An object without
//     properties is {"error": code, "message": text}, unless it is a
//     property's value.
//   - integer or number: the HTTP status.
//   - string: the message.
//   - array: the error in the items' shape, once or minItems times.
//   - anyOf, oneOf: the first alternative that carries the message and is
//     valid against the whole, else the first valid one.
//   - allOf: merged into one schema first, then as above.
//   - string enum: the value that names the problem.
//   - boolean, null, const, other enums: a valid value.
//
// Each part is held to its own schema. A number gets the status or the
// Code, whichever its schema admits (the Code first for a property that
// is not a status); a status, Code or status text the schema does not
// admit is replaced, for that answer, by a valid value. The message is cut
// to maxLength characters and padded with spaces to minLength; when its
// schema has a pattern, an enum or a const, or refuses sample messages (a
// format, say), a valid value stands instead. A shape whose sample bodies
// break the whole schema is replaced by a valid value generated from it.
//
// Without a schema the body is {"error": code, "message": text}.
type ErrorShape struct {
	ContentType string
	segs        []segment
}

// Body renders the answer to p with status, afresh each time. Rendering
// the refusal of a request without credentials once and sharing the
// bytes saved no processor time that paired runs could tell from noise
// (.ci/bench, 10 alternate pairs a mix of 3 s, without credentials: 29.1
// against 30.6 µs a request, standard error 1.1; requests/s 1.04 +/-
// 0.03), for a cache per shape and a mark on every problem.
func (sh *ErrorShape) Body(status int, p *Problem) []byte {
	return sh.Render(make([]byte, 0, 128+len(p.Message)), status, p.Code, p.Text())
}

type fieldRole uint8

const (
	roleNone fieldRole = iota
	roleCode
	roleStatus
	roleMessage
	roleTitle
	roleChoice
)

// segment is literal JSON followed by one part of the error.
type segment struct {
	lit  []byte    // written first
	role fieldRole // then this part of the error, or nothing for roleNone
	// fits lists the values of the part (codes; statuses for roleStatus
	// and roleTitle) the schema admits; nil when it admits them all.
	fits []int64
	alt  []byte // the valid value written for a part the schema does not admit
	// minLen and maxLen bound the message, in characters; maxLen < 0 is
	// no bound.
	minLen, maxLen int
	// choices are the values of an enum (roleChoice), and picks the one
	// chosen for each Code (by ErrorCodes' order) and status (by
	// ErrorStatuses'), worked out once.
	choices []choice
	picks   []uint8
}

// DefaultShape is {"error": code, "message": text}, for answers of no
// declared schema.
var DefaultShape = &ErrorShape{
	ContentType: "application/json",
	segs: []segment{
		{lit: []byte(`{"error":`), role: roleCode},
		{lit: []byte(`,"message":`), role: roleMessage, maxLen: -1},
		{lit: []byte(`}`)},
	},
}

// ErrorStatuses are the statuses error answers are given with.
var ErrorStatuses = []int64{400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 500}

// codeValues returns the error codes as numbers.
func codeValues() []int64 {
	out := make([]int64, len(ErrorCodes))
	for i, c := range ErrorCodes {
		out[i] = int64(c)
	}
	return out
}

// sampleMessages stand for every message when a schema is checked: the
// shortest, one with quotes and non-ASCII letters, and a long one.
var sampleMessages = []string{
	"x",
	`missing credentials: send "Authorization: Bearer <token>" (ünïcödé)`,
	strings.Repeat("the request body breaks the schema; ", 30),
}

// maxFitDepth bounds how deep the message is looked for; deeper parts are
// generated.
const maxFitDepth = 8

// ErrorShapes makes the error shape of each schema and media type once.
type ErrorShapes map[shapeKey]*ErrorShape

type shapeKey struct {
	schema      *openapi.Schema
	contentType string
}

// Of returns the error shape of m: defaultShape, for m nil or without a
// schema.
func (c ErrorShapes) Of(m *openapi.Media) *ErrorShape {
	var k shapeKey
	if m != nil && m.Schema != nil {
		k = shapeKey{m.Schema, media.TypeOf(m)}
	}
	sh := c[k]
	if sh == nil {
		sh = newErrorShape(m)
		c[k] = sh
	}
	return sh
}

func newErrorShape(m *openapi.Media) *ErrorShape {
	if m == nil || m.Schema == nil {
		return DefaultShape
	}
	s := m.Schema
	var f fitter
	fr, _ := f.fit(s, "", false, 0)
	sh := &ErrorShape{ContentType: media.TypeOf(m), segs: fr.segs()}
	if !sh.conforms(s) {
		if v, ok := validValue(s); ok {
			sh.segs = []segment{{lit: jsonx.Marshal(v)}}
		}
	}
	return sh
}

// conforms reports whether the shape's bodies for sample answers are
// valid against s.
func (sh *ErrorShape) conforms(s *openapi.Schema) bool {
	for i, msg := range sampleMessages {
		status := ErrorStatuses[i%len(ErrorStatuses)]
		if !valid(s, sh.Render(nil, int(status), ErrorCodes[i*7%len(ErrorCodes)], msg)) {
			return false
		}
	}
	return true
}

// Render appends to buf the error body of a problem with code and msg,
// answered with status, in the shape.
func (sh *ErrorShape) Render(buf []byte, status int, code Code, msg string) []byte {
	for i := range sh.segs {
		sg := &sh.segs[i]
		buf = append(buf, sg.lit...)
		switch sg.role {
		case roleCode:
			if sg.fits != nil && !slices.Contains(sg.fits, int64(code)) {
				buf = append(buf, sg.alt...)
				break
			}
			buf = strconv.AppendInt(buf, int64(code), 10)
		case roleStatus:
			if sg.fits != nil && !slices.Contains(sg.fits, int64(status)) {
				buf = append(buf, sg.alt...)
				break
			}
			buf = strconv.AppendInt(buf, int64(status), 10)
		case roleTitle:
			if sg.fits != nil && !slices.Contains(sg.fits, int64(status)) {
				buf = append(buf, sg.alt...)
				break
			}
			buf = jsonx.AppendString(buf, http.StatusText(status))
		case roleMessage:
			buf = jsonx.AppendString(buf, sg.bound(msg))
		case roleChoice:
			buf = append(buf, sg.choose(code, status)...)
		}
	}
	return buf
}

// choose returns the enum value that names the problem with code and
// status.
func (sg *segment) choose(code Code, status int) []byte {
	ci, si := slices.Index(ErrorCodes, code), slices.Index(ErrorStatuses, int64(status))
	if ci >= 0 && si >= 0 {
		return sg.choices[sg.picks[ci*len(ErrorStatuses)+si]].lit
	}
	i, _ := pick(sg.choices, code, status)
	return sg.choices[i].lit
}

// bound cuts msg to maxLen characters and pads it with spaces to minLen.
func (sg *segment) bound(msg string) string {
	if sg.maxLen >= 0 && len(msg) > sg.maxLen {
		if r := []rune(msg); len(r) > sg.maxLen {
			msg = string(r[:sg.maxLen])
		}
	}
	if sg.minLen > 0 {
		if n := utf8.RuneCountInString(msg); n < sg.minLen {
			msg += strings.Repeat(" ", sg.minLen-n)
		}
	}
	return msg
}

// fragment is part of a shape under construction: literal JSON and parts
// of the error, in order.
type fragment struct {
	done []segment
	lit  []byte // literal JSON after done
}

func (fr *fragment) text(s string) { fr.lit = append(fr.lit, s...) }

func (fr *fragment) part(sg segment) {
	sg.lit = append(fr.lit, sg.lit...)
	fr.done = append(fr.done, sg)
	fr.lit = nil
}

func (fr *fragment) add(o fragment) {
	for _, sg := range o.done {
		fr.part(sg)
	}
	fr.lit = append(fr.lit, o.lit...)
}

func (fr *fragment) segs() []segment {
	if len(fr.lit) == 0 {
		return fr.done
	}
	return append(fr.done, segment{lit: fr.lit})
}

// static is the fragment of one fixed JSON value.
func static(v []byte) fragment { return fragment{lit: v} }

// fitter works out the shape of error bodies for a schema.
type fitter struct {
	// steps counts the schemas fitted; past maxFitSteps (alternatives
	// within alternatives, say), the rest is generated.
	steps int
}

const maxFitSteps = 256

// fit returns the fragment for an error in schema s, the value of a
// property named name when inProperty (else the body, an item or an
// alternative), and whether the fragment carries the message.
func (f *fitter) fit(s *openapi.Schema, name string, inProperty bool, depth int) (fragment, bool) {
	f.steps++
	if s == nil || s.Never || depth > maxFitDepth || f.steps > maxFitSteps {
		if s == nil && !inProperty {
			return defaultFragment(), true
		}
		return static(generated(s)), false
	}
	if s.HasConst || len(s.Enum) > 0 {
		if isNumber(s) {
			return f.number(s, name), false
		}
		if cs := choices(s); len(cs) > 1 {
			return f.choice(cs), false
		}
		return static(generated(s)), false
	}
	if len(s.AnyOf) > 0 && len(s.Types) == 0 && len(s.Properties) == 0 {
		return f.alternatives(s, name, inProperty, depth)
	}
	switch kind(s) {
	case "object":
		if len(s.Properties) == 0 {
			if inProperty || s.NoAdditionalProperties {
				return static(generated(s)), false
			}
			return defaultFragment(), true
		}
		return f.object(s, depth)
	case "array":
		return f.array(s, name, inProperty, depth)
	case "integer", "number":
		return f.number(s, name), false
	case "string":
		sg, ok := f.message(s)
		if !ok {
			return static(sg.alt), false
		}
		var fr fragment
		fr.part(sg)
		return fr, true
	case "":
		if !inProperty {
			return defaultFragment(), true
		}
	}
	return static(generated(s)), false
}

// defaultFragment is {"error": code, "message": text}.
func defaultFragment() fragment {
	var fr fragment
	for _, sg := range DefaultShape.segs {
		if sg.role == roleNone {
			fr.text(string(sg.lit))
			continue
		}
		fr.part(sg)
	}
	return fr
}

func (f *fitter) object(s *openapi.Schema, depth int) (fragment, bool) {
	hasMessage, titled := false, false
	for _, p := range s.Properties {
		if p.Schema.Is("string") {
			hasMessage = hasMessage || messageLike(p.Name)
			titled = titled || strings.EqualFold(p.Name, "title")
		}
	}
	// Without a message property, the title carries the message.
	titleMessage := titled && !hasMessage
	hasMessage = hasMessage || titled
	var fr fragment
	fr.text("{")
	n := 0
	add := func(name string, v fragment) {
		if n > 0 {
			fr.text(",")
		}
		fr.lit = append(jsonx.AppendString(fr.lit, name), ':')
		fr.add(v)
		n++
	}
	haveCode, haveMessage, haveTitle := false, false, false
	for _, p := range s.Properties {
		name := strings.ToLower(p.Name)
		ps := p.Schema
		cs := choices(ps)
		switch {
		case isNumber(ps) && (name == "status" || name == "statuscode" || name == "status_code"):
			add(p.Name, f.number(ps, "status"))
		case isNumber(ps) && !haveCode:
			add(p.Name, f.number(ps, "code"))
			haveCode = true
		case len(cs) > 0 && (s.Requires(p.Name) || speaksOfErrors(cs)):
			v, _ := f.fit(ps, p.Name, true, depth+1)
			add(p.Name, v)
		case ps.Is("string") && (messageLike(name) || titleMessage && name == "title") && !haveMessage:
			v, ok := f.fit(ps, p.Name, true, depth+1)
			if ok || s.Requires(p.Name) {
				add(p.Name, v)
				haveMessage = ok
			}
		case ps.Is("string") && !haveTitle && (name == "title" || (name == "error" && hasMessage)):
			add(p.Name, f.title(ps))
			haveTitle = true
		case ps.Is("string") && !haveMessage && !hasMessage && s.Requires(p.Name),
			!haveMessage && !hasMessage && carrier(ps):
			v, ok := f.fit(ps, p.Name, true, depth+1)
			if ok || s.Requires(p.Name) {
				add(p.Name, v)
				haveMessage = ok
			}
		case s.Requires(p.Name):
			add(p.Name, static(generated(ps)))
		}
	}
	fr.text("}")
	return fr, haveMessage
}

// carrier reports whether a property of schema s may hold the message
// deeper down: an object, an array or alternatives.
func carrier(s *openapi.Schema) bool {
	if s == nil || s.HasConst || len(s.Enum) > 0 {
		return false
	}
	switch kind(s) {
	case "object", "array":
		return true
	case "":
		return len(s.AnyOf) > 0
	}
	return false
}

func (f *fitter) array(s *openapi.Schema, name string, inProperty bool, depth int) (fragment, bool) {
	n := int64(1)
	if s.MinItems != nil {
		n = max(n, *s.MinItems)
	}
	if s.MaxItems != nil {
		n = min(n, *s.MaxItems)
	}
	if n > 16 {
		return static(generated(s)), false
	}
	item, carries := f.fit(s.Items, name, inProperty, depth+1)
	var fr fragment
	fr.text("[")
	for i := int64(0); i < n; i++ {
		if i > 0 {
			fr.text(",")
		}
		fr.add(item)
	}
	fr.text("]")
	return fr, carries && n > 0
}

// alternatives picks the first alternative of s that carries the message
// and is valid against s, else the first that is valid, else a value
// generated from s; when none is found, the first that carries the
// message.
func (f *fitter) alternatives(s *openapi.Schema, name string, inProperty bool, depth int) (fragment, bool) {
	var valid, carrying *fragment
	for _, a := range s.AnyOf {
		if a.Never {
			continue
		}
		fr, carries := f.fit(a, name, inProperty, depth+1)
		sh := ErrorShape{segs: fr.segs()}
		ok := sh.conforms(s)
		switch {
		case ok && carries:
			return fr, true
		case ok && valid == nil:
			valid = &fr
		case carries && carrying == nil:
			carrying = &fr
		}
	}
	if valid != nil {
		return *valid, false
	}
	if v, ok := validValue(s); ok || carrying == nil {
		return static(jsonx.Marshal(v)), false
	}
	return *carrying, true
}

// number is the fragment of a number for the status (name "status", or
// the body) or the Code (name "code"), whichever s admits, the named one
// first.
func (f *fitter) number(s *openapi.Schema, name string) fragment {
	asNumber := func(v int64) any { return json.Number(strconv.FormatInt(v, 10)) }
	order := []fieldRole{roleStatus, roleCode}
	if name == "code" {
		order = []fieldRole{roleCode, roleStatus}
	}
	for _, role := range order {
		values := ErrorStatuses
		if role == roleCode {
			values = codeValues()
		}
		a := fitting(s, values, asNumber)
		if !a.any {
			continue
		}
		sg := segment{role: role, fits: a.fits}
		if sg.fits != nil {
			sg.alt = generated(s)
		}
		var fr fragment
		fr.part(sg)
		return fr
	}
	return static(generated(s))
}

// title is the fragment of the status text, for the statuses s admits.
func (f *fitter) title(s *openapi.Schema) fragment {
	t := fitting(s, ErrorStatuses, func(v int64) any { return http.StatusText(int(v)) })
	if !t.any {
		return static(generated(s))
	}
	sg := segment{role: roleTitle, fits: t.fits}
	if sg.fits != nil {
		sg.alt = generated(s)
	}
	var fr fragment
	fr.part(sg)
	return fr
}

// message returns the segment of the message in string schema s, and
// whether s admits every message once cut and padded to its length
// bounds; when it does not, the segment's alt is a valid value instead.
func (f *fitter) message(s *openapi.Schema) (segment, bool) {
	sg := segment{role: roleMessage, maxLen: -1}
	if s.MaxLength != nil {
		sg.maxLen = int(min(*s.MaxLength, 1<<20))
	}
	if s.MinLength != nil {
		sg.minLen = int(min(*s.MinLength, 1<<20))
	}
	ok := s.Pattern == "" && !s.HasConst && len(s.Enum) == 0 && sg.minLen <= 1024 && sg.maxLen != 0
	for _, msg := range sampleMessages {
		if !ok {
			break
		}
		ok = len(s.Validate(sg.bound(msg))) == 0
	}
	if !ok {
		return segment{alt: generated(s)}, false
	}
	return sg, true
}

// admitted is which of a set of values a schema admits.
type admitted struct {
	any  bool    // some value is admitted
	fits []int64 // the admitted values; nil when all are
}

func fitting(s *openapi.Schema, values []int64, as func(int64) any) admitted {
	var fits []int64
	for _, v := range values {
		if len(s.Validate(as(v))) == 0 {
			fits = append(fits, v)
		}
	}
	switch len(fits) {
	case 0:
		return admitted{}
	case len(values):
		return admitted{any: true}
	}
	return admitted{any: true, fits: fits}
}

// generated returns a valid value for s as JSON: its const, its first
// enum value, else one generated from it and checked; when none is found,
// one generated from it.
func generated(s *openapi.Schema) []byte {
	v, _ := validValue(s)
	return jsonx.Marshal(v)
}

// validValue returns a value s admits, and whether it found one; when it
// found none, the value is one generated from s.
func validValue(s *openapi.Schema) (any, bool) {
	switch {
	case s == nil:
		return map[string]any{}, true
	case s.HasConst && len(s.Validate(s.Const)) == 0:
		return s.Const, true
	}
	for _, v := range s.Enum {
		if len(s.Validate(v)) == 0 {
			return v, true
		}
	}
	var first any
	for seed := uint64(1); seed <= 4; seed++ {
		v, err := jsonx.Normalize(gen.Value(s, gen.Faker(seed, 0)))
		if err != nil {
			continue
		}
		if len(s.Validate(v)) == 0 {
			return v, true
		}
		if seed == 1 {
			first = v
		}
	}
	return first, false
}

// valid reports whether body is JSON that s admits.
func valid(s *openapi.Schema, body []byte) bool {
	v, err := jsonx.Decode(body)
	return err == nil && len(s.Validate(v)) == 0
}

func isNumber(s *openapi.Schema) bool { return s.Is("integer") || s.Is("number") }

// kind is the JSON type of s's values other than null, or "" when s does
// not say.
func kind(s *openapi.Schema) string {
	for _, t := range s.Types {
		if t != "null" {
			return t
		}
	}
	switch {
	case len(s.Types) > 0:
		return "null"
	case len(s.Properties) > 0:
		return "object"
	case s.Items != nil:
		return "array"
	}
	return ""
}

// messageLike reports whether a property's name says it holds the
// explanation of an error: message, detail(s), description, msg, reason,
// and each of them after "error" (errorDescription, error_message), in
// any case, with or without separators.
func messageLike(name string) bool {
	n := strings.TrimPrefix(openapi.Squash(name), "error")
	switch n {
	case "message", "msg", "detail", "details", "description", "reason":
		return true
	}
	return false
}

// choice is the fragment of an enum's value chosen for each answer.
func (f *fitter) choice(cs []choice) fragment {
	sg := segment{role: roleChoice, choices: cs, picks: make([]uint8, len(ErrorCodes)*len(ErrorStatuses))}
	for ci, c := range ErrorCodes {
		for si, st := range ErrorStatuses {
			i, _ := pick(cs, c, int(st))
			sg.picks[ci*len(ErrorStatuses)+si] = uint8(i)
		}
	}
	var fr fragment
	fr.part(sg)
	return fr
}
