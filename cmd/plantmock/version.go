package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/plantmock/plantmock/mock"
)

// releaseCommit is the commit a release was built from, set with the
// linker (-X main.releaseCommit=..., .goreleaser.yaml) for builds whose
// build info has none (built with -buildvcs=false); empty otherwise.
var releaseCommit string

// version prints plantmock's version, and what the build info says of
// the build: the commit (marked when the tree had changes), or the
// module's version when it was built from the module proxy, and Go's.
func version(_ context.Context, _ given, _ environment, stdout, _ io.Writer) int {
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintf(stdout, "plantmock %s (%s)\n", mock.Version, buildText(bi, releaseCommit))
	return exitOK
}

// buildText describes a build from its build info, which may be nil, and
// the release's commit, which the build info's revision takes precedence
// over.
func buildText(bi *debug.BuildInfo, commit string) string {
	parts := []string{}
	if bi == nil && commit != "" {
		bi = &debug.BuildInfo{}
	}
	if bi != nil {
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev == "" {
			rev = commit
		}
		switch {
		case rev != "":
			c := "commit " + rev[:min(12, len(rev))]
			if modified == "true" {
				c += " with changes"
			}
			parts = append(parts, c)
		case bi.Main.Version != "" && bi.Main.Version != "(devel)":
			parts = append(parts, "module "+bi.Main.Version)
		}
	}
	return strings.Join(append(parts, runtime.Version()), ", ")
}
