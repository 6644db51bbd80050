package main

// deviation is a case on which plantmock disagrees with the suite on
// purpose.
type deviation struct {
	File   string // as the report names it: draft2020-12/ref.json
	Group  string // the group's description
	Case   string // the case's description
	Reason string // why plantmock keeps the disagreement
}

// deviations are the disagreements plantmock keeps. The run fails on a
// disagreement missing here and on an entry that no longer disagrees.
var deviations = []deviation{
	{"draft2020-12/format.json", "email format", "invalid email string is only an annotation by default", assertedFormat},
	{"draft2020-12/format.json", "ipv4 format", "invalid ipv4 string is only an annotation by default", assertedFormat},
	{"draft2020-12/format.json", "ipv6 format", "invalid ipv6 string is only an annotation by default", assertedFormat},
	{"draft2020-12/format.json", "date format", "invalid date string is only an annotation by default", assertedFormat},
	{"draft2020-12/format.json", "date-time format", "invalid date-time string is only an annotation by default", assertedFormat},
	{"draft2020-12/format.json", "uri format", "invalid uri string is only an annotation by default", assertedFormat},
	{"draft2020-12/format.json", "uuid format", "invalid uuid string is only an annotation by default", assertedFormat},
}

// assertedFormat is why plantmock checks some formats that JSON Schema
// 2020-12 makes annotations by default: a mock that let a malformed uuid
// or date through would hide the client's bug until the real server
// refuses it.
const assertedFormat = "plantmock asserts this format (see the list of asserted formats in docs/answers.md)"
