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
var deviations = []deviation{}
