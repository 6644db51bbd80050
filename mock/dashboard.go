package mock

import "net/http"

// dashboardRoutes adds the dashboard, /__admin/ui/.
func (s *Server) dashboardRoutes(mux *http.ServeMux) {}
