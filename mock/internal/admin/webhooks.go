package admin

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// webhookRoutes adds the admin calls of webhooks: their subscribers in
// the caller's session, and sending one. A name with a slash in it
// (/plant/webhook) is written percent-escaped: %2Fplant%2Fwebhook.
func (a *api) webhookRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /__admin/webhooks", a.withSession(a.webhooks))
	mux.HandleFunc("GET /__admin/webhooks/{name}", a.withSession(a.declared(a.webhook)))
	mux.HandleFunc("PUT /__admin/webhooks/{name}", a.withSession(a.declared(a.subscribe)))
	mux.HandleFunc("DELETE /__admin/webhooks/{name}", a.withSession(a.declared(unsubscribe)))
	mux.HandleFunc("POST /__admin/webhooks/{name}/send", a.withSession(a.declared(send)))
}

// webhookView is how the admin API shows a webhook and its subscriber.
type webhookView struct {
	Name    string   `json:"name"`
	Methods []string `json:"methods"`
	URL     *string  `json:"url"`
	Token   bool     `json:"token"` // whether a token is set; the token is not shown
}

// view shows a webhook of the document and the session's subscriber.
func view(r *http.Request, ss Session, wh Webhook) (webhookView, error) {
	v := webhookView{Name: wh.Name, Methods: wh.Methods}
	sub, ok, err := ss.Subscriber(r.Context(), wh.Name)
	if ok {
		v.URL, v.Token = &sub.URL, sub.Token != ""
	}
	return v, err
}

func (a *api) webhooks(w http.ResponseWriter, r *http.Request, ss Session) {
	views := []webhookView{}
	for _, wh := range a.mockOf(r).Webhooks() {
		v, err := view(r, ss, wh)
		if err != nil {
			failed(w, err)
			return
		}
		views = append(views, v)
	}
	writeJSON(w, map[string]any{"webhooks": views})
}

// declared runs h for the webhook the path names, answering 404 itself
// when the document declares none.
func (a *api) declared(h func(http.ResponseWriter, *http.Request, Session, Webhook)) func(http.ResponseWriter, *http.Request, Session) {
	return func(w http.ResponseWriter, r *http.Request, ss Session) {
		name := r.PathValue("name")
		var names []string
		for _, wh := range a.mockOf(r).Webhooks() {
			if wh.Name == name {
				h(w, r, ss, wh)
				return
			}
			names = append(names, wh.Name)
		}
		hint := ""
		if !strings.HasPrefix(name, "/") && contains(names, "/"+name) {
			hint = fmt.Sprintf(" (write /%s as %%2F%s)", name, strings.ReplaceAll(name, "/", "%2F"))
		}
		declared := "none"
		if len(names) > 0 {
			declared = strings.Join(names, ", ")
		}
		writeError(w, http.StatusNotFound, problem.CodeWebhook, fmt.Sprintf("%q is not a webhook of the document%s; declared: %s", cliptext.To(name, 60), hint, declared))
	}
}

func contains(names []string, n string) bool {
	for _, m := range names {
		if m == n {
			return true
		}
	}
	return false
}

func (a *api) webhook(w http.ResponseWriter, r *http.Request, ss Session, wh Webhook) {
	v, err := view(r, ss, wh)
	if err != nil {
		failed(w, err)
		return
	}
	writeJSON(w, v)
}

// subscribe sets the session's subscriber: {"url": ..., "token": ...}. A
// URL the allow list does not let webhooks reach is refused with 400:
// whoever reaches the admin API must not make the mock call anywhere.
func (a *api) subscribe(w http.ResponseWriter, r *http.Request, ss Session, wh Webhook) {
	v, ok := readJSON(w, r)
	if !ok {
		return
	}
	obj, _ := v.(map[string]any)
	var sub Subscriber
	for k, x := range obj {
		str, isStr := x.(string)
		switch {
		case k == "url" && isStr:
			sub.URL = str
		case k == "token" && isStr:
			sub.Token = str
		default:
			obj = nil
		}
	}
	if obj == nil || sub.URL == "" {
		writeError(w, http.StatusBadRequest, problem.CodeSchema, `the subscriber must be {"url": "http://...", "token": "..."}, token optional`)
		return
	}
	if err := ss.Subscribe(r.Context(), wh.Name, sub); err != nil {
		answerProblem(w, err)
		return
	}
	a.webhook(w, r, ss, wh)
}

// unsubscribe leaves the webhook without a subscriber in the session,
// whatever the mock's options give.
func unsubscribe(w http.ResponseWriter, r *http.Request, ss Session, wh Webhook) {
	noContent(w, ss.Subscribe(r.Context(), wh.Name, Subscriber{}))
}

// send sends a webhook to the session's subscriber: the body given, or
// one generated from the webhook's schema when there is none. It answers
// 202 once the delivery is queued; the journal shows how it went.
func send(w http.ResponseWriter, r *http.Request, ss Session, wh Webhook) {
	if _, ok, err := ss.Subscriber(r.Context(), wh.Name); err != nil || !ok {
		if err != nil {
			failed(w, err)
			return
		}
		noSubscriber(w, wh)
		return
	}
	var body any
	if r.ContentLength != 0 {
		v, ok := readJSON(w, r)
		if !ok {
			return
		}
		body = v
	}
	n, url, err := ss.Send(r.Context(), wh.Name, body)
	if errors.Is(err, ErrNoSubscriber) {
		noSubscriber(w, wh) // removed since it was asked for
		return
	}
	if err != nil {
		answerProblem(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusAccepted)
	w.Write(jsonx.Marshal(map[string]any{"webhook": wh.Name, "url": url, "queued": n}))
}

// noSubscriber answers a send of a webhook without a subscriber in the
// session: 409, and how to set one.
func noSubscriber(w http.ResponseWriter, wh Webhook) {
	writeError(w, http.StatusConflict, problem.CodeWebhook, fmt.Sprintf("webhook %s has no subscriber in this session; PUT %swebhooks/%s {\"url\": ...} first, or start the mock with --webhook", wh.Name, Prefix, strings.ReplaceAll(wh.Name, "/", "%2F")))
}

// answerProblem answers a call the mock refused with its problem (400,
// or the problem's own status), or one that failed.
func answerProblem(w http.ResponseWriter, err error) {
	var p *problem.Problem
	if !errors.As(err, &p) {
		failed(w, err)
		return
	}
	status := http.StatusBadRequest
	if p.Status != 0 {
		status = p.Status
	}
	writeError(w, status, p.Code, p.Text())
}
