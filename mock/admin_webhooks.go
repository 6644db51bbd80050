package mock

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// webhookRoutes adds the admin calls of webhooks: their subscribers in
// the caller's session, and sending one. A name with a slash in it
// (/plant/webhook) is written percent-escaped: %2Fplant%2Fwebhook.
func (s *Server) webhookRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /__admin/webhooks", s.withSession(s.adminWebhooks))
	mux.HandleFunc("GET /__admin/webhooks/{name}", s.withSession(s.adminWebhook))
	mux.HandleFunc("PUT /__admin/webhooks/{name}", s.withSession(s.adminSubscribe))
	mux.HandleFunc("DELETE /__admin/webhooks/{name}", s.withSession(s.adminUnsubscribe))
	mux.HandleFunc("POST /__admin/webhooks/{name}/send", s.withSession(s.adminSendWebhook))
}

// webhookView is how the admin API shows a webhook and its subscriber.
type webhookView struct {
	Name    string   `json:"name"`
	Methods []string `json:"methods"`
	URL     *string  `json:"url"`
	Token   bool     `json:"token"` // whether a token is set; the token is not shown
}

func (s *Server) webhookView(r *http.Request, ss *session, name string) (webhookView, error) {
	v := webhookView{Name: name}
	for _, h := range s.served().hooks.byName[name] {
		v.Methods = append(v.Methods, h.Op.Method)
	}
	sub, ok, err := s.subscriber(r.Context(), ss, name)
	if ok {
		u := s.shownURL(s.served().secrets, sub.URL)
		v.URL, v.Token = &u, sub.Token != ""
	}
	return v, err
}

func (s *Server) adminWebhooks(w http.ResponseWriter, r *http.Request, ss *session) {
	views := []webhookView{}
	seen := map[string]bool{}
	for _, h := range s.served().doc.Webhooks {
		if seen[h.Name] {
			continue
		}
		seen[h.Name] = true
		v, err := s.webhookView(r, ss, h.Name)
		if err != nil {
			adminFailed(w, err)
			return
		}
		views = append(views, v)
	}
	adminJSON(w, map[string]any{"webhooks": views})
}

// declaredWebhook returns the hooks of the webhook the path names,
// answering 404 itself when the document declares none.
func (s *Server) declaredWebhook(w http.ResponseWriter, r *http.Request) (string, []*openapi.Hook) {
	name := r.PathValue("name")
	hooks := s.served().hooks.byName[name]
	if hooks == nil {
		hint := ""
		if !strings.HasPrefix(name, "/") && s.served().hooks.byName["/"+name] != nil {
			hint = fmt.Sprintf(" (write /%s as %%2F%s)", name, strings.ReplaceAll(name, "/", "%2F"))
		}
		adminError(w, http.StatusNotFound, problem.CodeWebhook, fmt.Sprintf("%q is not a webhook of the document%s; declared: %s", clip(name, 60), hint, s.served().doc.WebhookNames()))
		return "", nil
	}
	return name, hooks
}

func (s *Server) adminWebhook(w http.ResponseWriter, r *http.Request, ss *session) {
	name, hooks := s.declaredWebhook(w, r)
	if hooks == nil {
		return
	}
	v, err := s.webhookView(r, ss, name)
	if err != nil {
		adminFailed(w, err)
		return
	}
	adminJSON(w, v)
}

// adminSubscribe sets the session's subscriber: {"url": ..., "token": ...}.
// A URL the allow list does not let webhooks reach is refused with 400:
// whoever reaches the admin API must not make the mock call anywhere.
func (s *Server) adminSubscribe(w http.ResponseWriter, r *http.Request, ss *session) {
	name, hooks := s.declaredWebhook(w, r)
	if hooks == nil {
		return
	}
	v, ok := readAdminJSON(w, r)
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
		adminError(w, http.StatusBadRequest, problem.CodeSchema, `the subscriber must be {"url": "http://...", "token": "..."}, token optional`)
		return
	}
	if err := s.checkSubscriber(sub.URL); err != nil {
		adminError(w, http.StatusBadRequest, problem.CodeSchema, "url: "+err.Error())
		return
	}
	if err := ss.subscribe(r.Context(), name, sub); err != nil {
		adminFailed(w, err)
		return
	}
	view, err := s.webhookView(r, ss, name)
	if err != nil {
		adminFailed(w, err)
		return
	}
	adminJSON(w, view)
}

// adminUnsubscribe leaves the webhook without a subscriber in the
// session, whatever Options.Webhooks.Subscribers gives.
func (s *Server) adminUnsubscribe(w http.ResponseWriter, r *http.Request, ss *session) {
	name, hooks := s.declaredWebhook(w, r)
	if hooks == nil {
		return
	}
	if err := ss.subscribe(r.Context(), name, Subscriber{}); err != nil {
		adminFailed(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// adminSendWebhook sends a webhook to the session's subscriber: the body
// given, or one generated from the webhook's schema when there is none.
// It answers 202 once the delivery is queued; the journal shows how it
// went.
func (s *Server) adminSendWebhook(w http.ResponseWriter, r *http.Request, ss *session) {
	name, hooks := s.declaredWebhook(w, r)
	if hooks == nil {
		return
	}
	sub, ok, err := s.subscriber(r.Context(), ss, name)
	if err != nil {
		adminFailed(w, err)
		return
	}
	if !ok {
		adminError(w, http.StatusConflict, problem.CodeWebhook, fmt.Sprintf("webhook %s has no subscriber in this session; PUT %swebhooks/%s {\"url\": ...} first, or start the mock with --webhook", name, AdminPrefix, strings.ReplaceAll(name, "/", "%2F")))
		return
	}
	var body any
	if r.ContentLength != 0 {
		v, ok := readAdminJSON(w, r)
		if !ok {
			return
		}
		body = v
	}
	faker := func() *gofakeit.Faker { return gen.Faker(s.seed, s.seq.Add(1)) }
	bodies := make([]any, len(hooks))
	for i, h := range hooks {
		bodies[i] = body
		if body == nil {
			bodies[i] = webhookBody(h, nil, faker)
		}
		if vs := scenario.HookViolations(h, bodies[i]); len(vs) > 0 {
			adminError(w, http.StatusBadRequest, problem.CodeSchema, fmt.Sprintf("the body breaks the schema of %s: %s", h.Op.Name, journal.Quote(vs, len(vs))))
			return
		}
	}
	for i, h := range hooks {
		s.sendTo(&delivery{sess: ss, hook: h, url: sub.URL, token: sub.Token, body: bodies[i], via: localAddr(r.Context())})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusAccepted)
	w.Write(jsonx.Marshal(map[string]any{"webhook": name, "url": s.shownURL(s.served().secrets, sub.URL), "queued": len(hooks)}))
}
