package answer

import (
	"fmt"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// PreferDefault is the preference a mock applies to every request to the
// mocked API, as if each carried it in a Prefer header of its own
// (Options.Prefer). A preference the request's own Prefer header gives
// wins over the default's of the same name; the default's others still
// apply. The zero value applies nothing.
type PreferDefault struct {
	text  string       // the items, as given, with ", " between
	items []preferItem // the same, one by one
	pref  Preference   // the items read alone: a request without Prefer gets it
}

// preferItem is one name=value of a default preference.
type preferItem struct{ name, text string }

// ParsePreferDefault reads a default preference written as a Prefer
// header is ("dynamic=true, seed=7"). What a preference can be wrong with
// alone is refused here: an item that is not name=value, a name
// plantmock does not know (a misspelling would otherwise be ignored, as
// RFC 7240 asks of a header), a value ParsePrefer refuses. What only an
// operation can tell (a code it does not declare, an example it does not
// have) is refused per request, as for the header.
func ParsePreferDefault(s string) (PreferDefault, error) {
	var d PreferDefault
	var texts []string
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || strings.TrimSpace(v) == "" {
			return PreferDefault{}, fmt.Errorf("%q is not name=value (dynamic=true)", cliptext.To(item, 40))
		}
		if preferenceNamed(k) == nil {
			names := make([]string, len(preferences))
			for i, p := range preferences {
				names[i] = p.name
			}
			return PreferDefault{}, fmt.Errorf("%q is no preference plantmock knows (%s)", cliptext.To(k, 40), strings.Join(names, ", "))
		}
		d.items = append(d.items, preferItem{name: k, text: item})
		texts = append(texts, item)
	}
	d.text = strings.Join(texts, ", ")
	var p *problem.Problem
	if d.pref, p = ParsePrefer([]string{d.text}); p != nil {
		return PreferDefault{}, fmt.Errorf("%s", strings.TrimPrefix(p.Message, "Prefer: "))
	}
	return d, nil
}

// String returns the default as a Prefer header would carry it; "" for
// none.
func (d *PreferDefault) String() string { return d.text }

// Apply reads the Prefer header lines of a request over the default. It
// returns the preference that applies and the default's items that
// applied, as a header would carry them ("" for none); a problem is the
// request's own header's.
func (d *PreferDefault) Apply(values []string) (Preference, string, *problem.Problem) {
	switch {
	case d.text == "" && len(values) == 0:
		return Preference{}, "", nil
	case d.text == "":
		p, pb := ParsePrefer(values)
		return p, "", pb
	case len(values) == 0:
		return d.pref, d.text, nil
	}
	// ParsePrefer lets a later item of a name replace an earlier one:
	// the request's items, after the default's, win.
	p, pb := ParsePrefer(append([]string{d.text}, values...))
	if pb != nil {
		return p, "", pb
	}
	given := preferNames(values)
	var kept []string
	for _, it := range d.items {
		if !given[it.name] {
			kept = append(kept, it.text)
		}
	}
	return p, strings.Join(kept, ", "), nil
}

// preferNames returns the names a request's Prefer header lines give,
// in lower case, as ParsePrefer reads them.
func preferNames(values []string) map[string]bool {
	names := map[string]bool{}
	for _, line := range values {
		for _, item := range strings.Split(line, ",") {
			pref, _, _ := strings.Cut(item, ";")
			k, _, _ := strings.Cut(strings.TrimSpace(pref), "=")
			names[strings.ToLower(strings.TrimSpace(k))] = true
		}
	}
	return names
}
