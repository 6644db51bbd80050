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
		{"same base, same path", []Doc{
			{Name: "Billing", Source: "billing.yaml", Base: "/", Paths: []string{"/invoices", "/tasks"}},
			{Name: "Tasks", Source: "tasks.yaml", Base: "/", Paths: []string{"/tasks"}},
		}, "documents Billing (billing.yaml at /) and Tasks (tasks.yaml at /) could both be given /tasks: both declare /tasks; mount them at base paths that do not overlap (--spec /name=file)"},
		{"same base, a template takes the other's path", []Doc{
			{Name: "marketing", Source: "marketing.json", Base: "/crm", Paths: []string{"/marketing/v3/emails", "/{object}/v3/{id}"}},
			{Name: "files", Source: "files.json", Base: "/crm", Paths: []string{"/files/v3/files"}},
		}, "documents marketing (marketing.json at /crm) and files (files.json at /crm) could both be given /crm/files/v3/files: marketing declares /{object}/v3/{id} and files declares /files/v3/files; mount them at base paths that do not overlap (--spec /name=file)"},
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

// TestOneBaseDisjointPaths: documents of one provider that share a base
// path with disjoint paths are mounted together, and each request goes
// to the one that declares its path.
func TestOneBaseDisjointPaths(t *testing.T) {
	tb, err := New([]Doc{
		{Name: "marketing", Base: "/", Paths: []string{"/marketing/v3/emails", "/marketing/v3/emails/{emailId}"}},
		{Name: "files", Base: "/", Paths: []string{"/files/v3/files", "/files/v3/files/{fileId}"}},
		{Name: "crm", Base: "/crm", Paths: []string{"/v3/objects"}},
	})
	if err != nil {
		t.Fatalf("New = %v, want the documents mounted", err)
	}
	for _, tc := range []struct {
		path string
		doc  int
		rest string
	}{
		{"/marketing/v3/emails", 0, "/marketing/v3/emails"},
		{"/marketing/v3/emails/7", 0, "/marketing/v3/emails/7"},
		{"/files/v3/files", 1, "/files/v3/files"},
		{"/files/v3/files/9/", 1, "/files/v3/files/9/"},
		{"/crm/v3/objects", 2, "/v3/objects"},
		{"/nowhere", 0, "/nowhere"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if i, rest, ok := tb.Find(tc.path); i != tc.doc || rest != tc.rest || !ok {
				t.Fatalf("Find(%q) = %d, %q, %v; want %d, %q, true", tc.path, i, rest, ok, tc.doc, tc.rest)
			}
		})
	}
	if tb.Len() != 3 {
		t.Errorf("Len = %d, want 3", tb.Len())
	}
}

// TestOneNameTwice: two documents of one name are refused with both
// named, by file and base path, and how to name them.
func TestOneNameTwice(t *testing.T) {
	_, err := New([]Doc{
		{Name: "hub", Source: "hub.json", Base: "/hub", Paths: []string{"/x"}},
		{Name: "sms", Source: "bulk.json", Base: "/sms", Paths: []string{"/bulk"}},
		{Name: "sms", Source: "works.json", Base: "/sms", Paths: []string{"/works"}},
	})
	want := `documents sms (bulk.json at /sms) and sms (works.json at /sms) are both named "sms"; name each with --spec NAME:/sms=FILE`
	if err == nil || err.Error() != want {
		t.Fatalf("New error = %v\nwant %s", err, want)
	}
}

func TestSplitSpec(t *testing.T) {
	for _, tc := range []struct {
		v, name, base, file, err string
	}{
		{"api.yaml", "", "", "api.yaml", ""},
		{"/billing=billing.yaml", "", "/billing", "billing.yaml", ""},
		{"bill:/billing=billing.yaml", "bill", "/billing", "billing.yaml", ""},
		{"marketing:/=m.json", "marketing", "/", "m.json", ""},
		{"a=b.yaml", "", "", "a=b.yaml", ""},
		{"c:d=e.yaml", "", "", "c:d=e.yaml", ""},
		{"/a:b=f.yaml", "", "/a:b", "f.yaml", ""},
		{":/billing=b.yaml", "", "", "", `":/billing=b.yaml" names no document before :/billing=`},
		{"bill:/billing=", "", "", "", `"bill:/billing=" names no file after /billing=`},
		{"", "", "", "", "an empty value names no file"},
	} {
		t.Run(tc.v, func(t *testing.T) {
			name, base, file, err := SplitSpec(tc.v)
			var e string
			if err != nil {
				e = err.Error()
			}
			if name != tc.name || base != tc.base || file != tc.file || e != tc.err {
				t.Fatalf("SplitSpec(%q) = %q, %q, %q, %q; want %q, %q, %q, %q", tc.v, name, base, file, e, tc.name, tc.base, tc.file, tc.err)
			}
		})
	}
}
