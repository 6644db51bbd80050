// Package bookstore is a small service of genres and their books that
// keeps bookstore.yaml, written apart from verify, by hand: no code of
// the mock's or verify's reads its requests. Genres are made by PUT at
// their own path (an upsert with a client-chosen slug), books by POST
// under a genre that must exist, and every operation wants an OAuth 2
// token with the scope it declares. Built with a Bug, it breaks the
// document in one way that only verify's sequences and credential
// checks can find.
package bookstore
