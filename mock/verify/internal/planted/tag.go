package planted

import (
	"encoding/json"
	"mime"
	"net/http"
	"regexp"
	"strings"
)

// tagName is the pattern of a tag's name.
var tagName = regexp.MustCompile(`^[a-z]{8,20}$`)

// createTag stores a tag under the name its body gives, which must be
// new (but for the planted duplicate accepted).
func (p *Provider) createTag(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" || json.NewDecoder(r.Body).Decode(&in) != nil {
		p.fail(w, http.StatusBadRequest, "the body must be a JSON object", false)
		return
	}
	name, ok := in["name"].(string)
	if !ok || !tagName.MatchString(name) {
		p.fail(w, http.StatusBadRequest, "name must be 8 to 20 letters a to z", false)
		return
	}
	color, has := in["color"]
	if c, ok := color.(string); has && (!ok || c != "red" && c != "green") {
		p.fail(w, http.StatusBadRequest, "color must be red or green", false)
		return
	}
	t := map[string]any{"name": name}
	if has {
		t["color"] = color
	}
	p.mu.Lock()
	_, taken := p.tags[name]
	if !taken || p.bug == DuplicateCreated {
		p.tags[name] = t
	}
	p.mu.Unlock()
	if taken && p.bug != DuplicateCreated {
		p.fail(w, http.StatusConflict, "the tag exists", false)
		return
	}
	p.answer(w, http.StatusCreated, t)
}

// readTag answers the tag the path names.
func (p *Provider) readTag(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	t, found := p.tags[strings.TrimPrefix(r.URL.Path, "/tags/")]
	p.mu.Unlock()
	if !found {
		p.fail(w, http.StatusNotFound, "no such tag", false)
		return
	}
	p.answer(w, http.StatusOK, t)
}
