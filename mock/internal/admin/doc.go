// Package admin is the mock's admin API: the JSON calls under /__admin/
// that inspect and drive it (described by admin.yaml, which it serves),
// the live event stream, the dashboard's files, and the guard that keeps
// other origins and hosts out. Its handlers work against two interfaces
// the server implements, Mock and Session: they never reach into the
// journal, the sessions or the recording themselves.
package admin
