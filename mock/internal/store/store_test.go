package store

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

func docs(bs [][]byte) []string {
	out := []string{}
	for _, b := range bs {
		out = append(out, string(b))
	}
	return out
}

func TestStore(t *testing.T) {
	var s Store
	if !s.Create("/p", "1", []byte("a")) || !s.Create("/p", "2", []byte("b")) || !s.Create("/q", "1", []byte("x")) {
		t.Fatal("create of new keys failed")
	}
	if s.Create("/p", "1", []byte("again")) {
		t.Error("create of a taken key succeeded")
	}
	if got, ok := s.Get("/p", "1"); !ok || string(got) != "a" {
		t.Errorf("Get = %s %v", got, ok)
	}
	if _, ok := s.Get("/none", "1"); ok {
		t.Error("Get in an unknown collection found something")
	}
	found, err := s.Update("/p", "2", func(old []byte) ([]byte, error) { return append([]byte("B"), old...), nil })
	if !found || err != nil {
		t.Errorf("Update = %v %v", found, err)
	}
	boom := errors.New("boom")
	if found, err := s.Update("/p", "2", func([]byte) ([]byte, error) { return nil, boom }); !found || err != boom {
		t.Errorf("failing Update = %v %v", found, err)
	}
	if found, _ := s.Update("/p", "9", nil); found {
		t.Error("Update of a missing key found it")
	}
	if got := docs(s.List("/p", -1)); !reflect.DeepEqual(got, []string{"a", "Bb"}) {
		t.Errorf("List = %v", got)
	}
	if got := docs(s.List("/p", 1)); !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("List(1) = %v", got)
	}
	if doc, ok := s.Delete("/p", "1"); !ok || string(doc) != "a" {
		t.Errorf("Delete = %s %v", doc, ok)
	}
	if _, ok := s.Delete("/p", "1"); ok {
		t.Error("second Delete found the key")
	}
	if s.Len("/p") != 1 || s.Len("/q") != 1 {
		t.Errorf("Len = %d %d", s.Len("/p"), s.Len("/q"))
	}
	s.Reset()
	if s.Len("/p") != 0 || len(s.Collections()) != 0 {
		t.Error("Reset left resources")
	}
}

// TestCompaction deletes most of a large collection and checks that order
// and lookups survive the compaction.
func TestCompaction(t *testing.T) {
	var s Store
	for i := 0; i < 1000; i++ {
		s.Create("/p", fmt.Sprint(i), []byte(fmt.Sprint(i)))
	}
	for i := 0; i < 1000; i++ {
		if i%10 != 0 {
			s.Delete("/p", fmt.Sprint(i))
		}
	}
	got := docs(s.List("/p", -1))
	if len(got) != 100 || got[0] != "0" || got[1] != "10" || got[99] != "990" {
		t.Fatalf("List after deletes = %v", got)
	}
	for i := 0; i < 1000; i += 10 {
		if d, ok := s.Get("/p", fmt.Sprint(i)); !ok || string(d) != fmt.Sprint(i) {
			t.Errorf("Get(%d) = %s %v", i, d, ok)
		}
	}
	if !s.Create("/p", "5", []byte("new")) {
		t.Error("create of a deleted key failed")
	}
	if got := docs(s.List("/p", -1)); got[len(got)-1] != "new" {
		t.Errorf("re-created key is not last: %v", got[len(got)-3:])
	}
}
