package admin

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// dashboardPath is where the dashboard lives: a page for people that
// shows the journal live, the store, the scenarios and the operations,
// through the admin API.
const dashboardPath = Prefix + "ui/"

// ui holds the dashboard's files: plain HTML, CSS and JavaScript, served
// as they are written. index.html is served as dashboardPath itself.
//
//go:embed ui
var ui embed.FS

// dashboardPolicy lets the page load its own script, style, icon and data
// and nothing else: no inline script, no other origin, no frames.
const dashboardPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// dashboardRoutes adds the dashboard: its files, and the list of the
// operations of the document served now, that it shows beside their
// counts. /__admin/ui is
// sent to /__admin/ui/, where the page's relative URLs point into the
// admin API.
func (a *api) dashboardRoutes(mux *http.ServeMux) {
	files, err := fs.ReadDir(ui, "ui")
	if err != nil {
		panic("admin: dashboard: " + err.Error())
	}
	for _, f := range files {
		body, err := fs.ReadFile(ui, "ui/"+f.Name())
		if err != nil {
			panic("admin: dashboard: " + err.Error())
		}
		pattern := dashboardPath + f.Name()
		if f.Name() == "index.html" {
			pattern = dashboardPath + "{$}"
		}
		contentType := fileType(f.Name())
		mux.HandleFunc("GET "+pattern, func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Type", contentType)
			h.Set("Content-Length", strconv.Itoa(len(body)))
			h.Set("Cache-Control", "no-cache")
			h.Set("Content-Security-Policy", dashboardPolicy)
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "no-referrer")
			w.Write(body)
		})
	}
	mux.HandleFunc("GET "+strings.TrimSuffix(dashboardPath, "/"), func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, dashboardPath, http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET "+dashboardPath+"operations", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"operations": a.mockOf(r).Operations()})
	})
}

// fileType is the Content-Type of a dashboard file, by its extension.
func fileType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	panic("mock: dashboard: no type for " + name)
}

// dashboardOpen reports whether r asks for one of the dashboard's files.
// They are the same for every mock and hold no data, so they need no
// admin token: the page has to load before it can ask for one.
func dashboardOpen(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	p := r.URL.EscapedPath()
	if p == dashboardPath || p+"/" == dashboardPath {
		return true
	}
	name, ok := strings.CutPrefix(p, dashboardPath)
	if !ok || name == "index.html" || !fs.ValidPath(name) || strings.Contains(name, "/") {
		return false
	}
	_, err := fs.Stat(ui, "ui/"+name)
	return err == nil
}
