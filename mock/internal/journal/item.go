package journal

import "time"

// Item is one item of a streamed answer, told as it is sent: before the
// answer's entry, which is written when the stream ends. Time, Method
// and Path are the entry's to be, so that a reader can tell which entry
// the items were of.
type Item struct {
	Time      time.Time `json:"time"` // when the request arrived: the entry's Time
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	Session   string    `json:"session,omitempty"`
	Document  string    `json:"document,omitempty"`
	Operation string    `json:"operation,omitempty"`
	// N is the item's place in the stream, from 1; Of is how many the
	// stream has.
	N  int `json:"n"`
	Of int `json:"of"`
	// Text is the item as sent, its first MaxItemText bytes.
	Text string `json:"text"`
}

// MaxItemText is the most of an item's text an Item holds.
const MaxItemText = 1024
