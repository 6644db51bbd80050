package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock"
)

// watchDelay is how long the files must stay unchanged before a reload:
// an editor's save is often several writes, or a write and a rename.
const watchDelay = 150 * time.Millisecond

// watcher reloads the mock when its document, a scenario file or the
// seed data changes (--watch).
type watcher struct {
	srv  *mock.Server
	src  *source
	seed string       // the --seed-data file, or ""
	base mock.Options // the options the mock started with
	log  *slog.Logger
	fw   *fsnotify.Watcher
}

// newWatcher watches the folders of the files the mock was started with:
// folders, not files, so that editors that save by writing a new file and
// renaming it over the old one are seen.
func newWatcher(srv *mock.Server, src *source, seed string, base mock.Options, log *slog.Logger) (*watcher, error) {
	if len(src.specs) == 0 && src.scenarios == "" && seed == "" {
		return nil, errors.New("--watch needs --spec, --scenarios or --seed-data: the embedded document does not change")
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("--watch: %v", err)
	}
	dirs := map[string]bool{}
	for _, f := range append(src.files(), seed) {
		if f != "" {
			dirs[filepath.Dir(f)] = true
		}
	}
	if src.scenarios != "" {
		dirs[src.scenarios] = true
	}
	for d := range dirs {
		if err := fw.Add(d); err != nil {
			fw.Close()
			return nil, fmt.Errorf("--watch: %s: %v", d, err)
		}
	}
	return &watcher{srv: srv, src: src, seed: seed, base: base, log: log, fw: fw}, nil
}

// run reloads after each quiet spell that follows a change, until ctx
// ends.
func (w *watcher) run(ctx context.Context) {
	defer w.fw.Close()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	seedChanged := false
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			what := w.concerns(ev.Name)
			if what == "" || ev.Op == fsnotify.Chmod {
				continue
			}
			seedChanged = seedChanged || what == "seed"
			timer.Reset(watchDelay)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			w.log.Error("--watch: the files may have changed unseen", "error", err.Error())
		case <-timer.C:
			w.reload(seedChanged)
			seedChanged = false
		}
	}
}

// concerns says which of the mock's inputs a changed file is: "spec",
// "scenario" or "seed"; "" for none.
func (w *watcher) concerns(name string) string {
	switch {
	case slices.ContainsFunc(w.src.files(), func(f string) bool { return sameFile(name, f) }):
		return "spec"
	case w.seed != "" && sameFile(name, w.seed):
		return "seed"
	case w.src.scenarios != "" && sameFile(filepath.Dir(name), w.src.scenarios):
		if ext := strings.ToLower(filepath.Ext(name)); ext == ".yaml" || ext == ".yml" {
			return "scenario"
		}
	}
	return ""
}

func sameFile(a, b string) bool {
	return filepath.Clean(a) == filepath.Clean(b)
}

// reload has the mock read the files again, which keeps serving what it
// served if they are broken or do not read.
func (w *watcher) reload(seedChanged bool) {
	w.srv.Reload(func() (mock.Content, error) { return w.read(seedChanged) }) // it logs how it went
}

// read reads the document and scenario files, and the seed data when its
// file changed, into what the mock started with.
func (w *watcher) read(seedChanged bool) (mock.Content, error) {
	opts := w.base
	opts.SeedData = nil // refilled only when its file changed
	_, broken, err := w.src.options(&opts)
	if err == nil {
		err = broken // a scenario file that does not parse
	}
	if err == nil && seedChanged {
		opts.SeedData, err = files.ReadPath(w.seed, mock.MaxSeedFile)
		if err != nil {
			err = fmt.Errorf("cannot read --seed-data: %v", err)
		}
	}
	return opts.Content(), err
}
