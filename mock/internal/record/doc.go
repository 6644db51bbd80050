// Package record is --record: a listener that keeps, in memory, what a
// proxying mock's real service answered, and snapshots that write it as
// the mock's own inputs, a scenario file per operation and seed data.
// Files are written only by snapshots, never on a request's path.
package record
