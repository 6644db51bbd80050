package main

// heapFloor is the heap the garbage collector counts as live beyond what
// the mock holds: it collects when the heap reaches about twice what is
// live, at least 4 MiB, so with the few MiB a mock of a small store
// holds it collected some 50 times a second under load, each time
// marking that whole heap: about as much of a 401's processor time as
// the mock's whole handler. The floor is one block of bytes that nothing
// writes: no pointers for the collector to scan, and no pages of memory,
// since nothing touches it, so what it costs is up to heapFloor more
// garbage between collections, whatever the store's size. 8 MiB cut the
// collections to about a third; 32 MiB cuts those left by half again
// (8.5 to 4 a second under the bench's 50% missing-token mix), for some
// 25-30 MiB more RSS under load and none idle.
const heapFloor = 32 << 20

// ballast holds the floor for the life of the process.
var ballast []byte

// keepHeapFloor sets up the floor unless the user tunes the collector
// (GOGC or GOMEMLIMIT set): a memory limit would count it as used. It
// reports whether it did.
func keepHeapFloor(getenv func(string) string) bool {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return false
	}
	ballast = make([]byte, heapFloor)
	return true
}
