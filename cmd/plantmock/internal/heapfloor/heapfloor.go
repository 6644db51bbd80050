// Package heapfloor keeps a floor under the heap that the garbage
// collector paces itself by. The binary imports it for that effect alone:
// the floor is laid when the package initializes, which is before the
// JSON Schema library compiles its meta-schemas in its own (only a few
// small packages go first), so the collection that takes the floor in has
// next to nothing to mark.
//
// The collector collects when the heap reaches about twice what is live,
// at least 4 MiB, so with the few MiB a mock of a small store holds it
// collected some 50 times a second under load, each time marking that
// whole heap: about as much of a 401's processor time as the mock's whole
// handler. The floor is one block of bytes that nothing writes: no
// pointers for the collector to scan, and no pages of memory, since
// nothing touches it, so what it costs is up to Size more garbage between
// collections, whatever the store's size. 8 MiB cut the collections to
// about a third; 32 MiB cuts those left by half again (8.5 to 4 a second
// under the bench's 50% missing-token mix), for some 25-30 MiB more RSS
// under load and none idle.
//
// Paired runs of .ci/bench (BENCH_PAIR_AGAINST=before, 10 alternate
// pairs a mix of 3 s after 1 s of warm-up, quiet machine), the mock
// against the same build without the floor: requests/s 1.031 +/- 0.016
// on valid creates, 1.030 +/- 0.022 on invalid ones and 1.031 +/- 0.005
// without a token; processor time a request 32.5 against 33.7 µs, 34.3
// against 36.0 and 31.8 against 33.1.
//
// Laid at the top of main instead, after the other packages had
// initialized, the collection that took the floor in marked their tables
// while the mock loaded its document: about a millisecond later to the
// first answer.
package heapfloor

import "syscall"

// Size is the floor's size in bytes.
const Size = 32 << 20

// ballast holds the floor for the life of the process.
var ballast []byte

func init() { lay(syscall.Getenv) }

// lay sets up the floor unless the user tunes the collector (GOGC or
// GOMEMLIMIT set): a memory limit would count it as used. It reports
// whether it did.
func lay(getenv func(string) (string, bool)) bool {
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, _ := getenv(k); v != "" {
			return false
		}
	}
	ballast = make([]byte, Size)
	return true
}
