package main

// heapFloor is the heap the garbage collector counts as live beyond what
// the mock holds: it collects when the heap reaches about twice what is
// live, at least 4 MiB, so with the few MiB a mock of a small store
// holds it collected some 50 times a second under load, each time
// marking that whole heap: about as much of a 401's processor time as
// the mock's whole handler. With this floor it collects about a third as
// often. The floor is one block of bytes that nothing writes: no
// pointers for the collector to scan, and no pages of memory, since
// nothing touches it, so what it costs is up to heapFloor more garbage
// between collections, whatever the store's size.
const heapFloor = 8 << 20

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
