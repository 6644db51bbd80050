package mount

import (
	"errors"
	"fmt"
	"testing"
)

func TestFindLongestBase(t *testing.T) {
	tb, err := New([]Doc{
		{Name: "Store", Base: "/", Paths: []string{"/plants", "/plants/{id}"}},
		{Name: "Billing", Base: "/billing", Paths: []string{"/invoices"}},
		{Name: "Billing v2", Base: "/billing/v2", Paths: []string{"/invoices"}},
		{Name: "Tasks", Base: "/tasks/api", Paths: []string{"/tasks/{id}"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		doc  int
		rest string
		ok   bool
	}{
		{"/plants", 0, "/plants", true},
		{"/plants/7", 0, "/plants/7", true},
		{"/billing/invoices", 1, "/invoices", true},
		{"/billing", 1, "/", true},
		{"/billing/", 1, "/", true},
		{"/billing/v2/invoices", 2, "/invoices", true},
		{"/billing/v2", 2, "/", true},
		{"/billing/v3/invoices", 1, "/v3/invoices", true},
		{"/billingx/invoices", 0, "/billingx/invoices", true},
		{"/tasks/api/tasks/1", 3, "/tasks/1", true},
		{"/tasks/apix", 0, "/tasks/apix", true},
		{"/tasks", 0, "/tasks", true},
		{"//billing/invoices", 0, "//billing/invoices", true},
		{"/", 0, "/", true},
	} {
		t.Run(tc.path, func(t *testing.T) {
			i, rest, ok := tb.Find(tc.path)
			if i != tc.doc || rest != tc.rest || ok != tc.ok {
				t.Fatalf("Find(%q) = %d, %q, %v; want %d, %q, %v", tc.path, i, rest, ok, tc.doc, tc.rest, tc.ok)
			}
		})
	}
}

func TestFindWithoutRoot(t *testing.T) {
	tb, err := New([]Doc{{Name: "Billing", Base: "/billing"}, {Name: "Tasks", Base: "/tasks"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "/plants", "/billin", "", "billing/x"} {
		if i, rest, ok := tb.Find(p); ok {
			t.Errorf("Find(%q) = %d, %q, true; want no document", p, i, rest)
		}
	}
	if tb.Len() != 2 {
		t.Errorf("Len = %d, want 2", tb.Len())
	}
}

func TestOverlapsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		docs []Doc
		want string
	}{
		{"same base", []Doc{
			{Name: "Billing", Base: "/", Paths: []string{"/invoices"}},
			{Name: "Tasks", Base: "/", Paths: []string{"/tasks"}},
		}, "documents Billing (at /) and Tasks (at /) could both be given /tasks: they are mounted at the same base path; mount them at base paths that do not overlap (--spec /name=file)"},
		{"a literal path under the other's base", []Doc{
			{Name: "Store", Base: "/", Paths: []string{"/plants", "/billing/invoices"}},
			{Name: "Billing", Base: "/billing", Paths: []string{"/invoices"}},
		}, "documents Store (at /) and Billing (at /billing) could both be given /billing/invoices: Store declares /billing/invoices, which the longer base path of Billing takes; mount them at base paths that do not overlap (--spec /name=file)"},
		{"a parameter that takes the other's base", []Doc{
			{Name: "Billing", Base: "/billing", Paths: []string{"/invoices"}},
			{Name: "Tenants", Base: "/", Paths: []string{"/{tenant}/items/{id}"}},
		}, "documents Tenants (at /) and Billing (at /billing) could both be given /billing/items/{id}: Tenants declares /{tenant}/items/{id}, which the longer base path of Billing takes; mount them at base paths that do not overlap (--spec /name=file)"},
		{"a partial parameter", []Doc{
			{Name: "Files", Base: "/api", Paths: []string{"/v{n}/files"}},
			{Name: "Files v2", Base: "/api/v2", Paths: []string{"/files"}},
		}, "documents Files (at /api) and Files v2 (at /api/v2) could both be given /api/v2/files: Files declares /v{n}/files, which the longer base path of Files v2 takes; mount them at base paths that do not overlap (--spec /name=file)"},
		{"the base itself", []Doc{
			{Name: "Store", Base: "/", Paths: []string{"/billing"}},
			{Name: "Billing", Base: "/billing", Paths: []string{"/invoices"}},
		}, "documents Store (at /) and Billing (at /billing) could both be given /billing: Store declares /billing, which the longer base path of Billing takes; mount them at base paths that do not overlap (--spec /name=file)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.docs)
			var oe *OverlapError
			if !errors.As(err, &oe) || err.Error() != tc.want {
				t.Fatalf("New error = %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestDisjointAccepted(t *testing.T) {
	docs := []Doc{
		{Name: "Store", Base: "/", Paths: []string{"/plants", "/plants/{id}", "/bill"}},
		{Name: "Billing", Base: "/billing", Paths: []string{"/invoices/{id}"}},
		{Name: "Versions", Base: "/api", Paths: []string{"/v{n}x/files", "/status"}},
		{Name: "Files v2", Base: "/api/v2", Paths: []string{"/files"}},
	}
	if _, err := New(docs); err != nil {
		t.Fatalf("New = %v, want the documents mounted", err)
	}
}

// BenchmarkFind shows that finding a document costs as much with ten as
// with one: a look-up per depth of base path, not per document.
func BenchmarkFind(b *testing.B) {
	for _, n := range []int{1, 10} {
		docs := []Doc{{Name: "Store", Base: "/", Paths: []string{"/plants"}}}
		for i := 1; i < n; i++ {
			docs = append(docs, Doc{Name: fmt.Sprint("doc", i), Base: fmt.Sprint("/doc", i), Paths: []string{"/items"}})
		}
		tb, err := New(docs)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n, " documents"), func(b *testing.B) {
			for b.Loop() {
				if _, _, ok := tb.Find("/plants"); !ok {
					b.Fatal("not found")
				}
			}
		})
	}
}
