// Package session is X-Mock-Session: the default session and the named
// ones a state backend keeps, bounded in number and idle time, each with
// its own resources, journal, rule counters, active scenario and webhook
// subscribers.
package session
