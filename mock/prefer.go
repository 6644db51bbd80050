package mock

import (
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// preference is what a Prefer header (RFC 7240) asks of the mock, in the
// words Prism uses: code=400, example=name, dynamic=true, seed=7.
type preference struct {
	code    int
	example string
	dynamic bool
	seed    uint64
	hasSeed bool
}

func (p preference) empty() bool { return p == preference{} }

// parsePrefer reads the preferences plantmock knows; others are ignored,
// as RFC 7240 asks.
func parsePrefer(values []string) (preference, *problem) {
	var p preference
	for _, line := range values {
		for _, item := range strings.Split(line, ",") {
			pref, _, _ := strings.Cut(item, ";")
			k, v, _ := strings.Cut(strings.TrimSpace(pref), "=")
			v = strings.Trim(strings.TrimSpace(v), `"`)
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "code":
				n, err := strconv.Atoi(v)
				if err != nil || n < 100 || n > 599 {
					return p, invalid(CodePrefer, classRequest, "Prefer: code=%s is not an HTTP status", clip(v, 20))
				}
				p.code = n
			case "example":
				p.example = v
			case "dynamic":
				p.dynamic = strings.EqualFold(v, "true")
			case "seed":
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return p, invalid(CodePrefer, classRequest, "Prefer: seed=%s is not an integer", clip(v, 20))
				}
				p.seed, p.hasSeed = uint64(n), true
			}
		}
	}
	return p, nil
}

// preferred answers as a Prefer header asks; it reports false when the
// usual answer should be given instead.
func (s *Server) preferred(w http.ResponseWriter, pl *plan, pf preference) (bool, *problem) {
	status := pl.success
	if pf.code != 0 {
		status = pf.code
		if pl.op.Response(status) == nil {
			return true, invalid(CodePrefer, classRequest, "Prefer: code=%d is not declared for %s %s (declared: %s)",
				status, pl.op.Method, pl.op.Path, declaredStatuses(pl.op))
		}
	}
	var faker *gofakeit.Faker
	if pf.hasSeed {
		faker = gen.Faker(pf.seed, 0)
	} else {
		faker = gen.Faker(s.seed, s.seq.Add(1))
	}
	if status == pl.success && pf.example == "" && !pf.dynamic {
		if pl.do == canned && pf.hasSeed {
			return true, s.canned(w, pl, faker)
		}
		return false, nil
	}
	var media *openapi.Media
	if resp := pl.op.Response(status); resp != nil {
		media = resp.JSON()
	}
	switch {
	case pf.example != "":
		var ex any
		ok := false
		if media != nil {
			ex, ok = media.Examples[pf.example]
		}
		if !ok {
			return true, invalid(CodePrefer, classRequest, "Prefer: example=%s names no example of status %d (examples: %s)",
				clip(pf.example, 60), status, exampleNames(media))
		}
		if vs := media.Schema.Validate(ex); len(vs) > 0 {
			return true, internal("example %s of status %d does not match its schema: %s", pf.example, status, vs[0])
		}
		writeJSON(w, status, contentTypeOf(media), jsonx.Marshal(ex))
	case media == nil || media.Schema == nil:
		w.WriteHeader(status)
	case media.HasExample && !pf.dynamic && media.Schema.Validate(media.Example) == nil:
		writeJSON(w, status, contentTypeOf(media), jsonx.Marshal(media.Example))
	default:
		v, p := generate(media.Schema, faker)
		if p != nil {
			return true, p
		}
		writeJSON(w, status, contentTypeOf(media), jsonx.Marshal(v))
	}
	return true, nil
}

func exampleNames(m *openapi.Media) string {
	if m == nil || len(m.Examples) == 0 {
		return "none"
	}
	names := make([]string, 0, len(m.Examples))
	for n := range m.Examples {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
