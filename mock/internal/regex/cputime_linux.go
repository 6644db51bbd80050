package regex

import "golang.org/x/sys/unix"

// threadCPU returns the CPU time the calling thread has used, in
// nanoseconds, and true; see backtrack, which holds its goroutine on
// its thread while it measures. The thread's CPU clock counts to the
// nanosecond, where getrusage counts in scheduler ticks.
func threadCPU() (int64, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return ts.Nano(), true
}
