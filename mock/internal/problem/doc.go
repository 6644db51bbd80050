// Package problem is the mock's error shape: the codes and classes of
// the problems it answers with, the statuses each class prefers, and the
// error bodies it writes in the shape a document's error schema gives
// (enum values chosen to name the problem). It is a leaf of the engine:
// it knows operations and schemas, never requests or writers.
package problem
